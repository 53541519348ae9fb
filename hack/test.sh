#!/usr/bin/env bash
# The project's test command. Prepares what the tests need, cached outside the clone (a kube-apiserver, kubectl
# and etcd built from the Go module proxy; the pinned upstream CRDs; the Cluster API core manager and Argo CD the
# simulator's end-to-end tests run), then runs the whole Maven build with its tests against that real API server.
# Extra arguments go to Maven (e.g. -pl api).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
./hack/build-kube-binaries.sh
./hack/fetch-upstream-crds.sh
./hack/build-tools.sh
./hack/render-upstream-providers.sh
./hack/build-capi-manager.sh
./hack/build-argocd.sh
mvn -B -ntp verify "$@"
echo "[hack] test.sh finished in $(( $(date +%s) - started ))s"
