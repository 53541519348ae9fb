#!/usr/bin/env bash
# Builds the real assisted-service ($ASSISTED_SERVICE_MODULE, its cmd package) from the Go module proxy, linked
# against the real libnmstate (crates.io nmstate-clib v$NMSTATE_VERSION, built with cargo), into
# $ASSISTED_SERVICE_DIR (~/.cache/openshift-agent/assisted-service/<version>/): the binary, its admission server
# (cmd/webadmission), the CRDs the service ships (its own, Hive's and the BareMetalHost it watches) and its default
# hardware requirements. The simulator's AssistedServiceProcess and AssistedServiceAdmission run them. Also installs
# what runs beside the service (Debian's postgresql and socat) when missing.
# Idempotent; every cache entry is written to a temporary directory first and moved into place.
source "$(dirname "$0")/lib.sh"
hold_cache_lock assisted-service

started=$(date +%s)
mkdir -p "$HACK_CACHE/build"

# What runs beside the service (Debian packages): PostgreSQL, its database (binaries in
# /usr/lib/postgresql/<major>/bin), and socat, which joins the service's private network namespace to loopback.
ensure_package() {
  local package="$1" present="$2"
  if ! eval "$present" >/dev/null 2>&1; then
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
      log "installing $package (Debian package)"
      apt-get install -y -q "$package" >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q "$package" >/dev/null; }
    else
      log "$package is missing: install the Debian package $package (apt-get install -y $package) as root"
      exit 1
    fi
  fi
}
ensure_package postgresql 'ls /usr/lib/postgresql/*/bin/postgres'
ensure_package socat 'command -v socat'
ensure_package iproute2 'command -v ip'

# libnmstate: nmstate-clib is the C library's crate (cdylib + staticlib). Cargo builds it from its own published
# source and lock file, fetched into cargo's registry by a throw-away project that depends on it.
nmstate="$HACK_CACHE/nmstate/$NMSTATE_VERSION"
if [[ ! -f "$nmstate/lib/libnmstate.a" ]]; then
  command -v cargo >/dev/null || { log "cargo is not installed; install Rust >= 1.88"; exit 1; }
  log "building libnmstate $NMSTATE_VERSION from crates.io (about 4 minutes on first run on 2 cores)"
  step=$(date +%s)
  work=$(mktemp -d "$HACK_CACHE/build/nmstate.XXXXXX")
  mkdir -p "$work/fetch/src" && touch "$work/fetch/src/lib.rs"
  printf '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\nnmstate-clib = "=%s"\n' \
    "$NMSTATE_VERSION" > "$work/fetch/Cargo.toml"
  (cd "$work/fetch" && cargo fetch -q)
  source_dir=$(cd "$work/fetch" && cargo metadata --format-version 1 -q | python3 -c '
import json, sys
meta = json.load(sys.stdin)
print(next(p["manifest_path"] for p in meta["packages"] if p["name"] == "nmstate-clib").rsplit("/", 1)[0])')
  cp -r "$source_dir" "$work/nmstate-clib" && chmod -R u+w "$work/nmstate-clib"
  (cd "$work/nmstate-clib" && CARGO_TARGET_DIR="$work/target" cargo build -q --release --locked -j 2)
  mkdir -p "$work/out/lib" "$work/out/include"
  cp "$work/target/release/libnmstate.a" "$work/out/lib/"
  IFS=. read -r major minor micro <<< "$NMSTATE_VERSION"
  sed -e "s/@_VERSION_MAJOR@/$major/" -e "s/@_VERSION_MINOR@/$minor/" -e "s/@_VERSION_MICRO@/$micro/" \
    "$work/nmstate-clib/nmstate.h.in" > "$work/out/include/nmstate.h"
  mkdir -p "$(dirname "$nmstate")" && rm -rf "$nmstate" && mv "$work/out" "$nmstate"
  rm -rf "$work"
  log "libnmstate $NMSTATE_VERSION built in $(( $(date +%s) - step ))s"
fi

# assisted-service's packages are built in a throw-away consumer module (a module's replace directives only apply when
# it is the main module), with the service's own replace block, its api/client/models submodules from the proxy
# instead of ./api..., and one graph-only stub: vbom.ml/util, named by an old go.mod in the graph, which the proxy
# refuses. consumer_module PACKAGE makes one in the current directory with PACKAGE's whole graph (go.sum for every
# module it needs), and checks that the proxy gave the pinned module (the checksum database has no entry for it).
consumer_module() {
  local package="$1" module submodules
  module=$(module_dir "$ASSISTED_SERVICE_MODULE")
  go mod init local/assisted-service >/dev/null 2>&1
  go mod edit -go=1.21
  mkdir vbom-stub && printf 'module vbom.ml/util\n\ngo 1.12\n' > vbom-stub/go.mod
  go mod edit -replace=vbom.ml/util=./vbom-stub
  submodules="${ASSISTED_SERVICE_MODULE#*@}"
  submodules="v0.0.0-${submodules#*-0.}"   # v1.0.10-0.<date>-<commit> -> v0.0.0-<date>-<commit>
  # The service's replace block, except its ./ directories, which become the published submodules.
  python3 - "$module/go.mod" "$submodules" > replaces <<'PY'
import re, sys
text = open(sys.argv[1]).read()
block = re.search(r"^replace \((.*?)^\)", text, re.S | re.M).group(1)
for line in block.strip().splitlines():
    old, new = [s.strip() for s in line.split("=>")]
    if new.startswith("./"):
        if old.endswith("/cmd/agentbasedinstaller"):
            continue  # not in the cmd packages' graphs
        new = old + " " + sys.argv[2]
    print(f"{old}={new.replace(' ', '@')}")
PY
  while read -r replace; do go mod edit -replace="$replace"; done < replaces
  GONOSUMDB=github.com/openshift,github.com/metal3-io go get "$package@${ASSISTED_SERVICE_MODULE#*@}" >/dev/null 2>&1 ||
    GONOSUMDB=github.com/openshift,github.com/metal3-io go get "$package@${ASSISTED_SERVICE_MODULE#*@}"
  grep -qF "${ASSISTED_SERVICE_MODULE/@/ } ${PINNED_MODULE_SUMS[$ASSISTED_SERVICE_MODULE]}" go.sum ||
    { log "go.sum of the consumer module does not pin $ASSISTED_SERVICE_MODULE to the expected hash"; exit 1; }
}

# assisted-service: its cmd package, in a consumer module (above).
if [[ ! -x "$ASSISTED_SERVICE_DIR/assisted-service" ]]; then
  require_go
  log "building assisted-service ${ASSISTED_SERVICE_MODULE#*@} (about 5 minutes on first run on 2 cores)"
  step=$(date +%s)
  module=$(module_dir "$ASSISTED_SERVICE_MODULE")
  work=$(mktemp -d "$HACK_CACHE/build/assisted-service.XXXXXX")
  cd "$work"
  consumer_module github.com/openshift/assisted-service/cmd
  log "assisted-service's modules downloaded in $(( $(date +%s) - step ))s"
  mkdir -p out
  # The nmstate Go binding links -lnmstate: the static library, with what a Rust static library needs.
  CGO_ENABLED=1 CGO_CFLAGS="-I$nmstate/include" CGO_LDFLAGS="-L$nmstate/lib -lm -ldl -lpthread" \
    GONOSUMDB=github.com/openshift,github.com/metal3-io \
    go build -p 2 -trimpath -ldflags "-s -w" -o out/assisted-service github.com/openshift/assisted-service/cmd
  # What the service ships for a kube-api install: its CRDs (one multi-document file), the Hive CRDs it is tested
  # against, the BareMetalHost/PreprovisioningImage CRDs it watches, and its default hardware requirements.
  mkdir -p out/crds/assisted-service out/crds/hive out/crds/metal3
  cp "$module/config/crd/resources.yaml" out/crds/assisted-service/
  cp "$module"/hack/crds/hive/*.yaml out/crds/hive/
  cp "$module"/hack/crds/metal3/*.yaml out/crds/metal3/
  cp "$module/data/default_hw_requirements.json" out/
  chmod -R u+w,a+r out
  mkdir -p "$(dirname "$ASSISTED_SERVICE_DIR")" && rm -rf "$ASSISTED_SERVICE_DIR" && mv out "$ASSISTED_SERVICE_DIR"
  cd / && rm -rf "$work"
  log "assisted-service built in $(( $(date +%s) - step ))s"
fi
# Its admission server (cmd/webadmission, the operator's agentinstalladmission Deployment), from the same module
# version, beside it: the simulator's AssistedServiceAdmission registers it with the hub.
if [[ ! -x "$ASSISTED_SERVICE_DIR/assisted-service-admission" ]]; then
  require_go
  log "building assisted-service's admission server (about 2 minutes on first run on 2 cores)"
  step=$(date +%s)
  work=$(mktemp -d "$HACK_CACHE/build/assisted-service-admission.XXXXXX")
  cd "$work"
  consumer_module github.com/openshift/assisted-service/cmd/webadmission
  # It links no nmstate, but is built with cgo as the service is, so that the packages the two share (client-go,
  # controller-runtime, the service's own) come from Go's build cache: only what the admission server adds compiles.
  CGO_ENABLED=1 GONOSUMDB=github.com/openshift,github.com/metal3-io go build -p 2 -trimpath -ldflags "-s -w" \
    -o assisted-service-admission github.com/openshift/assisted-service/cmd/webadmission
  mv assisted-service-admission "$ASSISTED_SERVICE_DIR/"
  cd / && rm -rf "$work"
  log "assisted-service's admission server built in $(( $(date +%s) - step ))s"
fi
log "assisted-service ready in $ASSISTED_SERVICE_DIR ($(( $(date +%s) - started ))s)"
