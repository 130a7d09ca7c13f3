#!/usr/bin/env bash
# Analytics ingestion (issue 19): LEARNERS (50) learners sign up, then wrk
# posts batches of BATCH (100) new events to random learners' own
# /v1/learners/{id}/events, CONNECTIONS (32) connections for DURATION
# (30 s) (Benchmarks/analytics.lua). Figures: events kept per second
# (batches/s x BATCH, checked against the table), p50/p99 per batch, and
# how far behind the daily roll-ups were: sampled every second during the
# load (events written but not yet counted) and the time from the end of
# the load until every event was counted. Goal: 20,000 events/s on two
# cores, roll-ups within a minute. Saves the table under Benchmarks/results/.
set -euo pipefail
cd "$(dirname "$0")/.."

CONNECTIONS=${CONNECTIONS:-32}
DURATION=${DURATION:-30s}
THREADS=${THREADS:-2}
PORT=${PORT:-18086}
LEARNERS=${LEARNERS:-50}
BATCH=${BATCH:-100}
. Benchmarks/server.sh
start_server "$PORT"

for i in $(seq 1 "$LEARNERS"); do
  curl -fsS -X POST "http://127.0.0.1:$PORT/v1/accounts" -H 'Content-Type: application/json' \
    -d "{\"firstName\":\"Bench\",\"lastName\":\"Mark\",\"email\":\"analytics$i@example.com\",\"password\":\"benchmark password\",\"acceptTerms\":true}" |
    python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["session"]["token"], d["learners"][0]["id"])'
done >"$work/learners.txt"

sql() { psql -qtA -h "$work/postgres" -p 5432 -U parla -d postgres -c "$1"; }
# Events written but not yet in the roll-ups, once a second while wrk runs.
behind() {
  while kill -0 "$1" 2>/dev/null; do
    sql "SELECT (SELECT count(*) FROM analytics_events) - (SELECT coalesce(sum(events), 0) FROM analytics_learner_days)" || true
    sleep 1
  done
}

export ANALYTICS_LEARNERS="$work/learners.txt" BATCH
wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s Benchmarks/analytics.lua "http://127.0.0.1:$PORT/" >"$work/wrk.txt" &
wrk_pid=$!
behind "$wrk_pid" >"$work/behind.txt"
wait "$wrk_pid"
ended=$(date +%s.%N)
kept=$(sql "SELECT count(*) FROM analytics_events")
caught_up=""
for _ in $(seq 1 1200); do
  counted=$(sql "SELECT coalesce(sum(events), 0) FROM analytics_learner_days")
  if [ "$counted" = "$kept" ]; then caught_up=$(python3 -c "import time; print(f'{time.time() - $ended:.1f}')"); break; fi
  sleep 0.1
done

mkdir -p Benchmarks/results
result="Benchmarks/results/analytics-$(date -u +%Y-%m-%dT%H%M%SZ).md"
python3 - "$(wrk_figures <"$work/wrk.txt")" "$kept" "$DURATION" "$CONNECTIONS" "$BATCH" "$LEARNERS" "$(nproc)" "${caught_up:-never}" \
  "$work/behind.txt" "$work/wrk.txt" >"$result" <<'PY'
import re, sys
figures, kept, duration, connections, batch, learners, cores, caught_up, behind_file, wrk_file = sys.argv[1:11]
rps, p50, p99, errors = figures.split("\t")
seconds = float(re.search(r"requests in ([\d.]+)s", open(wrk_file).read()).group(1))
behind = [int(line) for line in open(behind_file) if line.strip().lstrip("-").isdigit()]
print("# Analytics ingestion benchmark (issue 19)\n")
print(f"wrk, {connections} connections for {duration}, each request a batch of {batch} new events of one of {learners} learners;")
print(f"{cores} cores shared by wrk, Parla and PostgreSQL; release build; roll-up every 10 s (analytics.rollupSeconds).\n")
print("| figure | value |")
print("|---|---:|")
print(f"| batches/s | {float(rps):.0f} |")
print(f"| events/s (batches/s x {batch}) | {float(rps) * int(batch):.0f} |")
print(f"| events kept in the table | {int(kept)} ({int(kept) / seconds:.0f}/s over {seconds:.1f} s) |")
print(f"| p50 / p99 per batch, ms | {p50} / {p99} |")
print(f"| non-2xx | {errors} |")
print(f"| events not yet rolled up, sampled each second under load: median / max | "
      f"{sorted(behind)[len(behind) // 2] if behind else 0} / {max(behind) if behind else 0} |")
print(f"| every event rolled up, seconds after the load ended | {caught_up} |")
PY
cat "$result"
echo "saved to $result"
