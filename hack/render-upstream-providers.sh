#!/usr/bin/env bash
# Prepares what the delivery tests hand to the real clusterctl, rendered from the upstream Go modules with kustomize:
# a local clusterctl repository (.cache/clusterctl-repository/) with Cluster API v$CAPI_VERSION core and Metal3
# v$CAPM3_VERSION components and metadata, and cert-manager v$CERT_MANAGER_VERSION's CRDs (.cache/cert-manager-crds/),
# which the tests apply themselves (clusterctl's cert-manager is then "externally provisioned"). Idempotent.
source "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
repo="$root/.cache/clusterctl-repository"
certs="$root/.cache/cert-manager-crds"
stamp="capi=$CAPI_VERSION capm3=$CAPM3_VERSION cert-manager=$CERT_MANAGER_VERSION"
if [[ "$(cat "$repo/.complete" 2>/dev/null)" == "$stamp" && -f "$certs/.complete" ]]; then
  exit 0
fi
require_go
kubectl="$KUBE_BIN_DIR/kubectl"
[[ -x "$kubectl" ]] || { log "$kubectl missing: run hack/build-kube-binaries.sh"; exit 1; }
capi=$(module_dir "sigs.k8s.io/cluster-api@v$CAPI_VERSION")
capm3=$(module_dir "github.com/metal3-io/cluster-api-provider-metal3@v$CAPM3_VERSION")
cert_manager=$(module_dir "github.com/cert-manager/cert-manager@v$CERT_MANAGER_VERSION")

rm -rf "$repo" "$certs" && mkdir -p "$repo/cluster-api/v$CAPI_VERSION" "$repo/infrastructure-metal3/v$CAPM3_VERSION" "$certs"
"$kubectl" kustomize "$capi/core/config/default" > "$repo/cluster-api/v$CAPI_VERSION/core-components.yaml"
cp "$capi/metadata.yaml" "$repo/cluster-api/v$CAPI_VERSION/metadata.yaml"
"$kubectl" kustomize "$capm3/config/default" > "$repo/infrastructure-metal3/v$CAPM3_VERSION/infrastructure-components.yaml"
cp "$capm3/metadata.yaml" "$repo/infrastructure-metal3/v$CAPM3_VERSION/metadata.yaml"
cp "$cert_manager"/deploy/crds/*.yaml "$certs/"
chmod -R u+w "$repo" "$certs"
echo "$stamp" > "$repo/.complete"
echo "$stamp" > "$certs/.complete"
log "clusterctl repository in $repo, cert-manager CRDs in $certs"
