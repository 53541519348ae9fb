#!/usr/bin/env bash
# Builds kube-apiserver, kube-controller-manager, kubectl (Kubernetes $K8S_VERSION) and etcd ($ETCD_VERSION) from the
# Go module proxy into the layout fabric8 kube-api-test reads: $KUBE_API_TEST_DIR/k8s/<version>-linux-amd64/.
# Idempotent: does nothing when the four binaries are already there.
source "$(dirname "$0")/lib.sh"
hold_cache_lock kube-binaries

if [[ -x "$KUBE_BIN_DIR/kube-apiserver" && -x "$KUBE_BIN_DIR/kube-controller-manager" && -x "$KUBE_BIN_DIR/kubectl" \
  && -x "$KUBE_BIN_DIR/etcd" ]]; then
  log "Kubernetes binaries present in $KUBE_BIN_DIR"
  exit 0
fi
require_go
work="$HACK_CACHE/build"
mkdir -p "$work" "$KUBE_BIN_DIR.tmp"
started=$(date +%s)

if [[ ! -x "$KUBE_BIN_DIR.tmp/etcd" ]]; then
  log "building etcd v$ETCD_VERSION (a few minutes on first run)"
  rm -rf "$work/etcd" && mkdir -p "$work/etcd" && cd "$work/etcd"
  go mod init local/etcdbin >/dev/null 2>&1
  go get "go.etcd.io/etcd/server/v3@v$ETCD_VERSION" >/dev/null
  go build -p 2 -trimpath -o "$KUBE_BIN_DIR.tmp/etcd" go.etcd.io/etcd/server/v3
fi

if [[ ! -x "$KUBE_BIN_DIR.tmp/kube-apiserver" || ! -x "$KUBE_BIN_DIR.tmp/kube-controller-manager" \
  || ! -x "$KUBE_BIN_DIR.tmp/kubectl" ]]; then
  log "building kube-apiserver, kube-controller-manager and kubectl v$K8S_VERSION (7-9 minutes on first run on 2 cores)"
  rm -rf "$work/kube" && mkdir -p "$work/kube" && cd "$work/kube"
  go mod init local/kubebin >/dev/null 2>&1
  go mod edit -go=1.26.0
  staging="0.${K8S_VERSION#1.}"
  kmod=$(go mod download -json "k8s.io/kubernetes@v$K8S_VERSION" | python3 -c 'import json,sys;print(json.load(sys.stdin)["GoMod"])')
  # k/k replaces each staging module with ./staging/...; map every one of them to its published tag.
  for m in $(grep -oE '^\s*k8s\.io/[a-z0-9-]+ => \./staging/' "$kmod" | awk '{print $1}'); do
    go mod edit -replace="$m=$m@v$staging"
  done
  go get "k8s.io/kubernetes/cmd/kube-apiserver@v$K8S_VERSION" "k8s.io/kubernetes/cmd/kube-controller-manager@v$K8S_VERSION" \
    "k8s.io/kubernetes/cmd/kubectl@v$K8S_VERSION" >/dev/null
  minor=$(echo "$K8S_VERSION" | cut -d. -f2)
  # Without these the server reports v0.0.0-master and clients such as clusterctl refuse it.
  ldflags="-s -w \
    -X k8s.io/component-base/version.gitVersion=v$K8S_VERSION -X k8s.io/component-base/version.gitMajor=1 \
    -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/component-base/version.gitTreeState=clean \
    -X k8s.io/component-base/version.buildDate=2026-01-01T00:00:00Z \
    -X k8s.io/client-go/pkg/version.gitVersion=v$K8S_VERSION -X k8s.io/client-go/pkg/version.gitMajor=1 \
    -X k8s.io/client-go/pkg/version.gitMinor=$minor"
  # One invocation, so the packages the three share compile once.
  go build -p 2 -trimpath -ldflags "$ldflags" -o "$KUBE_BIN_DIR.tmp/" \
    k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kubectl
fi

chmod +x "$KUBE_BIN_DIR.tmp"/*
rm -rf "$KUBE_BIN_DIR" && mv "$KUBE_BIN_DIR.tmp" "$KUBE_BIN_DIR"
log "Kubernetes binaries ready in $KUBE_BIN_DIR after $(( $(date +%s) - started ))s"
