#!/usr/bin/env bash
# The scale benchmark (docs/benchmarks.md): N HA LiveISO clusters (3 control-plane + M workers each) through the
# local world with zero simulated durations; prints per-cluster times, the time our providers add per stage, API
# requests and CPU time per Machine (and how both change from the sizes run before), memory, start-up times and
# PASS/FAIL per target.
#   ./hack/benchmark.sh [--clusters N] [--workers M] [--timeout-minutes T]      (defaults: 5 clusters, 2 workers)
# Prepares what it needs like hack/test.sh (cached), builds the providers' jars and the simulator, then runs the
# benchmark in a JVM of its own. Exit code: 0 all targets met, 3 a target missed, 1 not finished in time.
set -euo pipefail
cd "$(dirname "$0")/.."
./hack/build-kube-binaries.sh
./hack/fetch-upstream-crds.sh
./hack/build-capi-manager.sh
./hack/build-metal3.sh
./hack/build-registry-tools.sh
echo "[hack] building the providers' jars and the simulator" >&2
mvn -B -q -ntp package -DskipTests -DskipImages -pl simulator -am \
  dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/benchmark.classpath
commit=$(git describe --always --dirty 2>/dev/null || echo unknown)
cd simulator
mkdir -p target/benchmark
exec java -Xmx1g \
  -Dbenchmark.commit="$commit" \
  -Dlogback.configurationFile=src/test/resources/benchmark/logback.xml \
  -Dbenchmark.log=target/benchmark/world.log \
  -cp "target/test-classes:target/classes:$(cat target/benchmark.classpath)" \
  io.openshiftagent.simulator.benchmark.Benchmark "$@"
