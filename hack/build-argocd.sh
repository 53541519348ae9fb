#!/usr/bin/env bash
# Builds the real Argo CD (github.com/argoproj/argo-cd/v3, v$ARGOCD_VERSION) from the Go module proxy into
# $TOOLS_BIN_DIR (~/.cache/openshift-agent/bin): its multi-call binary (the command name, or ARGOCD_BINARY_NAME,
# selects the application controller, the repo server or the CLI), with its CRDs and base
# configuration next to it; and installs Debian's redis-server, which Argo CD caches in. The GitOps test (docs/e2e.md)
# runs them. Idempotent.
source "$(dirname "$0")/lib.sh"
hold_cache_lock argocd

module="github.com/argoproj/argo-cd/v3"
mkdir -p "$TOOLS_BIN_DIR" "$HACK_CACHE/build"
binary="$TOOLS_BIN_DIR/argocd-v$ARGOCD_VERSION"
if [[ ! -x "$binary" ]]; then
  require_go
  log "building Argo CD v$ARGOCD_VERSION (about ten minutes on two cores on first run)"
  started=$(date +%s)
  work=$(mktemp -d "$HACK_CACHE/build/argocd.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  source_dir=$(module_dir "$module@v$ARGOCD_VERSION")
  cd "$work"
  go mod init local/argocd >/dev/null 2>&1
  # A replace directive counts only in the main module: copy Argo CD's (it pins the Kubernetes staging modules
  # to one release, and older protobuf and grpc-gateway modules) into this throw-away one.
  sed -n '/^replace (/,/^)/p; /^replace [^(]/p' "$source_dir/go.mod" >> go.mod
  go get "$module/cmd@v$ARGOCD_VERSION" >/dev/null
  go build -p 2 -trimpath -ldflags "-s -w \
    -X $module/common.version=$ARGOCD_VERSION -X $module/common.gitTag=v$ARGOCD_VERSION \
    -X $module/common.gitTreeState=clean" \
    -o "$binary.tmp.$$" "$module/cmd"
  mv "$binary.tmp.$$" "$binary"
  log "built Argo CD v$ARGOCD_VERSION in $(( $(date +%s) - started ))s"
fi
ln -sf "argocd-v$ARGOCD_VERSION" "$TOOLS_BIN_DIR/argocd.tmp.$$" && mv -T "$TOOLS_BIN_DIR/argocd.tmp.$$" "$TOOLS_BIN_DIR/argocd"

# From the same module: its CRDs and the configuration its install manifests start with (argocd-cm with Argo CD's
# default resource exclusions, argocd-secret...), which the test applies before it configures Argo CD as users do.
manifests="$TOOLS_BIN_DIR/argocd-v$ARGOCD_VERSION-manifests"
if [[ ! -d "$manifests" ]]; then
  source_dir=$(module_dir "$module@v$ARGOCD_VERSION")
  tmp=$(mktemp -d "$manifests.tmp.XXXXXX")
  mkdir -p "$tmp/crds" "$tmp/config"
  cp "$source_dir"/manifests/crds/application-crd.yaml "$source_dir"/manifests/crds/appproject-crd.yaml "$tmp/crds/"
  cp "$source_dir"/manifests/base/config/argocd-*.yaml "$tmp/config/"
  chmod -R u+w,a+rX "$tmp"
  mv -T "$tmp" "$manifests" 2>/dev/null || rm -rf "$tmp"
fi

# Argo CD keeps its manifests and app state cache in Redis.
if ! command -v redis-server >/dev/null 2>&1; then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    log "installing redis-server"
    apt-get install -y -q --no-install-recommends redis-server >/dev/null \
      || { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends redis-server >/dev/null; }
  else
    log "redis-server is missing: install the Debian package redis-server (apt-get install -y redis-server) as root"
    exit 1
  fi
fi
log "Argo CD ready: $("$TOOLS_BIN_DIR/argocd" version --client --short 2>/dev/null), $(redis-server --version | cut -d' ' -f1-3)"
