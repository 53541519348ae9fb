#!/usr/bin/env bash
# Builds the real Cluster API core manager (Cluster, Machine, MachineSet, MachineDeployment and ClusterClass/topology
# controllers; sigs.k8s.io/cluster-api/core, v$CAPI_VERSION) from the Go module proxy into $TOOLS_BIN_DIR
# (~/.cache/openshift-agent/bin), with its webhook
# configuration. The simulator's World starts it against the test hub. Idempotent.
source "$(dirname "$0")/lib.sh"
hold_cache_lock capi-manager

mkdir -p "$TOOLS_BIN_DIR"
binary="$TOOLS_BIN_DIR/capi-manager-v$CAPI_VERSION"
if [[ ! -x "$binary" ]]; then
  require_go
  log "building the Cluster API core manager v$CAPI_VERSION (a few minutes on first run)"
  enter_consumer_module capi-manager
  # Cluster API v1.14 replaces its api submodule with ./api; point it at the published module instead.
  go mod edit -replace="sigs.k8s.io/cluster-api/api=sigs.k8s.io/cluster-api/api@v$CAPI_VERSION"
  go get "sigs.k8s.io/cluster-api/core@v$CAPI_VERSION" "sigs.k8s.io/cluster-api/api@v$CAPI_VERSION" >/dev/null
  minor=$(echo "$CAPI_VERSION" | cut -d. -f2)
  go build -p 2 -trimpath -ldflags "-s -w \
    -X sigs.k8s.io/cluster-api/version.gitVersion=v$CAPI_VERSION -X sigs.k8s.io/cluster-api/version.gitMajor=1 \
    -X sigs.k8s.io/cluster-api/version.gitMinor=$minor -X sigs.k8s.io/cluster-api/version.gitTreeState=clean" \
    -o "$binary.$$.tmp" sigs.k8s.io/cluster-api/core
  mv "$binary.$$.tmp" "$binary"
  leave_consumer_module
fi
ln -sf "capi-manager-v$CAPI_VERSION" "$TOOLS_BIN_DIR/capi-manager"

# Its admission webhooks, as the release registers them (the World points them at the local manager), and all
# the CRDs it watches (the tests' hub has the cluster.x-k8s.io ones; the manager also needs addons, ipam, runtime).
webhooks="$TOOLS_BIN_DIR/capi-manager-v$CAPI_VERSION-webhooks.yaml"
crds="$TOOLS_BIN_DIR/capi-manager-v$CAPI_VERSION-crds"
if [[ ! -s "$webhooks" || ! -d "$crds" ]]; then
  module=$(module_dir "sigs.k8s.io/cluster-api@v$CAPI_VERSION")
  rm -rf "$crds.tmp" && mkdir -p "$crds.tmp"
  cp "$module"/core/config/crd/bases/*.yaml "$crds.tmp/"
  cp "$module/core/config/webhook/manifests.yaml" "$webhooks.tmp"
  chmod -R u+w,a+r "$crds.tmp" "$webhooks.tmp"
  rm -rf "$crds" && mv "$crds.tmp" "$crds" && mv "$webhooks.tmp" "$webhooks"
fi
log "Cluster API core manager ready: $TOOLS_BIN_DIR/capi-manager"
