#!/usr/bin/env bash
# Soak (issue 20, item 4): a release server under DURATION (1800) s of steady
# mixed load from one Python process (Benchmarks/soak.py): LEARNERS (24)
# learners taking lessons with 1-3 s per answer (Benchmarks/lesson_load.py's
# client), PLAYERS (8) players playing card-matching games live and offline
# in turn with a flip every 0.6-1.6 s, and READERS (3) readers asking for
# word-list pages, leaderboards and /v1/me once a second each. Every request
# is recorded per kind and per WINDOW (60) s; at each window's end the
# server's RSS and PostgreSQL's (the postmaster and its children) are
# sampled. Reports per window p50/p99 per kind, errors and memory; then,
# over the steady run after WARMUP (300) s, the p99 of its first and last
# third (stable within 25% or 1 ms) and the RSS slope in MB per hour, and
# how the disk under the database answered an fdatasync every 0.2 s
# meanwhile (a commit waits for one). Fails if any request failed. Saves the report under Benchmarks/results/.
#
# COMMITS=async runs the cluster with synchronous_commit off: a commit
# returns before its WAL reaches the disk (a crash may lose the last
# fraction of a second; nothing is left inconsistent). Not for production:
# it shows the server's own latency on a machine whose disk stalls an
# fsync for seconds, where every durable commit would wait for it.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-18084}
DURATION=${DURATION:-1800}
WINDOW=${WINDOW:-60}
WARMUP=${WARMUP:-300}
LEARNERS=${LEARNERS:-24}
PLAYERS=${PLAYERS:-8}
READERS=${READERS:-3}
COMMITS=${COMMITS:-durable}
case "$COMMITS" in durable | async) ;; *) echo "COMMITS is durable or async, not $COMMITS"; exit 2 ;; esac
. Benchmarks/server.sh
[ -x "$BINARY" ] || { echo "no release binary at $BINARY: swift build -c release --product parla"; exit 1; }
start_server "$PORT"
log_at_start=$(wc -l <"$work/server.log")
if [ "$COMMITS" = async ]; then
  psql -qtA -h "$work/postgres" -p 5432 -U parla -d postgres \
    -c "ALTER SYSTEM SET synchronous_commit = off" -c "SELECT pg_reload_conf()" >/dev/null
fi

mkdir -p Benchmarks/results
stamp=$(date -u +%Y-%m-%dT%H%M%SZ)
result="Benchmarks/results/soak-$stamp.md"
commit=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- Sources Package.swift Package.resolved 2>/dev/null || commit="$commit (with uncommitted changes under Sources or Package.swift)"
commits_note=""
if [ "$COMMITS" = async ]; then commits_note=" (synchronous_commit off: commits do not wait for the disk)"; fi
about="Run $stamp on $(nproc) cores ($(uname -m), $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo)); \
binary \`$BINARY\` built $(date -u -r "$BINARY" +%Y-%m-%dT%H:%MZ), tree at commit $commit. \
DURATION=$DURATION WINDOW=$WINDOW WARMUP=$WARMUP LEARNERS=$LEARNERS PLAYERS=$PLAYERS READERS=$READERS \
COMMITS=$COMMITS$commits_note."

started=$(date +%s)
set +e
python3 Benchmarks/soak.py --port "$PORT" --server-pid "$server_pid" --postgres-pidfile "$work/postgres/postmaster.pid" \
  --disk-probe "$work/disk-probe" \
  --duration "$DURATION" --window "$WINDOW" --warmup "$WARMUP" --learners "$LEARNERS" --players "$PLAYERS" \
  --readers "$READERS" --about "$about" >"$work/report.md"
status=$?
set -e
if ! kill -0 "$server_pid" 2>/dev/null; then
  echo "**The server exited during the soak.**" >>"$work/report.md"
  # Its embedded cluster outlives it: stop it (fast shutdown) before the folder goes.
  postmaster=$(head -1 "$work/postgres/postmaster.pid" 2>/dev/null || true)
  [ -n "$postmaster" ] && kill -INT "$postmaster" 2>/dev/null || true
fi
{
  cat "$work/report.md"
  # Anything the server logged (warnings and above), while starting and under load.
  echo
  python3 - "$work/server.log" "$log_at_start" <<'PY'
import json, sys
lines = open(sys.argv[1], errors="replace").read().splitlines()
split = int(sys.argv[2])
for title, part in (("while starting, before the load", lines[:split]), ("during the run", lines[split:])):
    print(f"Server log (warnings and above) {title}: {len(part)} lines" + (":" if part else "."))
    if not part:
        continue
    print("\n```")
    for line in part[:20]:
        try:
            entry = json.loads(line)
            print(f"{entry.pop('time', '?')} {entry.pop('level', '?')} {entry.pop('message', '')}: "
                  + ", ".join(f"{key}={str(value)[:240]}" for key, value in entry.items() if key != "label"))
        except ValueError:
            print(line[:300])
    print("```\n")
PY
  echo
  echo "End to end (sign-ups, soak, report): $(($(date +%s) - started)) s."
} | tee "$result"
echo "saved to $result"
exit "$status"
