#!/usr/bin/env bash
# The speech attempts endpoint under load: a release server scores a real
# 3-second English recording (pocketsphinx-testdata) posted by wrk with 1, 2
# and 8 connections for 20 s each; latency p50/p99, attempts per second, and
# the server's memory before scoring and after each step (warm decoders:
# one per scoring thread). Saves a table under Benchmarks/results/.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-20s}
PORT=${PORT:-18081}
CLIP=/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0880.wav
. Benchmarks/server.sh
start_server "$PORT"

signup=$(curl -fsS -X POST "http://127.0.0.1:$PORT/v1/accounts" -H 'Content-Type: application/json' \
  -d '{"firstName":"Bench","lastName":"Mark","email":"speech@example.com","password":"benchmark password","acceptTerms":true}')
token=$(echo "$signup" | python3 -c 'import json,sys; print(json.load(sys.stdin)["session"]["token"])')
learner=$(echo "$signup" | python3 -c 'import json,sys; print(json.load(sys.stdin)["learners"][0]["id"])')
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
for connections in 1 2 8; do
  figures=$(wrk -t1 -c"$connections" -d"$DURATION" --latency -s "$work/post.lua" "http://127.0.0.1:$PORT$path" | wrk_figures)
  rows+=("$(echo "$figures" | awk -F'\t' -v c="$connections" -v rss="$(rss)" '{ printf "| %s | %s | %.0f | %.0f | %s | %s |", c, $1, $2, $3, $4, rss }')")
done

mkdir -p Benchmarks/results
result="Benchmarks/results/speech-http-$(date -u +%Y-%m-%dT%H%M%SZ).md"
{
  echo "# Speech attempts under load"
  echo
  echo "POST of a 2.99 s English recording (pocketsphinx-testdata 0880), scored and stored; wrk, $DURATION per step;"
  echo "$(nproc) cores shared by wrk, Parla and PostgreSQL; speech.threads = cores. Release build."
  echo
  echo "| connections | attempts/s | p50 ms | p99 ms | non-2xx | server RSS after, MB |"
  echo "|---:|---:|---:|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "Server RSS before any attempt: $idle MB."
} >"$result"
cat "$result"
echo "saved to $result"
