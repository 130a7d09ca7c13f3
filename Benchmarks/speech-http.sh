#!/usr/bin/env bash
# The speech attempts endpoint under load: a release server scores a real
# 3-second English recording (pocketsphinx-testdata) posted by wrk with 1, 2
# and 8 connections for 20 s each; latency p50/p99, attempts per second, and
# the server's memory before scoring and after each step (warm decoders:
# one per scoring thread). Saves a table under Benchmarks/results/.
#
# WORKER=1: the same through a speech worker (`parla worker speech`, as many
# threads as cores) on the server's cluster: the server queues each
# recording in PostgreSQL and waits for the worker's outcome, so the table
# shows what the queue costs against scoring in-process (WORKER=0) on the
# same cores, and the CPU time each process used.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-20s}
PORT=${PORT:-18081}
WORKER=${WORKER:-0}
CLIP=/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0880.wav
. Benchmarks/server.sh
start_server "$PORT"
worker_pid=
if [ "$WORKER" = 1 ]; then
  "$BINARY" worker speech --threads "$(nproc)" --name bench-worker --config "$work/none.json" \
    --data-directory "$work/postgres" >"$work/worker.log" 2>&1 &
  worker_pid=$!
  trap 'kill -TERM "$worker_pid" 2>/dev/null || true; cleanup' EXIT
  # Registered within a heartbeat (2 s); the server queues once it has seen it.
  sleep 5
  kill -0 "$worker_pid" 2>/dev/null || { cat "$work/worker.log"; exit 1; }
fi
cpu_seconds() { awk -v ticks="$(getconf CLK_TCK)" '{ printf "%.1f", ($14 + $15) / ticks }' "/proc/$1/stat"; }

signup=$(curl -fsS -X POST "http://127.0.0.1:$PORT/v1/accounts" -H 'Content-Type: application/json' \
  -d '{"firstName":"Bench","lastName":"Mark","email":"speech@example.com","password":"benchmark password","acceptTerms":true}')
token=$(echo "$signup" | python3 -c 'import json,sys; print(json.load(sys.stdin)["session"]["token"])')
learner=$(echo "$signup" | python3 -c 'import json,sys; print(json.load(sys.stdin)["learners"][0]["id"])')
# The free plan allows a few attempts a day: the trial has no limit.
curl -fsS -X POST "http://127.0.0.1:$PORT/v1/me/plan/trial" -H "Authorization: Bearer $token" \
  -H 'Content-Type: application/json' -d '{}' >/dev/null
path="/v1/learners/$learner/speech/attempts?language=en&text=he%20was%20not%20an%20ill%20disposed%20young%20man"

cat >"$work/post.lua" <<LUA
local file = io.open("$CLIP", "rb")
wrk.method = "POST"
wrk.body = file:read("*a")
file:close()
wrk.headers["Content-Type"] = "audio/wav"
wrk.headers["Authorization"] = "Bearer $token"
LUA

rss() { awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$server_pid/status"; }

rows=()
idle=$(rss)
server_cpu_before=$(cpu_seconds "$server_pid")
worker_cpu_before=${worker_pid:+$(cpu_seconds "$worker_pid")}
for connections in 1 2 8; do
  figures=$(wrk -t1 -c"$connections" -d"$DURATION" --latency -s "$work/post.lua" "http://127.0.0.1:$PORT$path" | wrk_figures)
  rows+=("$(echo "$figures" | awk -F'\t' -v c="$connections" -v rss="$(rss)" '{ printf "| %s | %s | %.0f | %.0f | %s | %s |", c, $1, $2, $3, $4, rss }')")
  refused=$(echo "$figures" | awk -F'\t' '{ print $4 + 0 }')
  # A refused attempt (a plan's limit, say) is answered at once: the rate would not be scoring's.
  [ "$refused" = 0 ] || { echo "$refused attempts were not scored with $connections connections: no result saved"; printf '%s\n' "${rows[@]}"; exit 1; }
done

server_cpu=$(awk -v a="$server_cpu_before" -v b="$(cpu_seconds "$server_pid")" 'BEGIN { printf "%.1f", b - a }')
cpu_line="CPU time over the steps: the server $server_cpu s."
scored_by="scored in-process by the server"
if [ -n "$worker_pid" ]; then
  kill -0 "$worker_pid" 2>/dev/null || { echo "the worker died:"; cat "$work/worker.log"; exit 1; }
  worker_cpu=$(awk -v a="$worker_cpu_before" -v b="$(cpu_seconds "$worker_pid")" 'BEGIN { printf "%.1f", b - a }')
  cpu_line="CPU time over the steps: the server $server_cpu s, the worker $worker_cpu s."
  scored_by="queued by the server and scored by one speech worker (\`parla worker speech --threads $(nproc)\`)"
  kill -TERM "$worker_pid"; wait "$worker_pid" || true
fi

mkdir -p Benchmarks/results
result="Benchmarks/results/speech-http-$([ -n "$worker_pid" ] && echo worker-)$(date -u +%Y-%m-%dT%H%M%SZ).md"
{
  echo "# Speech attempts under load"
  echo
  echo "POST of a 2.99 s English recording (pocketsphinx-testdata 0880), $scored_by and stored; wrk, $DURATION per step;"
  echo "$(nproc) cores shared by wrk, Parla and PostgreSQL; speech.threads = cores. Release build."
  echo
  echo "| connections | attempts/s | p50 ms | p99 ms | non-2xx | server RSS after, MB |"
  echo "|---:|---:|---:|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "Server RSS before any attempt: $idle MB. $cpu_line"
} >"$result"
cat "$result"
echo "saved to $result"
