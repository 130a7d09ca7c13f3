# Sourced by the benchmarks: a release server on a private data directory.
#   start_server PORT [serve options]   starts it and waits for /health
# Sets $work (a scratch folder, removed on exit) and $server_pid; the server
# is stopped with SIGTERM on exit. The server makes no assets in the
# background: nothing else may compete for the CPU while it is measured.
BINARY=${BINARY:-.build/release/parla}
work=$(mktemp -d /tmp/parla-bench-XXXXXX)
# The embedded cluster runs as the postgres user when we are root.
chmod 755 "$work"
server_pid=""

cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid"
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

export PARLA_SECURITY_KEY_FILE="$work/personal-data.key" PARLA_LOG_LEVEL=warning PARLA_CONTENT_BUILD_ASSETS=false

start_server() {
  local port=$1; shift
  "$BINARY" serve --port "$port" --config "$work/none.json" --data-directory "$work/postgres" "$@" >"$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 300); do
    curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && return 0
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log"; exit 1; }
    sleep 0.2
  done
  echo "the server did not come up"; cat "$work/server.log"; exit 1
}
