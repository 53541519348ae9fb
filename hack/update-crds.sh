#!/usr/bin/env bash
# Regenerates our CRDs from the Java model (module api) and copies them to config/crd/<provider>/ (printer columns in
# the model's order), one kustomization
# per provider (a provider's manifests include only its own CRDs), where kubectl/kustomize/GitOps users consume them.
# The api tests fail while the committed copy is stale.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mvn -B -q -pl api -am process-classes -Denforcer.skip -Dspotless.check.skip=true
for provider in bootstrap controlplane; do
  dir="config/crd/$provider"
  mkdir -p "$dir"
  rm -f "$dir"/*.yaml
  files=()
  for f in api/target/classes/META-INF/fabric8/*."$provider".cluster.x-k8s.io-v1.yml; do
    name=$(basename "$f" -v1.yml)          # <plural>.<group>
    plural=${name%%.*}; group=${name#*.}
    cp "$f" "$dir/${group}_${plural}.yaml"
    files+=("${group}_${plural}.yaml")
  done
  {
    echo "# The ${provider} provider's CRDs, generated from the Java model by hack/update-crds.sh."
    echo "apiVersion: kustomize.config.k8s.io/v1beta1"
    echo "kind: Kustomization"
    echo "resources:"
    printf '  - %s\n' "${files[@]}"
  } > "$dir/kustomization.yaml"
  ls "$dir"
done
# Their printer columns in the order the model declares them (the generator sorts them by JSON path).
mvn -B -q -pl api -am test -Dtest=CommittedCrdsAreCurrentTest -Dcrds.update=true -Denforcer.skip \
  -Dspotless.check.skip=true -Dsurefire.failIfNoSpecifiedTests=false
# The API reference is rendered from those CRDs.
mvn -B -q -pl api -am test -Dtest=ApiReferenceIsCurrentTest -Dapi.reference.update=true -Denforcer.skip \
  -Dspotless.check.skip=true -Dsurefire.failIfNoSpecifiedTests=false
echo "docs/api-reference.md"
# The Helm chart installs the same CRDs from its crds/ directory (delivery-tests fail while its copy is stale).
rm -f charts/openshift-agent/crds/*.yaml
cp config/crd/bootstrap/*_*.yaml config/crd/controlplane/*_*.yaml charts/openshift-agent/crds/
echo "charts/openshift-agent/crds"
