#!/usr/bin/env bash
# Leaderboards with LEARNERS (1,000,000) learners on one board: (1) at the
# store level, `parla bench leaderboards` (64 concurrent callers, SECONDS
# each): the rank alone and a page with a learner's own rank, from memory
# (the fast path: ranks, the board's order, names) for random learners and
# for learners who come back, and from the SQL counts (the fallback), and
# submitting a result; (2) through HTTP with wrk (64 connections): the page,
# with and without the hand-written JSON path (leaderboards.fastPath),
# with the caller's rank and submitting a finished game's log (GAMES games
# prepared by Benchmarks/game_logs.py, each submitted once) against /health
# on the same run; (3) the same
# operations on Redis sorted sets with redis-benchmark (ZREVRANGE, ZREVRANK,
# ZADD on a 1,000,000-member set), the reference. Saves the tables under
# Benchmarks/results/.
set -euo pipefail
cd "$(dirname "$0")/.."

LEARNERS=${LEARNERS:-1000000}
SECONDS_EACH=${SECONDS_EACH:-20}
GAMES=${GAMES:-12000}
PORT=${PORT:-18083}
REDIS_PORT=${REDIS_PORT:-16391}
. Benchmarks/server.sh

mkdir -p Benchmarks/results
result="Benchmarks/results/leaderboards-$(date -u +%Y-%m-%dT%H%M%SZ).md"
{
  echo "# Leaderboards, $LEARNERS learners on one board (2 cores shared by the callers, Parla and PostgreSQL)"
  echo
  "$BINARY" bench leaderboards --config "$work/none.json" --data-directory "$work/postgres" \
    --learners "$LEARNERS" --callers 64 --seconds "$SECONDS_EACH"
  echo
} | tee "$result"

# The same statements run by pgbench (64 clients, prepared): the SQL's own
# rate on this machine, without our client.
"$BINARY" bench leaderboards --config "$work/none.json" --data-directory "$work/postgres" \
  --learners "$LEARNERS" --pgbench-scripts "$work/pgbench" >/dev/null
start_server "$PORT"
{
  echo "| the statement alone (pgbench, 64 clients, prepared) | calls/s | calls | p50 ms | p99 ms |"
  echo "|---|---:|---:|---:|---:|"
  pgbench_run "$work/pgbench/page.sql" "$SECONDS_EACH" | awk -F'\t' '{ printf "| page with the caller'"'"'s rank | %s | %s | %s | %s |\n", $1, $2, $3, $4 }'
  pgbench_run "$work/pgbench/standing.sql" "$SECONDS_EACH" | awk -F'\t' '{ printf "| rank alone | %s | %s | %s | %s |\n", $1, $2, $3, $4 }'
  # The floors: a primary-key read of one entry, and a statement that reads nothing.
  printf '%s\n' '\set n random(1, '"$LEARNERS"')' \
    "SELECT best_score FROM leaderboard_entries WHERE language = 'fr' AND kind = 'matching' AND period = 'all' AND learner_id = (SELECT learner_id FROM leaderboard_bench_players WHERE n = :n);" \
    >"$work/pgbench/entry.sql"
  echo 'SELECT 1;' >"$work/pgbench/one.sql"
  pgbench_run "$work/pgbench/entry.sql" "$SECONDS_EACH" | awk -F'\t' '{ printf "| floor: one entry by primary key | %s | %s | %s | %s |\n", $1, $2, $3, $4 }'
  pgbench_run "$work/pgbench/one.sql" "$SECONDS_EACH" | awk -F'\t' '{ printf "| floor: SELECT 1 | %s | %s | %s | %s |\n", $1, $2, $3, $4 }'
  echo
} | tee -a "$result"
IFS=$'\t' read -r token learner < <(python3 Benchmarks/leaderboard_player.py "$PORT")
cat >"$work/auth.lua" <<LUA
wrk.headers["Authorization"] = "Bearer $token"
LUA
http() {
  wrk -t2 -c64 -d"${SECONDS_EACH}s" --latency "$@" | wrk_figures
}
python3 Benchmarks/game_logs.py "$PORT" 32 "$GAMES" "$work/games.tsv"
health=$(http "http://127.0.0.1:$PORT/health")
# The first page asks for the board to be loaded into memory (ranks, order,
# names): that happens before the clock starts, as it would once in a
# server's life. Until it is loaded, pages come from SQL.
page_url="http://127.0.0.1:$PORT/v1/leaderboards/matching?language=fr&limit=10&learnerId=$learner"
load_board() {
  curl -fsS -o /dev/null -H "Authorization: Bearer $token" "$page_url"
  for _ in $(seq 1 600); do
    curl -fsS "http://127.0.0.1:$PORT/metrics" | grep -q '^parla_leaderboard_boards_in_memory [1-9]' && break
    sleep 0.2
  done
  wrk -t2 -c8 -d5s -s "$work/auth.lua" "$page_url" >/dev/null
}
load_board
page=$(http -s "$work/auth.lua" "$page_url")
resident=$(awk '/VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$server_pid/status")
submit=$(GAME_LOGS="$work/games.tsv" WRK_THREADS=2 http -s Benchmarks/submit_logs.lua "http://127.0.0.1:$PORT")
kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
# The same page served by the generated code alone (no hand-written JSON path).
PARLA_LEADERBOARDS_FAST_PATH=false start_server "$PORT"
load_board
page_generated=$(http -s "$work/auth.lua" "$page_url")
kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
{
  echo "| through HTTP (wrk, 64 connections) | requests/s | p50 ms | p99 ms | non-2xx |"
  echo "|---|---:|---:|---:|---:|"
  echo "$health" | awk -F'\t' '{ printf "| GET /health | %.0f | %s | %s | %s |\n", $1, $2, $3, $4 }'
  echo "$page" | awk -F'\t' '{ printf "| GET /v1/leaderboards/matching (top 10, own rank, neighbours), hand-written JSON path | %.0f | %s | %s | %s |\n", $1, $2, $3, $4 }'
  echo "$page_generated" | awk -F'\t' '{ printf "| the same page, generated code only (leaderboards.fastPath false) | %.0f | %s | %s | %s |\n", $1, $2, $3, $4 }'
  echo "$submit" | awk -F'\t' '{ printf "| POST …/games/{id}/log (submit a finished 8-pair game: replay, learning, leaderboards) | %.0f | %s | %s | %s |\n", $1, $2, $3, $4 }'
  echo
  echo "The server's resident memory with the board's ranks loaded: $resident MB."
  echo
  python3 -c 'import sys; h, p, g = (float(x.split("\t")[0]) for x in sys.argv[1:4]); print("Page against /health: %.0f%% with the hand-written path, %.0f%% without; the path is worth %.2fx." % (100 * p / h, 100 * g / h, p / g))' "$health" "$page" "$page_generated"
  echo
} | tee -a "$result"

# Redis, the reference: one sorted set of the same size.
redis-server --port "$REDIS_PORT" --save '' --appendonly no --daemonize yes --dir "$work" >/dev/null
trap 'redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true; cleanup' EXIT
python3 -c "
import random, sys
for i in range($LEARNERS):
    sys.stdout.write('ZADD board %d member:%d\r\n' % (random.randint(0, 799), i))
" | redis-cli -p "$REDIS_PORT" --pipe >/dev/null
redis() {
  redis-benchmark -p "$REDIS_PORT" -c 64 -n "$1" -r "$LEARNERS" --csv "${@:2}" | tail -1 |
    python3 -c 'import csv, sys; row = next(csv.reader(sys.stdin)); print("%.0f\t%s\t%s" % (float(row[1]), row[4], row[6]))'
}
{
  echo "| Redis 7 sorted set, redis-benchmark (64 clients) | requests/s | p50 ms | p99 ms |"
  echo "|---|---:|---:|---:|"
  redis 200000 ZREVRANGE board 0 9 WITHSCORES | awk -F'\t' '{ printf "| ZREVRANGE board 0 9 WITHSCORES (top 10) | %s | %s | %s |\n", $1, $2, $3 }'
  redis 200000 ZREVRANK board member:__rand_int__ | awk -F'\t' '{ printf "| ZREVRANK (one rank) | %s | %s | %s |\n", $1, $2, $3 }'
  redis 200000 ZADD board GT __rand_int__ member:__rand_int__ | awk -F'\t' '{ printf "| ZADD GT (submit a best) | %s | %s | %s |\n", $1, $2, $3 }'
} | tee -a "$result"
echo "saved to $result"
