#!/usr/bin/env bash
# Prints how much CPU one kube-apiserver and its etcd use to become ready, then in the next 60 s idle: the cost of each
# API server the test world keeps running. Extra arguments are kube-apiserver flags, e.g. the installed clusters'
# (WorkloadClusters.API_SERVER_FLAGS):
#   hack/apiserver-idle-cpu.sh --watch-cache=false --enable-priority-and-fairness=false \
#     --endpoint-reconciler-type=none --etcd-count-metric-poll-period=0
# Needs the binaries of hack/build-kube-binaries.sh and openssl; measure on an otherwise idle machine.
source "$(dirname "$0")/lib.sh"
for binary in etcd kube-apiserver; do
  [[ -x "$KUBE_BIN_DIR/$binary" ]] || { log "no $KUBE_BIN_DIR/$binary: run hack/build-kube-binaries.sh"; exit 1; }
done
dir=$(mktemp -d)
trap 'kill $apiserver $etcd 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"' EXIT
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost -addext subjectAltName=IP:127.0.0.1 \
  -keyout "$dir/server.key" -out "$dir/server.crt" 2>/dev/null
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=admin/O=system:masters \
  -keyout "$dir/client.key" -out "$dir/client.crt" 2>/dev/null
read -r etcd_port peer_port api_port < <(python3 -c "import socket
ss=[socket.socket() for _ in range(3)]
[s.bind(('127.0.0.1', 0)) for s in ss]
print(*[s.getsockname()[1] for s in ss])")
started=$(date +%s%N)
"$KUBE_BIN_DIR/etcd" --data-dir "$dir/etcd" --listen-client-urls "http://127.0.0.1:$etcd_port" \
  --advertise-client-urls "http://127.0.0.1:$etcd_port" --listen-peer-urls "http://127.0.0.1:$peer_port" \
  --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" --initial-cluster "default=http://127.0.0.1:$peer_port" \
  > "$dir/etcd.log" 2>&1 &
etcd=$!
"$KUBE_BIN_DIR/kube-apiserver" --cert-dir "$dir/certs" --secure-port "$api_port" \
  --etcd-servers "http://127.0.0.1:$etcd_port" --authorization-mode RBAC --service-account-issuer https://localhost \
  --service-account-key-file "$dir/server.key" --service-account-signing-key-file "$dir/server.key" \
  --client-ca-file "$dir/client.crt" --tls-cert-file "$dir/server.crt" --tls-private-key-file "$dir/server.key" \
  --service-cluster-ip-range 10.0.0.0/24 --allow-privileged "$@" > "$dir/apiserver.log" 2>&1 &
apiserver=$!
for _ in $(seq 300); do
  curl -sk --cert "$dir/client.crt" --key "$dir/client.key" "https://127.0.0.1:$api_port/readyz" 2>/dev/null \
    | grep -q ok && break
  kill -0 $apiserver 2>/dev/null || { log "kube-apiserver exited: $(tail -3 "$dir/apiserver.log")"; exit 1; }
  sleep 0.2
done
ready=$(date +%s%N)
cpu() { awk '{ printf "%.2f", ($14 + $15) / 100 }' "/proc/$1/stat"; }
api_ready=$(cpu $apiserver) etcd_ready=$(cpu $etcd)
sleep 60
echo "ready in $(( (ready - started) / 1000000 )) ms; CPU to ready: kube-apiserver ${api_ready} s, etcd ${etcd_ready} s;" \
  "next 60 s idle: kube-apiserver $(echo "$(cpu $apiserver) - $api_ready" | bc) s, etcd $(echo "$(cpu $etcd) - $etcd_ready" | bc) s"
