#!/usr/bin/env bash
# Builds the real OCI registry and registry client the tests use, from the Go module proxy, into $TOOLS_BIN_DIR
# (~/.cache/openshift-agent/bin): the CNCF distribution registry (cmd/registry, v$DISTRIBUTION_VERSION) and
# go-containerregistry's crane (v$CRANE_VERSION). The tests run the registry on loopback (TLS from the test CA,
# htpasswd auth), push release-image manifests and our provider images with crane, and read them back with it.
# Idempotent; each binary is built into a temporary directory and moved into place.
source "$(dirname "$0")/lib.sh"

mkdir -p "$TOOLS_BIN_DIR"
hold_cache_lock registry-tools

# build_go_binary NAME VERSION PACKAGE@VERSION: go install into a scratch GOBIN, then an atomic move.
build_go_binary() {
  local name="$1" version="$2" package="$3" target="$TOOLS_BIN_DIR/$1-v$2"
  if [[ ! -x "$target" ]]; then
    require_go
    local started gobin
    started=$(date +%s)
    log "building $name v$version"
    gobin=$(mktemp -d "$TOOLS_BIN_DIR/.$name.XXXXXX")
    GOBIN="$gobin" go install -p 2 -trimpath -ldflags "-s -w" "$package"
    mv "$gobin/$(basename "${package%@*}")" "$target"
    rmdir "$gobin"
    log "built $name v$version in $(( $(date +%s) - started ))s"
  fi
  ln -sfn "$name-v$version" "$TOOLS_BIN_DIR/$name.tmp" && mv -T "$TOOLS_BIN_DIR/$name.tmp" "$TOOLS_BIN_DIR/$name"
}

build_go_binary registry "$DISTRIBUTION_VERSION" \
  "github.com/distribution/distribution/v3/cmd/registry@v$DISTRIBUTION_VERSION"
build_go_binary crane "$CRANE_VERSION" "github.com/google/go-containerregistry/cmd/crane@v$CRANE_VERSION"
log "registry tools ready in $TOOLS_BIN_DIR: registry $("$TOOLS_BIN_DIR/registry" --version 2>/dev/null | awk '{print $3}'), crane $("$TOOLS_BIN_DIR/crane" version 2>/dev/null)"
