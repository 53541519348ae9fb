#!/usr/bin/env bash
# Builds the Go provider (cluster-api-provider-openshift-assisted, "CAPOA") from a checkout of its repository:
#   git clone https://github.com/openshift-assisted/cluster-api-provider-openshift-assisted
#   hack/build-go-provider.sh cluster-api-provider-openshift-assisted
# Its two managers go to $HACK_CACHE/go-provider/<commit>/{bootstrap,controlplane}-manager, beside a copy of what its
# release installs them with, {bootstrap,controlplane}-components.yaml (the kustomize output of its
# {bootstrap,controlplane}/config: CRDs, RBAC, webhooks, Deployment), which the simulator's World applies to run them.
# The Go module proxy refuses its module, but the repository ships a complete vendor/ directory, so the build downloads
# nothing. A second call for the same commit does nothing. A checkout with local changes is rebuilt every time, into
# <commit>-dirty. Prints the directory on standard output. Nothing in ./hack/test.sh needs this: CI has no checkout.
source "$(dirname "$0")/lib.sh"

MODULE="github.com/openshift-assisted/cluster-api-provider-openshift-assisted"

fail() { printf 'build-go-provider: %s\n' "$*" >&2; exit 2; }

[[ $# -eq 1 ]] || fail "usage: hack/build-go-provider.sh <checkout of $MODULE>"
checkout="$1"
[[ -d "$checkout" ]] || fail "$checkout does not exist (get it with: git clone https://$MODULE)"
checkout=$(cd "$checkout" && pwd)
module=$(sed -n 's/^module[[:space:]]\{1,\}//p' "$checkout/go.mod" 2>/dev/null | head -1 || true)
if [[ "$module" != "$MODULE" ]]; then
  [[ -f "$checkout/go.mod" ]] || fail "$checkout is not a checkout of $MODULE (it has no go.mod)"
  fail "$checkout is not a checkout of $MODULE (its go.mod names module ${module:-none})"
fi
commit=$(git -C "$checkout" rev-parse --verify -q HEAD 2>/dev/null) ||
  fail "$checkout is not a git checkout, so its commit is unknown (get it with: git clone https://$MODULE)"
[[ -z "$(git -C "$checkout" status --porcelain --untracked-files=no)" ]] || commit="$commit-dirty"

out="$HACK_CACHE/go-provider/$commit"
hold_cache_lock "go-provider-$commit"
if [[ "$commit" == *-dirty || ! -f "$out/.complete" ]]; then
  require_go
  log "building the Go provider at ${commit:0:12} from $checkout with its vendor/ directory (about 4 minutes)"
  rm -rf "$out.tmp" && mkdir -p "$out.tmp"
  for manager in bootstrap controlplane; do
    # Its container build uses CGO for FIPS; nothing here needs that, and lib.sh builds everything without CGO.
    (cd "$checkout" && GOFLAGS=-mod=vendor go build -p 2 -trimpath -o "$out.tmp/$manager-manager" "./$manager/main.go")
    cp "$checkout/$manager-components.yaml" "$out.tmp/"
  done
  echo "$commit" > "$out.tmp/commit"
  touch "$out.tmp/.complete"
  rm -rf "$out" && mv "$out.tmp" "$out"
fi
log "Go provider ready: $out"
echo "$out"
