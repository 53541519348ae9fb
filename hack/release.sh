#!/usr/bin/env bash
# Writes the clusterctl release artifacts to out/ (or $OUT_DIR):
#   bootstrap-components.yaml, control-plane-components.yaml, control-plane-components-inplace.yaml (with the in-place
#   update hooks, config/controlplane-inplace), metadata.yaml, cluster-template*.yaml,
#   clusterclass-openshift-assisted.yaml
# Usage: hack/release.sh [VERSION]   (default: the parent pom's version without -SNAPSHOT, e.g. 0.1.0)
# The components are the kustomize trees under config/ with clusterctl variables for what users tune:
#   OPENSHIFT_AGENT_{BOOTSTRAP,CONTROL_PLANE}_IMAGE, OPENSHIFT_AGENT_LOG_VERBOSITY, OPENSHIFT_AGENT_DIAGNOSTICS_ADDRESS,
#   OPENSHIFT_AGENT_INSECURE_DIAGNOSTICS and, for the bootstrap provider,
#   OPENSHIFT_AGENT_ASSISTED_CA_BUNDLE_{RESOURCE,NAMESPACE,NAME,KEY}, OPENSHIFT_AGENT_ASSISTED_SERVICE_URL and
#   OPENSHIFT_AGENT_DEFAULT_BOOT_MODE; for a namespaced install (docs/operations.md) OPENSHIFT_AGENT_WATCH_NAMESPACE and
#   OPENSHIFT_AGENT_MANAGER_BINDING_KIND.
source "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
version="${1:-$(python3 -c "import xml.etree.ElementTree as t; print(t.parse('pom.xml').getroot().find('{http://maven.apache.org/POM/4.0.0}version').text)")}"
version="${version#v}"; version="${version%-SNAPSHOT}"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { log "not a release version: '$version'"; exit 1; }
out="${OUT_DIR:-$root/out}"
kubectl="${KUBECTL:-$KUBE_BIN_DIR/kubectl}"
[[ -x "$kubectl" ]] || kubectl=$(command -v kubectl) || { log "kubectl not found: run hack/build-kube-binaries.sh"; exit 1; }
mkdir -p "$out"

# components PROVIDER_DIR IMAGE_VARIABLE OUTPUT
components() {
  "$kubectl" kustomize "config/$1" | python3 "$root/hack/clusterctl-variables.py" "$version" "$2" > "$out/$3"
  log "$out/$3"
}
components bootstrap OPENSHIFT_AGENT_BOOTSTRAP_IMAGE bootstrap-components.yaml
components controlplane OPENSHIFT_AGENT_CONTROL_PLANE_IMAGE control-plane-components.yaml
components controlplane-inplace OPENSHIFT_AGENT_CONTROL_PLANE_IMAGE control-plane-components-inplace.yaml
cp metadata.yaml "$out/metadata.yaml"
cp templates/cluster-template*.yaml templates/clusterclass-*.yaml "$out/"
log "release v$version written to $out"
