#!/usr/bin/env bash
# Builds what plays an installed cluster's etcd members and their kubelet in the end-to-end world, from the Go module
# proxy, into $TOOLS_BIN_DIR (~/.cache/openshift-agent/bin): etcdctl (etcd v$ETCD_VERSION, the same etcd the
# API servers run) and kwok v$KWOK_VERSION (its kubelet server runs `kubectl exec` commands locally), with kwok's
# CRDs. Idempotent.
source "$(dirname "$0")/lib.sh"
hold_cache_lock kwok

mkdir -p "$TOOLS_BIN_DIR"

if [[ ! -x "$TOOLS_BIN_DIR/etcdctl-v$ETCD_VERSION" ]]; then
  require_go
  log "building etcdctl v$ETCD_VERSION"
  enter_consumer_module etcdctl
  go get "go.etcd.io/etcd/etcdctl/v3@v$ETCD_VERSION" >/dev/null
  go build -p 2 -trimpath -ldflags "-s -w" -o "$TOOLS_BIN_DIR/etcdctl-v$ETCD_VERSION.$$.tmp" go.etcd.io/etcd/etcdctl/v3
  mv "$TOOLS_BIN_DIR/etcdctl-v$ETCD_VERSION.$$.tmp" "$TOOLS_BIN_DIR/etcdctl-v$ETCD_VERSION"
  leave_consumer_module
fi

if [[ ! -x "$TOOLS_BIN_DIR/kwok-v$KWOK_VERSION" ]]; then
  require_go
  log "building kwok v$KWOK_VERSION (a few minutes on first run)"
  enter_consumer_module kwok
  go get "sigs.k8s.io/kwok/cmd/kwok@v$KWOK_VERSION" >/dev/null
  go build -p 2 -trimpath -ldflags "-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=v$KWOK_VERSION" \
    -o "$TOOLS_BIN_DIR/kwok-v$KWOK_VERSION.$$.tmp" sigs.k8s.io/kwok/cmd/kwok
  mkdir -p "$TOOLS_BIN_DIR/kwok-v$KWOK_VERSION-crds.tmp"
  cp "$(go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)"/kustomize/crd/bases/*.yaml "$TOOLS_BIN_DIR/kwok-v$KWOK_VERSION-crds.tmp/"
  rm -rf "$TOOLS_BIN_DIR/kwok-v$KWOK_VERSION-crds" && mv "$TOOLS_BIN_DIR/kwok-v$KWOK_VERSION-crds.tmp" "$TOOLS_BIN_DIR/kwok-v$KWOK_VERSION-crds"
  mv "$TOOLS_BIN_DIR/kwok-v$KWOK_VERSION.$$.tmp" "$TOOLS_BIN_DIR/kwok-v$KWOK_VERSION"
  leave_consumer_module
fi
ln -sf "etcdctl-v$ETCD_VERSION" "$TOOLS_BIN_DIR/etcdctl"
ln -sf "kwok-v$KWOK_VERSION" "$TOOLS_BIN_DIR/kwok"
ln -sfn "kwok-v$KWOK_VERSION-crds" "$TOOLS_BIN_DIR/kwok-crds"
log "etcdctl and kwok ready in $TOOLS_BIN_DIR: $("$TOOLS_BIN_DIR/etcdctl" version | head -1), kwok v$KWOK_VERSION"
