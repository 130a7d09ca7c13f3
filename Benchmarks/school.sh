#!/usr/bin/env bash
# A school (issue 17): TEACHERS (150) teachers sign up through the API, each
# with a French class and three assignments (Benchmarks/school_setup.py);
# then LEARNERS (5,000) learners fill the classes, MEMBERS (40) a class,
# with DAYS (90) days of history each: abilities per day, a lesson of ten
# answers on three days out of five, a game every third day
# (Benchmarks/school.sql). Measured with wrk, CONNECTIONS (64) for DURATION
# (20 s) each, every request a random teacher's own class: the class
# overview through the API and the dashboard's class page, against
# /health in the same run; the overview again on a server that keeps no
# overviews in memory (teaching.keepOverviews off), the path without the
# cache. Before wrk, each class is visited once (its dashboard page, then
# its overview through the API), timed: what a first visit costs, when the
# overview is read from the database and made. Saves the table under
# Benchmarks/results/.
set -euo pipefail
cd "$(dirname "$0")/.."

CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-20s}
THREADS=${THREADS:-2}
PORT=${PORT:-18085}
TEACHERS=${TEACHERS:-150}
LEARNERS=${LEARNERS:-5000}
MEMBERS=${MEMBERS:-40}
DAYS=${DAYS:-90}
. Benchmarks/server.sh
start_server "$PORT"

started=$(date +%s)
python3 Benchmarks/school_setup.py --port "$PORT" --teachers "$TEACHERS" >"$work/teachers.txt"
psql -q -h "$work/postgres" -p 5432 -U parla -d postgres -v learners="$LEARNERS" -v members="$MEMBERS" -v days="$DAYS" \
  -f Benchmarks/school.sql >"$work/school.txt"
seeded=$(($(date +%s) - started))

# first_visits: each class's dashboard page, then its overview, once; prints
# the mean and the slowest in ms, tab-separated, for the page and for the overview.
first_visits() {
  while read -r token class; do
    curl -s -o /dev/null -w "page\t%{time_total}\n" -H "Cookie: parla_teach=$token" "http://127.0.0.1:$PORT/teach/classes/$class"
    curl -s -o /dev/null -w "overview\t%{time_total}\n" -H "Authorization: Bearer $token" "http://127.0.0.1:$PORT/v1/classes/$class/overview"
  done <"$work/teachers.txt" | python3 -c '
import sys
times = {"page": [], "overview": []}
for line in sys.stdin:
    kind, seconds = line.split()
    times[kind].append(float(seconds) * 1000)
print("\t".join(f"{sum(t) / len(t):.1f}\t{max(t):.1f}" for t in (times["page"], times["overview"])))'
}

export SCHOOL_TEACHERS="$work/teachers.txt"
first=$(first_visits)
health=$(measure health /health)
overview=$(SCHOOL_PAGE=overview measure overview / -s Benchmarks/school.lua)
dashboard=$(SCHOOL_PAGE=dashboard measure dashboard / -s Benchmarks/school.lua)
# The same overview on a server that reads it afresh for every request (no overviews kept).
kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true
PARLA_TEACHING_KEEP_OVERVIEWS=false start_server "$PORT"
afresh=$(SCHOOL_PAGE=overview measure afresh / -s Benchmarks/school.lua)

mkdir -p Benchmarks/results
result="Benchmarks/results/school-$(date -u +%Y-%m-%dT%H%M%SZ).md"
python3 - "$health" "$overview" "$dashboard" "$afresh" "$CONNECTIONS" "$DURATION" "$(nproc)" "$seeded" "$(tail -n 3 "$work/school.txt" | head -n 1)" \
  "$first" >"$result" <<'PY'
import sys
health, overview, dashboard, afresh, connections, duration, cores, seeded, counts, first = sys.argv[1:11]
rows = [line.split("\t") for line in (health, overview, dashboard, afresh)]
classes, seats, learners, answers, history = [part.strip() for part in counts.split("|")]
print("# School benchmark (issue 17)\n")
print(f"{classes} classes of one teacher each, {seats} seats for {learners} learners, {answers} lesson answers and {history} days of")
print(f"ability history (overall and per skill); made in {seeded} s. wrk, {connections} connections, {duration} per page, each request")
print(f"a random teacher's own class; {cores} cores shared by wrk, Parla and PostgreSQL; release build.\n")
print("| page | requests/s | p50 ms | p99 ms | non-2xx | share of /health |")
print("|---|---:|---:|---:|---:|---:|")
labels = {"health": "GET /health", "overview": "GET /v1/classes/{id}/overview (API)", "dashboard": "GET /teach/classes/{id} (dashboard)",
          "afresh": "GET /v1/classes/{id}/overview, read afresh every time (teaching.keepOverviews off)"}
for name, _, rps, p50, p99, errors in rows:
    print(f"| {labels[name]} | {rps} | {p50} | {p99} | {errors} | {float(rps) / float(rows[0][2]):.0%} |")
page_mean, page_max, overview_mean, overview_max = first.split("\t")
print(f"\nFirst visit of each class, one at a time (nothing kept yet): its dashboard page (the overview read from the database,")
print(f"then rendered) {page_mean} ms on average, {page_max} ms at most; then its overview through the API (encoded from the")
print(f"overview now kept) {overview_mean} ms on average, {overview_max} ms at most.")
print("\nGoals: p99 under 50 ms and at least 25% of /health's rate, for the API's overview and the dashboard's class page.")
PY
cat "$result"
echo "saved to $result"
