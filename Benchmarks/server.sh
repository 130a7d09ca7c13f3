# Sourced by the benchmarks: a release server on a private data directory,
# and wrk's figures.
#   start_server PORT [serve options]   starts it and waits for /health
#   measure NAME PATH [wrk options]     name, path, requests/s, p50 ms, p99 ms, non-2xx
#   pgbench_run SCRIPT SECONDS [pgbench options]
#                                       a script's transactions/s, count, p50 ms, p99 ms
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

# Every simulated client comes from 127.0.0.1: rate limits would count them as one.
export PARLA_SECURITY_KEY_FILE="$work/personal-data.key" PARLA_LOG_LEVEL=warning PARLA_CONTENT_BUILD_ASSETS=false PARLA_RATE_LIMITS_ENABLED=false

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

# wrk_figures: reads `wrk --latency` output on stdin and prints requests per
# second, p50 ms, p99 ms and non-2xx responses, tab-separated.
wrk_figures() {
  python3 -c '
import re, sys
text = sys.stdin.read()
def ms(value):
    number, unit = re.match(r"([\d.]+)(us|ms|s)", value).groups()
    return float(number) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
p50 = ms(re.search(r"\s50%\s+(\S+)", text).group(1))
p99 = ms(re.search(r"\s99%\s+(\S+)", text).group(1))
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
print(f"{rps:.2f}\t{p50:.2f}\t{p99:.2f}\t{errors.group(1) if errors else 0}")'
}

# measure NAME PATH [wrk options]: wrk on the server of $PORT, THREADS
# threads, CONNECTIONS connections, DURATION; prints name, path, requests
# per second, p50 ms, p99 ms and non-2xx responses, tab-separated.
measure() {
  local name=$1 path=$2; shift 2
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "$@" "http://127.0.0.1:$PORT$path" | wrk_figures |
    awk -F'\t' -v name="$name" -v path="$path" '{ printf "%s\t%s\t%.0f\t%s\t%s\t%s\n", name, path, $1, $2, $3, $4 }'
}

# pgbench_run SCRIPT SECONDS [pgbench options]: SCRIPT on the embedded
# cluster (64 clients, prepared, 2 threads) for SECONDS; prints its
# transactions per second, their count, p50 ms and p99 ms, tab-separated.
PGBENCH=$(ls /usr/lib/postgresql/*/bin/pgbench 2>/dev/null | sort -V | tail -1)
pgbench_run() {
  local script=$1 seconds=$2; shift 2
  rm -f "$work"/pgbench_log.*
  (cd "$work" && "$PGBENCH" -h "$work/postgres" -p 5432 -U parla -n -M prepared -c 64 -j 2 -T "$seconds" -l "$@" -f "$script" postgres \
    >/dev/null)
  cat "$work"/pgbench_log.* | python3 -c '
import sys
latencies = sorted(int(line.split()[2]) / 1000 for line in sys.stdin)
seconds = float(sys.argv[1])
print("%.0f\t%d\t%.2f\t%.2f" % (len(latencies) / seconds, len(latencies), latencies[len(latencies) // 2], latencies[int(len(latencies) * 0.99)]))' "$seconds"
}
