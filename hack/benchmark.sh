#!/usr/bin/env bash
# The scale benchmark (docs/benchmarks.md).
#   ./hack/benchmark.sh [--clusters N] [--workers M] [--timeout-minutes T]      (defaults: 5 clusters, 2 workers)
#     N HA LiveISO clusters (3 control-plane + M workers each) through the local world with zero simulated
#     durations: per-cluster times, the time our providers add per stage, API requests and CPU time per Machine
#     (and how both change from the sizes run before), memory, start-up times and PASS/FAIL per target.
#   ./hack/benchmark.sh --go-provider CHECKOUT [--clusters N] [--workers M]
#     The same clusters through the Go provider's pair (built from a git clone of its repository, as
#     hack/build-go-provider.sh does) in its disk-image mode, then ours in that mode and in LiveISO, each on a fresh
#     world: each run's report, then both pairs' figures side by side with their ratios.
#   ./hack/benchmark.sh --scale N [--sno] [--installing K] [--pace fast|real] [--window-minutes W]
#     Hub scale: our two providers alone with N single-node clusters (at most K installing, default 500), the real
#     hub API server and stand-ins of Cluster API, Metal3 and assisted-service; heap, RSS, CPU and requests per
#     Machine, stage latency, the restart with the fleet installed, PASS/FAIL per goal.
# Prepares what it needs like hack/test.sh (cached), builds the providers' jars and the simulator, then runs the
# benchmark in a JVM of its own. Exit code: 0 all targets met, 3 a target missed, 1 not finished in time.
set -euo pipefail
cd "$(dirname "$0")/.."
scale=false
for arg in "$@"; do [[ "$arg" == "--scale" ]] && scale=true; done
./hack/build-kube-binaries.sh
./hack/fetch-upstream-crds.sh
./hack/build-registry-tools.sh
if [[ "$scale" == false ]]; then
  ./hack/build-capi-manager.sh
  ./hack/build-metal3.sh
  ./hack/build-kwok.sh
fi
echo "[hack] building the providers' jars and the simulator" >&2
mvn -B -q -ntp package -DskipTests -DskipImages -pl simulator -am \
  dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/benchmark.classpath
commit=$(git describe --always --dirty 2>/dev/null || echo unknown)
cd simulator
if [[ "$scale" == true ]]; then
  # A run lasts up to hours: it runs from a copy of the classes and jars, which a build meanwhile
  # cannot replace under it.
  copy=target/scale/run
  rm -rf "$copy" && mkdir -p "$copy"
  cp -r target/test-classes target/classes "$copy/"
  cp ../bootstrap-provider/target/bootstrap-provider.jar ../controlplane-provider/target/controlplane-provider.jar "$copy/"
  classpath="$copy/test-classes:$copy/classes"
  for entry in $(tr ':' ' ' < target/benchmark.classpath); do
    if [[ "$entry" == "$(cd .. && pwd)"/* ]]; then
      cp "$entry" "$copy/" && entry="$copy/$(basename "$entry")"
    fi
    classpath="$classpath:$entry"
  done
  # The stand-ins and the watch of the fleet hold every object of thousands of clusters.
  exec java -Xmx6g \
    -Dbenchmark.commit="$commit" \
    -Dopenshift-agent.provider-jars="$copy" \
    -Dlogback.configurationFile=src/test/resources/benchmark/logback.xml \
    -Dbenchmark.log=target/scale/world.log \
    -cp "$classpath" \
    io.openshiftagent.simulator.benchmark.scale.ScaleBenchmark "$@"
fi
mkdir -p target/benchmark
exec java -Xmx1g \
  -Dbenchmark.commit="$commit" \
  -Dlogback.configurationFile=src/test/resources/benchmark/logback.xml \
  -Dbenchmark.log=target/benchmark/world.log \
  -cp "target/test-classes:target/classes:$(cat target/benchmark.classpath)" \
  io.openshiftagent.simulator.benchmark.Benchmark "$@"
