#!/usr/bin/env bash
# Builds the real Metal3 managers from the Go module proxy into $TOOLS_BIN_DIR (~/.cache/openshift-agent/bin), next to
# the Cluster API manager, with what the simulator's World registers for them:
#   - CAPM3, cluster-api-provider-metal3 v$CAPM3_VERSION (the manager of Metal3Cluster, Metal3Machine...), with its
#     release's infrastructure components (CRDs with the contract labels, webhook configurations), rendered with
#     kustomize as clusterctl's repository has them;
#   - the baremetal-operator v$BMO_VERSION (BareMetalHost), run by the World in its test mode (no Ironic), with its
#     CRDs and webhook configuration.
# Each is built in a throw-away consumer module of its own: their Kubernetes and Cluster API versions differ from the
# Cluster API v$CAPI_VERSION manager's. Idempotent; every cache write is atomic.
source "$(dirname "$0")/lib.sh"
hold_cache_lock metal3

mkdir -p "$TOOLS_BIN_DIR"
kubectl="$KUBE_BIN_DIR/kubectl"

# Metal3 modules the public checksum database does not know: their go.sum lines, pinned here and checked by the go
# command like any go.sum entry (so no GONOSUMDB).
CAPM3_SUMS="
github.com/metal3-io/cluster-api-provider-metal3 v$CAPM3_VERSION h1:qYIXaHZp3Tcn2Taf+LZZ7rjATyKLVjguMS39pC640pw=
github.com/metal3-io/cluster-api-provider-metal3 v$CAPM3_VERSION/go.mod h1:RquGaXflOD7DIpQ/uS0N8fMO8MIfb8WbjVoEt9zqLYM=
github.com/metal3-io/cluster-api-provider-metal3/api v$CAPM3_VERSION h1:tGb93YEjfOZN4Eh3LoKGwvZYeo7ZGO7Bn5ea2xecJ/E=
github.com/metal3-io/cluster-api-provider-metal3/api v$CAPM3_VERSION/go.mod h1:35cUWLXztBmD75hqNMEwsZ+bZJ2cclnyyhu/4D3we2M=
github.com/metal3-io/ip-address-manager/api v1.13.2 h1:JNKZMx0XeK7y7cIwzwHVdFaJ9tfk9CXcULDZnzoQjGo=
github.com/metal3-io/ip-address-manager/api v1.13.2/go.mod h1:ei5wjf+Wv7mr0D51gLS0mO07xAAkFFPKSrFO8y6Pmlk="
BMO_SUMS="
github.com/metal3-io/baremetal-operator/pkg/hardwareutils v$BMO_HARDWAREUTILS_VERSION h1:YI5YJQP1//ijKrDU4QkNLE38CIs21hGjFnZFNqaM6IU=
github.com/metal3-io/baremetal-operator/pkg/hardwareutils v$BMO_HARDWAREUTILS_VERSION/go.mod h1:PCcUQU4w6GgBL9uX4LGUj/tUAdBlIAlNxPKV9jjIUek=
github.com/metal3-io/ironic-standalone-operator/api v$IRSO_API_VERSION h1:8zNkTgHB2Z3/cG/osEH0kKo+SAXc59dEHCG72ouHrdg=
github.com/metal3-io/ironic-standalone-operator/api v$IRSO_API_VERSION/go.mod h1:xkVdOrE1YnK0O0w/Ezw8VZ/TK4XOz2xTAc17mh2dlt4="

# build_manager BINARY NAME MODULE@VERSION GO_SUM_LINES [REPLACE...]: builds the module's main package into BINARY
# from a consumer module of its own with those replace directives, unless BINARY is there.
build_manager() {
  local binary="$1" name="$2" module="$3" sums="$4" started
  shift 4
  [[ -x "$binary" ]] && return 0
  require_go
  log "building the $name ${module#*@} (a few minutes on first run)"
  started=$(date +%s)
  enter_consumer_module "$name" "$sums"
  local replace
  for replace in "$@"; do
    go mod edit -replace="$replace"
  done
  go get "$module" >get.log 2>&1 || { cat get.log >&2; exit 1; }
  go build -p 2 -trimpath -ldflags "-s -w" -o "$binary.$$.tmp" "${module%@*}"
  mv "$binary.$$.tmp" "$binary"
  leave_consumer_module
  log "$name built in $(( $(date +%s) - started ))s"
}

capm3="$TOOLS_BIN_DIR/capm3-manager-v$CAPM3_VERSION"
# CAPM3 replaces its api submodule with ./api; point it at the published module instead.
build_manager "$capm3" capm3-manager "github.com/metal3-io/cluster-api-provider-metal3@v$CAPM3_VERSION" "$CAPM3_SUMS" \
  "github.com/metal3-io/cluster-api-provider-metal3/api=github.com/metal3-io/cluster-api-provider-metal3/api@v$CAPM3_VERSION"

bmo="$TOOLS_BIN_DIR/baremetal-operator-v$BMO_VERSION"
# The operator replaces two submodules with ./apis and ./pkg/hardwareutils. The proxy serves apis at the same version,
# hardwareutils only at v$BMO_HARDWAREUTILS_VERSION, and the ironic-standalone-operator API it requires (v0.8.2) only
# at v$IRSO_API_VERSION; the operator compiles against both.
build_manager "$bmo" baremetal-operator "github.com/metal3-io/baremetal-operator@v$BMO_VERSION" "$BMO_SUMS" \
  "github.com/metal3-io/baremetal-operator/apis=github.com/metal3-io/baremetal-operator/apis@v$BMO_VERSION" \
  "github.com/metal3-io/baremetal-operator/pkg/hardwareutils=github.com/metal3-io/baremetal-operator/pkg/hardwareutils@v$BMO_HARDWAREUTILS_VERSION" \
  "github.com/metal3-io/ironic-standalone-operator/api=github.com/metal3-io/ironic-standalone-operator/api@v$IRSO_API_VERSION"

# What the World registers for them, rendered from their own modules with kustomize (kubectl's).
capm3_components="$capm3-components.yaml"
bmo_components="$bmo-components.yaml"
if [[ ! -s "$capm3_components" || ! -s "$bmo_components" ]]; then
  require_go
  [[ -x "$kubectl" ]] || { log "$kubectl missing: run hack/build-kube-binaries.sh"; exit 1; }
  capm3_module=$(module_dir "github.com/metal3-io/cluster-api-provider-metal3@v$CAPM3_VERSION")
  bmo_module=$(module_dir "github.com/metal3-io/baremetal-operator@v$BMO_VERSION")
  # CAPM3's release manifest (infrastructure-components.yaml): CRDs labelled with their contract versions and
  # converted by its webhook, its webhook configurations, Deployment, RBAC, cert-manager objects.
  "$kubectl" kustomize "$capm3_module/config/default" > "$capm3_components.$$.tmp"
  # The operator's CRDs and its validating webhooks (config/base/crds and config/base/webhook).
  { "$kubectl" kustomize "$bmo_module/config/base/crds"; echo "---"; cat "$bmo_module/config/base/webhook/manifests.yaml"; } \
    > "$bmo_components.$$.tmp"
  mv "$capm3_components.$$.tmp" "$capm3_components"
  mv "$bmo_components.$$.tmp" "$bmo_components"
fi
log "Metal3 ready: $capm3, $bmo"
