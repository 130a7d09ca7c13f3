#!/usr/bin/env bash
# The platform benchmark: requests per second and p50/p99 latency of
# GET /health, an authenticated GET /v1/me, a word-list page, a word's
# card and the word's audio, 64 connections for 20 s each, with wrk.
# Starts a release server on a private data directory, prints a table and
# saves it under Benchmarks/results/.
set -euo pipefail
cd "$(dirname "$0")/.."

CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-20s}
THREADS=${THREADS:-2}
PORT=${PORT:-18080}
. Benchmarks/server.sh

# The content with its assets (made once into .parla/assets, then cached).
"$BINARY" content build --config "$work/none.json" --data-directory "$work/postgres"
start_server "$PORT"

token=$(curl -fsS -X POST "http://127.0.0.1:$PORT/v1/accounts" -H 'Content-Type: application/json' \
  -d '{"firstName":"Bench","lastName":"Mark","email":"bench@example.com","password":"benchmark password","acceptTerms":true}' |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["session"]["token"])')

# One endpoint: name, path, requests/s, p50 ms, p99 ms, non-2xx.
measure() {
  local name=$1 path=$2; shift 2
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "$@" "http://127.0.0.1:$PORT$path" | wrk_figures |
    awk -F'\t' -v name="$name" -v path="$path" '{ printf "%s\t%s\t%.0f\t%s\t%s\t%s\n", name, path, $1, $2, $3, $4 }'
}

health=$(measure health /health)
me=$(measure me /v1/me -H "Authorization: Bearer $token")
page=$(measure page /v1/languages/fr/wordlists/animals/pages/1)
word=$(measure word /v1/languages/fr/words/elephant)
audio_path=$(curl -fsS "http://127.0.0.1:$PORT/v1/languages/fr/words/elephant" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["audio"]["word"])')
audio=$(measure audio "$audio_path")

# The token must still be refused once revoked: no cache lets it through.
curl -fsS -X DELETE "http://127.0.0.1:$PORT/v1/sessions/current" -H "Authorization: Bearer $token" >/dev/null
revoked=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/v1/me" -H "Authorization: Bearer $token")

mkdir -p Benchmarks/results
result="Benchmarks/results/platform-$(date -u +%Y-%m-%dT%H%M%SZ).md"
python3 - "$health" "$me" "$page" "$word" "$audio" "$revoked" "$CONNECTIONS" "$DURATION" "$(nproc)" >"$result" <<'PY'
import sys
health, me, page, word, audio, revoked, connections, duration, cores = sys.argv[1:10]
rows = [line.split("\t") for line in (health, me, page, word, audio)]
ratio = float(rows[1][2]) / float(rows[0][2])
content = min(float(rows[2][2]), float(rows[3][2])) / float(rows[0][2])
print(f"# Platform benchmark\n")
print(f"wrk, {connections} connections, {duration} per endpoint, {cores} cores shared by wrk, Parla and PostgreSQL; release build.\n")
print("| endpoint | requests/s | p50 ms | p99 ms | non-2xx |")
print("|---|---:|---:|---:|---:|")
for name, path, rps, p50, p99, errors in rows:
    print(f"| GET {path} | {rps} | {p50} | {p99} | {errors} |")
print(f"\n/v1/me runs at {ratio:.0%} of /health's rate (goal: at least 25%).")
print(f"The slower content endpoint runs at {content:.0%} of /health's rate (goal: at least 50%).")
print(f"A revoked token afterwards: HTTP {revoked} (must be 401).")
PY
cat "$result"
echo "saved to $result"
[ "$revoked" = "401" ]
