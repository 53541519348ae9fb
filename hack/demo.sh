#!/usr/bin/env bash
# The demo: starts the local world (a real hub API server, the real Cluster API manager, the real Metal3 (CAPM3 and
# the baremetal-operator in its test mode), the real assisted-service and its PostgreSQL, our two providers, and the
# simulated hosts and installed cluster), applies a highly available cluster with kubectl and shows its progress
# live, then scales its workers, upgrades OpenShift and deletes it. Everything it starts stops when it ends (or on Ctrl-C or SIGTERM, or when the
# world cannot start: then it exits with 1, the cause last). Options: hack/demo.sh --help.
#
# The first run builds what it needs (Kubernetes, the Cluster API manager, Metal3 and assisted-service from Go
# modules, then the providers with Maven) and caches it outside the clone; later runs start in seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
for arg in "$@"; do
  case "$arg" in
    -h|--help) cat simulator/src/main/resources/demo/usage.txt; exit 0 ;;
  esac
done

step() { echo "[demo] $*"; }
started=$(date +%s)
step "preparing the kube-apiserver, kube-controller-manager, etcd and kubectl (built from Go modules on first use, ~8 min)"
./hack/build-kube-binaries.sh
step "preparing the upstream CRDs (Cluster API, Metal3, assisted-service, Hive)"
./hack/fetch-upstream-crds.sh
step "preparing etcdctl and kwok, the installed clusters' etcd tools and kubelet (built from Go modules on first use, ~4 min)"
./hack/build-kwok.sh
step "preparing clusterctl and helm (built from Go modules on first use, ~3 min)"
./hack/build-tools.sh
step "preparing the Cluster API manager (built from its Go module on first use, ~3 min)"
./hack/build-capi-manager.sh
step "preparing CAPM3 and the baremetal-operator (built from their Go modules on first use, ~5 min)"
./hack/build-metal3.sh
step "preparing the OCI registry and crane that hold the release images (built from Go modules on first use, ~5 min)"
./hack/build-registry-tools.sh
step "preparing assisted-service with libnmstate, PostgreSQL and socat (built from Go modules and crates.io on first use, ~10 min)"
./hack/build-assisted-service.sh
step "building the providers and the simulator with Maven (first use downloads the dependencies)"
mkdir -p target/demo
mvn -B -ntp -Dstyle.color=never package dependency:build-classpath -pl simulator -am -DskipTests -DskipImages \
  -Dmdep.outputFile=target/runtime-classpath.txt -Dmdep.includeScope=runtime > target/demo/build.log 2>&1 \
  || { tail -40 target/demo/build.log; echo "[demo] the Maven build failed; its log: target/demo/build.log"; exit 1; }
step "ready after $(( $(date +%s) - started ))s; the world's log goes to target/demo/world.log"
exec java -Dopenshiftagent.repoRoot="$PWD" -Dlogback.configurationFile=demo/logback-demo.xml \
  -cp "simulator/target/classes:$(cat simulator/target/runtime-classpath.txt)" \
  io.openshiftagent.simulator.demo.Demo "$@"
