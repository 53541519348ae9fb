#!/usr/bin/env bash
# Copies the pinned upstream CRDs (Cluster API core, CAPM3, BareMetalHost, assisted-service and the Hive CRDs it
# ships) out of their Go modules into .cache/upstream-crds/ (git-ignored), where the tests install them from, and
# OpenShift's ClusterVersion, ClusterOperator, MachineConfigPool and (operator.openshift.io) Etcd CRDs into
# .cache/workload-crds/ for the test API server that plays an installed cluster, and an OpenShift hub's APIServer
# and the Prometheus operator's ServiceMonitor CRDs into .cache/openshift-hub-crds/. The modules stay
# cached in the Go module cache outside the clone. Idempotent: does nothing when the pinned set is there.
source "$(dirname "$0")/lib.sh"

root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/.cache/upstream-crds"
stamp="capi=$CAPI_VERSION capm3=$CAPM3_VERSION bmo=$BMO_VERSION $ASSISTED_SERVICE_MODULE (its CRDs and Hive's)"

# The workload cluster's CRDs, kept apart: the hub does not serve them. ClusterVersion (upgrades), MachineConfigPool
# (a paused pool holds its Nodes' updates), ClusterOperator and Etcd (the cluster-etcd-operator's reports, read before a
# control-plane host is removed).
workload="$root/.cache/workload-crds"
workload_stamp="$OPENSHIFT_API_MODULE clusterversions clusteroperators machineconfigpools etcds"
if [[ ! -f "$workload/.complete" || "$(cat "$workload/.complete")" != "$workload_stamp" ]]; then
  require_go
  openshift_api=$(module_dir "$OPENSHIFT_API_MODULE")
  rm -rf "$workload.tmp" && mkdir -p "$workload.tmp/openshift"
  cp "$openshift_api"/config/v1/zz_generated.crd-manifests/*clusterversions-Default.crd.yaml \
    "$openshift_api"/config/v1/zz_generated.crd-manifests/*_clusteroperators.crd.yaml \
    "$openshift_api"/machineconfiguration/v1/zz_generated.crd-manifests/*_machineconfigpools-Default.crd.yaml \
    "$openshift_api"/operator/v1/zz_generated.crd-manifests/*_etcds-Default.crd.yaml "$workload.tmp/openshift/"
  chmod -R u+w "$workload.tmp"
  echo "$workload_stamp" > "$workload.tmp/.complete"
  rm -rf "$workload" && mv "$workload.tmp" "$workload"
  log "workload-cluster CRDs ready in $workload"
fi

# An OpenShift hub's APIServer (config.openshift.io) and the Prometheus operator's ServiceMonitor, kept apart too:
# only the tests of the metrics server's TLS profile and of the ServiceMonitors install them, on the hub they share.
openshift_hub="$root/.cache/openshift-hub-crds"
openshift_hub_stamp="$OPENSHIFT_CONFIG_API_MODULE apiservers-TechPreviewNoUpgrade prometheus-operator=$PROMETHEUS_OPERATOR_VERSION servicemonitors"
if [[ ! -f "$openshift_hub/.complete" || "$(cat "$openshift_hub/.complete")" != "$openshift_hub_stamp" ]]; then
  require_go
  config_api=$(module_dir "$OPENSHIFT_CONFIG_API_MODULE")
  rm -rf "$openshift_hub.tmp" && mkdir -p "$openshift_hub.tmp"
  cp "$config_api"/config/v1/zz_generated.crd-manifests/*_apiservers-TechPreviewNoUpgrade.crd.yaml "$openshift_hub.tmp/"
  # And the Prometheus operator's ServiceMonitor, as a hub with (OpenShift's) monitoring has it.
  prometheus_operator=$(module_dir "github.com/prometheus-operator/prometheus-operator@v$PROMETHEUS_OPERATOR_VERSION")
  cp "$prometheus_operator"/example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml "$openshift_hub.tmp/"
  chmod -R u+w "$openshift_hub.tmp"
  echo "$openshift_hub_stamp" > "$openshift_hub.tmp/.complete"
  rm -rf "$openshift_hub" && mv "$openshift_hub.tmp" "$openshift_hub"
  log "OpenShift hub CRDs ready in $openshift_hub"
fi

if [[ -f "$out/.complete" && "$(cat "$out/.complete")" == "$stamp" ]]; then
  log "upstream CRDs present in $out"
  exit 0
fi
require_go
rm -rf "$out.tmp" && mkdir -p "$out.tmp"/{cluster-api,metal3,assisted-service,hive}

capi=$(module_dir "sigs.k8s.io/cluster-api@v$CAPI_VERSION")
capm3=$(module_dir "github.com/metal3-io/cluster-api-provider-metal3@v$CAPM3_VERSION")
bmo=$(module_dir "github.com/metal3-io/baremetal-operator@v$BMO_VERSION")
assisted=$(module_dir "$ASSISTED_SERVICE_MODULE")

# Cluster API v1.14 moved the core kustomize tree under core/; older releases keep it at the root.
capi_crds="$capi/core/config/crd/bases"; [[ -d "$capi_crds" ]] || capi_crds="$capi/config/crd/bases"
cp "$capi_crds"/cluster.x-k8s.io_*.yaml "$out.tmp/cluster-api/"
cp "$capm3"/config/crd/bases/infrastructure.cluster.x-k8s.io_*.yaml "$out.tmp/metal3/"
cp "$bmo"/config/base/crds/bases/metal3.io_*.yaml "$out.tmp/metal3/"
# assisted-service's CRDs as it ships them for a kube-api install (all of them: it watches AgentClassifications too),
# and the Hive CRDs it ships and is tested against: the tests' hub holds exactly what the real service runs on.
cp "$assisted/config/crd/resources.yaml" "$out.tmp/assisted-service/"
cp "$assisted"/hack/crds/hive/hive.openshift.io_{clusterdeployments,clusterimagesets}.yaml "$out.tmp/hive/"
chmod -R u+w "$out.tmp"
echo "$stamp" > "$out.tmp/.complete"
rm -rf "$out" && mv "$out.tmp" "$out"
log "upstream CRDs ready in $out ($(find "$out" -name '*.yaml' | wc -l) files)"
