#!/usr/bin/env bash
# Measures a cold CI run: clones HEAD into a new directory and runs .ci/run there with every cache it uses empty
# (the project's tool cache, the Kubernetes binaries, Go's module and build caches, cargo's registry, the Maven
# repository), all under one directory, as on a fresh CI machine; Debian packages already installed stay. Prints
# each step's time (hack/test.sh does) and the whole run's.
#   ./hack/cold-run.sh [DIR]      (default: a new directory under /tmp; the clone goes into DIR/clone)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$(mktemp -d /tmp/openshift-agent-cold.XXXXXX)}
mkdir -p "$dir"
if [[ -n "$(ls -A "$dir")" ]]; then
  echo "[hack] $dir is not empty; a cold run needs an empty directory" >&2
  exit 2
fi
git clone -q "$repo" "$dir/clone"
export OPENSHIFT_AGENT_CACHE="$dir/openshift-agent" KUBE_API_TEST_DIR="$dir/kubeapitest" \
  GOMODCACHE="$dir/gomod" GOCACHE="$dir/gobuild" CARGO_HOME="$dir/cargo" \
  MAVEN_OPTS="${MAVEN_OPTS:-} -Dmaven.repo.local=$dir/m2"
started=$(date +%s)
status=0
(cd "$dir/clone" && CI=true bash .ci/run) || status=$?
echo "[hack] cold run of $(git -C "$repo" rev-parse --short HEAD) ended with $status after $(( $(date +%s) - started ))s (caches in $dir)"
exit "$status"
