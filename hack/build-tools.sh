#!/usr/bin/env bash
# Builds the real clients the delivery tests drive, from the Go module proxy, into $TOOLS_BIN_DIR
# (~/.cache/openshift-agent/bin): clusterctl (Cluster API v$CAPI_VERSION) and helm (v$HELM_VERSION).
# kubectl (with kustomize built in) comes from hack/build-kube-binaries.sh; lua5.1 comes from apt. Idempotent.
source "$(dirname "$0")/lib.sh"
hold_cache_lock tools

mkdir -p "$TOOLS_BIN_DIR"
work="$HACK_CACHE/build"

if [[ ! -x "$TOOLS_BIN_DIR/clusterctl-v$CAPI_VERSION" ]]; then
  require_go
  log "building clusterctl v$CAPI_VERSION (a few minutes on first run)"
  enter_consumer_module clusterctl
  # Cluster API v1.14 replaces its api submodule with ./api; point it at the published module instead.
  go mod edit -replace="sigs.k8s.io/cluster-api/api=sigs.k8s.io/cluster-api/api@v$CAPI_VERSION"
  go get "sigs.k8s.io/cluster-api/cmd/clusterctl@v$CAPI_VERSION" "sigs.k8s.io/cluster-api/api@v$CAPI_VERSION" >/dev/null
  minor=$(echo "$CAPI_VERSION" | cut -d. -f2)
  go build -p 2 -trimpath -ldflags "-s -w \
    -X sigs.k8s.io/cluster-api/version.gitVersion=v$CAPI_VERSION -X sigs.k8s.io/cluster-api/version.gitMajor=1 \
    -X sigs.k8s.io/cluster-api/version.gitMinor=$minor -X sigs.k8s.io/cluster-api/version.gitTreeState=clean" \
    -o "$TOOLS_BIN_DIR/clusterctl-v$CAPI_VERSION.$$.tmp" sigs.k8s.io/cluster-api/cmd/clusterctl
  mv "$TOOLS_BIN_DIR/clusterctl-v$CAPI_VERSION.$$.tmp" "$TOOLS_BIN_DIR/clusterctl-v$CAPI_VERSION"
  leave_consumer_module
fi
ln -sf "clusterctl-v$CAPI_VERSION" "$TOOLS_BIN_DIR/clusterctl"

if [[ ! -x "$TOOLS_BIN_DIR/helm-v$HELM_VERSION" ]]; then
  require_go
  log "building helm v$HELM_VERSION"
  kube_minor=$(echo "$K8S_VERSION" | cut -d. -f2)
  # Without the chartutil/lint ldflags helm assumes Kubernetes v1.20 when it renders charts.
  GOBIN="$work/helm-bin" go install -trimpath -ldflags "-s -w \
    -X helm.sh/helm/v3/internal/version.version=v$HELM_VERSION \
    -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=$kube_minor \
    -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMinor=$kube_minor" \
    "helm.sh/helm/v3/cmd/helm@v$HELM_VERSION"
  mv "$work/helm-bin/helm" "$TOOLS_BIN_DIR/helm-v$HELM_VERSION"
fi
ln -sf "helm-v$HELM_VERSION" "$TOOLS_BIN_DIR/helm"
# The Argo CD health checks are Lua 5.1 (gopher-lua); the delivery tests run them in the real interpreter.
if ! command -v lua5.1 >/dev/null 2>&1; then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    log "installing lua5.1"
    apt-get install -y -q lua5.1 >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q lua5.1 >/dev/null; }
  else
    log "lua5.1 is missing: install the Debian package lua5.1 (apt-get install -y lua5.1) as root"
    exit 1
  fi
fi
log "tools ready in $TOOLS_BIN_DIR: $("$TOOLS_BIN_DIR/clusterctl" version -o short 2>/dev/null), $("$TOOLS_BIN_DIR/helm" version --short 2>/dev/null), $(lua5.1 -v 2>&1)"
