#!/usr/bin/env bash
# Regenerates our CRDs from the Java model (module api) and copies them to config/crd/bases/, where
# kubectl/kustomize/GitOps users consume them. The api tests fail while the committed copy is stale.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mvn -B -q -pl api -am process-classes -Denforcer.skip -Dspotless.check.skip=true
mkdir -p config/crd/bases
rm -f config/crd/bases/*.yaml
for f in api/target/classes/META-INF/fabric8/*-v1.yml; do
  name=$(basename "$f" -v1.yml)          # <plural>.<group>
  plural=${name%%.*}; group=${name#*.}
  cp "$f" "config/crd/bases/${group}_${plural}.yaml"
done
ls config/crd/bases
# The API reference is rendered from those CRDs.
mvn -B -q -pl api test -Dtest=ApiReferenceIsCurrentTest -Dapi.reference.update=true -Denforcer.skip \
  -Dspotless.check.skip=true -Dsurefire.failIfNoSpecifiedTests=false
echo "docs/api-reference.md"
# The Helm chart installs the same CRDs from its crds/ directory (delivery-tests fail while its copy is stale).
rm -f charts/openshift-agent/crds/*.yaml
cp config/crd/bases/*.yaml charts/openshift-agent/crds/
echo "charts/openshift-agent/crds"
