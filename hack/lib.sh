# Shared settings for the hack/ scripts. Source it; do not run it.
# Everything built or downloaded is cached outside the clone so later runs are fast.
set -euo pipefail

HACK_CACHE="${OPENSHIFT_AGENT_CACHE:-$HOME/.cache/openshift-agent}"
KUBE_API_TEST_DIR="${KUBE_API_TEST_DIR:-$HOME/.kubeapitest}"

K8S_VERSION="1.36.3"
ETCD_VERSION="3.6.14"
# kwok: its kubelet server plays the installed clusters' kubelets for `kubectl exec` into the etcd pods.
KWOK_VERSION="0.8.0"
CAPI_VERSION="1.14.0"
CAPM3_VERSION="1.13.2"
BMO_VERSION="0.13.2"
# The proxy does not serve these two at the versions the operator's go.mod names (its own ./pkg/hardwareutils at
# v0.13.2, ironic-standalone-operator/api v0.8.2); these are the nearest it serves, and the operator builds with them.
BMO_HARDWAREUTILS_VERSION="0.13.1"
IRSO_API_VERSION="0.8.0"
KUSTOMIZE_VERSION="5.8.1"
HELM_VERSION="3.21.4"
CERT_MANAGER_VERSION="1.21.1"
# Argo CD: the newest release that builds from what the proxy serves with our Go. v3.3 to v3.5 build their gitops-engine
# from a directory of their own repository (a replace to ./gitops-engine that only their own build sees; v3.4+ name
# it github.com/argoproj/argo-cd/gitops-engine, which the proxy refuses), v3.6 needs Go 1.27, and v3.2.12 does not
# compile (its controller/cache/info.go calls settings.ValidateExternalURL, which that tag lacks).
ARGOCD_VERSION="3.2.11"
# The OCI registry (CNCF distribution) and the registry client (go-containerregistry's crane) the tests run.
DISTRIBUTION_VERSION="3.1.2"
CRANE_VERSION="0.22.1"
# assisted-service has no usable semver tags for Go. This is the newest commit our module proxy
# serves (2025-04-30); newer ones answer 403 there. The tests' Hive CRDs are the ones assisted-service ships.
ASSISTED_SERVICE_MODULE="github.com/openshift/assisted-service@v1.0.10-0.20250430094626-07e5c4388c55"
# The C library of nmstate (crates.io nmstate-clib), which assisted-service's nmstate Go binding links.
NMSTATE_VERSION="2.2.62"
# openshift/api has no Go tags either; this pseudo-version (listed in Hive's go.mod) is served by the proxy. The tests
# install its ClusterVersion CRD in a second API server that plays the installed OpenShift cluster.
OPENSHIFT_API_MODULE="github.com/openshift/api@v0.0.0-20240708071937-c9a91940bf0f"
# A newer openshift/api for the hub's config.openshift.io APIServer CRD: its TLS profile with tlsAdherence (the
# TechPreviewNoUpgrade feature set, where that field is), which the providers' metrics server honours.
OPENSHIFT_CONFIG_API_MODULE="github.com/openshift/api@v0.0.0-20260420151639-34e60874783e"
# The Prometheus operator's ServiceMonitor CRD, which the chart's and config/prometheus' ServiceMonitors are applied
# against in the tests.
PROMETHEUS_OPERATOR_VERSION="0.85.0"
# The checksum database has no entry for these two, so we pin their go.sum hashes ourselves.
declare -A PINNED_MODULE_SUMS=(
  ["github.com/metal3-io/cluster-api-provider-metal3@v$CAPM3_VERSION"]="h1:qYIXaHZp3Tcn2Taf+LZZ7rjATyKLVjguMS39pC640pw="
  ["$ASSISTED_SERVICE_MODULE"]="h1:J3QXqDcKGn2nbcATMXv9k/IhTJCfkLE3nQp3WRGiHW0="
)

KUBE_BIN_DIR="$KUBE_API_TEST_DIR/k8s/$K8S_VERSION-linux-amd64"
TOOLS_BIN_DIR="$HACK_CACHE/bin"
CRD_CACHE_DIR="$HACK_CACHE/crds"
# The built service, keyed by its module version and libnmstate's.
ASSISTED_SERVICE_DIR="$HACK_CACHE/assisted-service/${ASSISTED_SERVICE_MODULE#*@}-nmstate-$NMSTATE_VERSION"

# Fail fast instead of trying GitHub, which this environment cannot reach.
export GOPROXY="${GOPROXY:-https://proxy.golang.org}"
GOPROXY="${GOPROXY%,direct}"
export GOFLAGS="-modcacherw"
export GOTOOLCHAIN="${GOTOOLCHAIN:-local}"
export CGO_ENABLED=0

log() { printf '[hack] %s\n' "$*" >&2; }

# hold_cache_lock NAME: waits for, then holds until the calling script exits, an exclusive lock on NAME in the
# shared cache, so two test runs on one machine (two clones, or a demo beside the tests) never build into the
# same directory at once; the second one finds the first one's result.
hold_cache_lock() {
  mkdir -p "$HACK_CACHE/locks"
  exec {cache_lock_fd}>"$HACK_CACHE/locks/$1.lock"
  if ! flock -n "$cache_lock_fd"; then
    log "waiting for another build of $1 on this machine"
    flock "$cache_lock_fd"
  fi
}

require_go() {
  command -v go >/dev/null || { log "go is not installed; install Go >= 1.26"; exit 1; }
  local v
  v=$(go env GOVERSION | sed 's/^go//')
  case "$v" in
    1.2[6-9]*|1.[3-9]*) ;;
    *) log "Go $v is too old; Kubernetes $K8S_VERSION needs Go >= 1.26 (try GOTOOLCHAIN=go1.26.5)"; exit 1 ;;
  esac
}

# enter_consumer_module NAME [GO_SUM_LINES]: cd into a fresh throw-away Go module of its own (a temporary directory
# under $HACK_CACHE/build, so that two builds at once do not meet), whose go.sum starts with GO_SUM_LINES (pinned hashes
# of modules the checksum database lacks). The caller adds replace directives, `go get`s and builds what it needs from
# it, then calls leave_consumer_module.
enter_consumer_module() {
  mkdir -p "$HACK_CACHE/build"
  CONSUMER_MODULE_DIR=$(mktemp -d "$HACK_CACHE/build/$1.XXXXXX")
  cd "$CONSUMER_MODULE_DIR"
  go mod init "local/$1" >/dev/null 2>&1
  printf '%s\n' "${2:-}" | sed '/^$/d' > go.sum
}

leave_consumer_module() {
  cd / && rm -rf "$CONSUMER_MODULE_DIR"
}

# module_dir MODULE@VERSION -> prints the module's directory in the Go module cache. Modules with a pinned
# hash skip the checksum database (which lacks them) and are checked against the pin instead.
module_dir() {
  local module="$1" pinned="${PINNED_MODULE_SUMS[$1]:-}" json
  json=$(cd "$(mktemp -d)" && GONOSUMDB="${pinned:+${module%@*}}" go mod download -json "$module") || {
    log "cannot download $module from $GOPROXY:"; echo "$json" >&2; return 1; }
  python3 - "$module" "$pinned" "$json" <<'PY'
import json, sys
module, pinned, info = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
if "Error" in info:
    sys.exit(f"cannot download {module}: {info['Error']}")
if pinned and info.get("Sum") != pinned:
    sys.exit(f"{module}: hash {info.get('Sum')} does not match the pinned {pinned}")
print(info["Dir"])
PY
}
