#!/usr/bin/env bash
# The project's test command. Prepares what the tests need, cached outside the clone (a kube-apiserver, kubectl
# and etcd built from the Go module proxy; the pinned upstream CRDs; the OCI registry and crane; the provider
# images' base root filesystem; the Cluster API core manager, CAPM3, the baremetal-operator, Argo CD and
# assisted-service (with libnmstate, PostgreSQL and socat) that the simulator's end-to-end tests run), then runs the
# whole Maven build with its tests against that real API server. Says how long each step took. Extra arguments go
# to Maven (e.g. -pl api).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
step() {
  local begun=$(date +%s)
  "$@"
  echo "[hack] $1 took $(( $(date +%s) - begun ))s"
}
step ./hack/build-kube-binaries.sh
step ./hack/fetch-upstream-crds.sh
step ./hack/build-tools.sh
step ./hack/build-kwok.sh
step ./hack/build-registry-tools.sh
step ./hack/build-base-image.sh
step ./hack/render-upstream-providers.sh
step ./hack/build-capi-manager.sh
step ./hack/build-metal3.sh
step ./hack/build-argocd.sh
step ./hack/build-assisted-service.sh
# Two modules at a time (MAVEN_THREADS): the two providers test side by side once provider-common is built, and the
# delivery tests run beside the end-to-end tests; most of both is waiting, and this saves minutes on 2 cores.
step mvn -B -ntp -T "${MAVEN_THREADS:-2}" verify "$@"
echo "[hack] test.sh finished in $(( $(date +%s) - started ))s"
