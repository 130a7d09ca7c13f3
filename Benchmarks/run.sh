#!/usr/bin/env bash
# The platform benchmark: requests per second and p50/p99 latency of
# GET /health, an authenticated GET /v1/me, a word-list page, a word's
# card and the word's audio, and a learner's own page (its account's
# entitlements checked), 64 connections for 20 s each, with wrk. The
# learner's page is measured again on a server that builds it for every
# request (no kept answer, issue 33's baseline) and on one that reads the
# entitlements for every request, as before they were kept in memory
# (issue 16's baseline). And an alphabet (issue 35: from memory, at least
# 75% of /health's rate), the variant with the most audio, en-GB-phonics.
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

read -r token learner < <(curl -fsS -X POST "http://127.0.0.1:$PORT/v1/accounts" -H 'Content-Type: application/json' \
  -d '{"firstName":"Bench","lastName":"Mark","email":"bench@example.com","password":"benchmark password","acceptTerms":true}' |
  python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["session"]["token"], d["learners"][0]["id"])')

health=$(measure health /health)
me=$(measure me /v1/me -H "Authorization: Bearer $token")
page=$(measure page /v1/languages/fr/wordlists/animals/pages/1)
word=$(measure word /v1/languages/fr/words/house)
audio_path=$(curl -fsS "http://127.0.0.1:$PORT/v1/languages/fr/words/house" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["audio"]["word"])')
audio=$(measure audio "$audio_path")
alphabet=$(measure alphabet "/v1/languages/en/alphabet?variant=en-GB-phonics")
mine="/v1/languages/fr/wordlists/animals/pages/1?learnerId=$learner"
own=$(measure learner-page "$mine" -H "Authorization: Bearer $token")

# The same page built by its handler every time (no answer kept: OwnContentAnswers off).
kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true
PARLA_CONTENT_KEEP_OWN_ANSWERS=false start_server "$PORT"
built_each_time=$(measure learner-page-built-each-time "$mine" -H "Authorization: Bearer $token")

# The same page on a server that reads the entitlements every time.
kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true
PARLA_ENTITLEMENTS_KEEP_IN_MEMORY=false start_server "$PORT"
read_each_time=$(measure learner-page-read-each-time "$mine" -H "Authorization: Bearer $token")

# The token must still be refused once revoked: no cache lets it through.
curl -fsS -X DELETE "http://127.0.0.1:$PORT/v1/sessions/current" -H "Authorization: Bearer $token" >/dev/null
revoked=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/v1/me" -H "Authorization: Bearer $token")

mkdir -p Benchmarks/results
result="Benchmarks/results/platform-$(date -u +%Y-%m-%dT%H%M%SZ).md"
python3 - "$health" "$me" "$page" "$word" "$audio" "$own" "$read_each_time" "$built_each_time" "$revoked" "$CONNECTIONS" "$DURATION" "$(nproc)" \
  "$alphabet" >"$result" <<'PY'
import sys
health, me, page, word, audio, own, each, built, revoked, connections, duration, cores, alphabet = sys.argv[1:14]
rows = [line.split("\t") for line in (health, me, page, word, audio, own, each, built, alphabet)]
ratio = float(rows[1][2]) / float(rows[0][2])
content = min(float(rows[2][2]), float(rows[3][2])) / float(rows[0][2])
print(f"# Platform benchmark\n")
print(f"wrk, {connections} connections, {duration} per endpoint, {cores} cores shared by wrk, Parla and PostgreSQL; release build.\n")
print("| endpoint | requests/s | p50 ms | p99 ms | non-2xx |")
print("|---|---:|---:|---:|---:|")
for name, path, rps, p50, p99, errors in rows:
    label = "GET " + path.split("?")[0] + ("?" + path.split("?")[1] if name == "alphabet" else "?learnerId=…" if "?" in path else "")
    if name.endswith("read-each-time"):
        label += " (entitlements read per request)"
    if name.endswith("built-each-time"):
        label += " (built by its handler per request)"
    print(f"| {label} | {rps} | {p50} | {p99} | {errors} |")
print(f"\n/v1/me runs at {ratio:.0%} of /health's rate (goal: at least 25%).")
print(f"The slower content endpoint runs at {content:.0%} of /health's rate (goal: at least 50%).")
print(f"A learner's own page (entitlements checked, kept in memory) runs at {float(rows[5][2]) / float(rows[0][2]):.0%} of /health's rate,")
print(f"and at {float(rows[5][2]) / float(rows[6][2]):.0%} of the same page with the entitlements read for every request")
print("(the path before issue 16: one query per request; goal: at least 90%).")
print(f"Kept answers (OwnContentAnswers) make it {float(rows[5][2]) / float(rows[7][2]):.0%} of the same page built by its handler "
      f"for every request ({float(rows[7][2]) / float(rows[0][2]):.0%} of /health; goal: the page at least 50% of /health).")
print(f"An alphabet (en-GB-phonics, from memory) runs at {float(rows[8][2]) / float(rows[0][2]):.0%} of /health's rate (goal: at least 75%).")
print(f"A revoked token afterwards: HTTP {revoked} (must be 401).")
PY
cat "$result"
echo "saved to $result"
[ "$revoked" = "401" ]
