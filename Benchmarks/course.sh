#!/usr/bin/env bash
# The course (issue 34): a screen answered, and a learner's pack progress.
# A release server on a private data directory with the content and its
# assets built (as run.sh does); CONNECTIONS (64) learners sign up through
# the API on the trial (every pack open), and one more, the pack learner;
# then Benchmarks/course.sql gives LEARNERS (10,000) learners DAYS (90) days
# of progress: those signed up and the rest made in SQL (course lessons
# finished, one answer per screen, memory cards, abilities), the pack
# learner in every pack (9 in each of 5 languages, all lessons but
# the last of each); the server is started again (nothing kept from before),
# and the pack learner opens a lesson in each language (`continue`).
# Measured, all on that server:
# - the pack list of the pack learner, GET /v1/learners/{id}/packs?language=
#   (one language per request, the five in turn, Benchmarks/course_packs.lua),
#   with wrk for DURATION (20 s): at CONNECTIONS connections, and at one (a
#   learner's own request, nothing else asking); at one connection again for
#   a learner signed up after the progress was written (none: the control);
# - GET /health with wrk, CONNECTIONS connections, DURATION: the rate to
#   compare with;
# - the CONNECTIONS learners taking lessons of the course, each on its own
#   keep-alive connection (Benchmarks/course_load.py): every screen answered
#   as fast as the server lets them (saturation) over DURATION, then with
#   THINK (1-3) s to read each screen over THINKING_DURATION (30 s; 0 leaves
#   it out); only the answers are timed (per question type, one drop per
#   request for templates), after WARMUP (3) s discarded.
# Then, each alone: open lessons kept decoded (`OpenLessons`), ROUNDS (3)
# pairs of saturation runs with lessons.keepOpen off then on (or, with
# BASELINE set to another build of parla, that build then this one: a
# change measured alone, on the same learners); and
# `AssetFiles`, each pack's bundle on a server started again (its files
# read and hashed) against the same bundle from memory.
# Goals (issue 34): a screen answered p99 <= 25 ms and >= 40% of /health's
# rate at 64 connections; the pack list of a learner with every pack p99 <= 10 ms.
# Saves the tables under Benchmarks/results/; fails on any error.
set -euo pipefail
cd "$(dirname "$0")/.."

CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-20}
WARMUP=${WARMUP:-3}
THINK=${THINK:-1,3}
THINKING_DURATION=${THINKING_DURATION:-30}
THREADS=${THREADS:-2}
ROUNDS=${ROUNDS:-3}
PORT=${PORT:-18087}
LEARNERS=${LEARNERS:-10000}
DAYS=${DAYS:-90}
. Benchmarks/server.sh

# The content with its assets (made once into .parla/assets, then cached).
"$BINARY" content build --config "$work/none.json" --data-directory "$work/postgres"
start_server "$PORT"

sql() { psql -qtA -h "$work/postgres" -p 5432 -U parla -d postgres "$@"; }
started=$(date +%s)
python3 Benchmarks/course_load.py signup --port "$PORT" --learners "$CONNECTIONS" --email course >"$work/learners.txt"
python3 Benchmarks/course_load.py signup --port "$PORT" --learners 1 --email course-packs >"$work/pack-learner.txt"
read -r pack_token pack_learner _ <"$work/pack-learner.txt"
measured=$(awk '{ printf "%s%s:%s", (NR > 1 ? "," : ""), $2, $3 }' "$work/learners.txt")
sql -v learners="$LEARNERS" -v measured="$measured" -v heavy="$pack_learner" -v days="$DAYS" -f Benchmarks/course.sql
seeded=$(($(date +%s) - started))
counts=$(sql -F' ' -c "SELECT (SELECT count(DISTINCT learner_id) FROM lessons WHERE course_lesson IS NOT NULL),
  (SELECT count(*) FROM lessons WHERE course_lesson IS NOT NULL), (SELECT count(*) FROM lesson_answers),
  (SELECT count(*) FROM memory_cards), (SELECT count(*) FROM lessons WHERE learner_id = '$pack_learner'),
  (SELECT count(*) FROM memory_cards WHERE learner_id = '$pack_learner')")

# A learner without progress, on the trial too: its pack list is the control.
python3 Benchmarks/course_load.py signup --port "$PORT" --learners 1 --email course-fresh >"$work/fresh-learner.txt"
read -r fresh_token fresh_learner _ <"$work/fresh-learner.txt"

# Nothing kept from before the progress was written.
kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true
start_server "$PORT"

# The pack learner opens a lesson in each language (its list's `continue`);
# prints the packs listed, those open with a lesson complete, and the
# languages with a lesson to continue.
pack_check=$(python3 - "$PORT" "$pack_token" "$pack_learner" <<'PY'
import sys
sys.path.insert(0, "Benchmarks")
from parla_api import call
port, token, learner = int(sys.argv[1]), sys.argv[2], sys.argv[3]
listed = progressed = continuing = 0
ids = []
for language in ["en", "fr", "it", "de", "es"]:
    path = f"/v1/learners/{learner}/packs?language={language}"
    packs = [pack for section in call(port, "GET", path, token=token)["sections"] for pack in section["packs"]]
    going = next(pack["next"]["lessonId"] for pack in packs if pack.get("next"))
    call(port, "POST", f"/v1/learners/{learner}/lessons", {"language": language, "mode": "course", "courseLesson": going}, token)
    overview = call(port, "GET", path, token=token)
    packs = [pack for section in overview["sections"] for pack in section["packs"]]
    listed += len(packs)
    ids += [pack["id"] for pack in packs]
    progressed += sum(1 for pack in packs if pack["completed"] > 0 and not pack["locked"])
    continuing += "continue" in overview
print(listed, progressed, continuing)
print(" ".join(ids))
PY
)
pack_ids=$(sed -n 2p <<<"$pack_check")
pack_check=$(sed -n 1p <<<"$pack_check")

export PACK_LEARNER="$pack_learner" PACK_TOKEN="$pack_token"
packs=$(measure packs / -s Benchmarks/course_packs.lua)
packs_one=$(CONNECTIONS=1 THREADS=1 measure packs-one / -s Benchmarks/course_packs.lua)
fresh=$(PACK_LEARNER="$fresh_learner" PACK_TOKEN="$fresh_token" CONNECTIONS=1 THREADS=1 measure packs-fresh / -s Benchmarks/course_packs.lua)
health=$(measure health /health)
# Saturation: the learners answering as fast as the server lets them.
python3 Benchmarks/course_load.py run --port "$PORT" --accounts "$work/learners.txt" --duration "$DURATION" --warmup "$WARMUP" \
  --label "as fast as the server answers" --summary "$work/saturation.json" >"$work/saturation.md"
# Learners as people use it: a few seconds to read and answer each screen.
if [ "$THINKING_DURATION" != 0 ]; then
  python3 Benchmarks/course_load.py run --port "$PORT" --accounts "$work/learners.txt" --duration "$THINKING_DURATION" \
    --warmup "$WARMUP" --think "$THINK" --label "at a learner's pace" --summary "$work/thinking.json" >"$work/thinking.md"
else
  : >"$work/thinking.md"
  echo '{"errors": 0, "startProblems": 0, "stuck": 0}' >"$work/thinking.json"
fi

# What an answer asks of PostgreSQL, alone: pgbench (64 clients, prepared)
# on the measured learners' open lessons, the server idle. The read and a
# wrong answer's write as the store runs them (`parla bench lessons`): the
# rate PostgreSQL itself allows on these cores.
ids=$(awk '{ printf "%s'"'"'%s'"'"'", (NR > 1 ? "," : ""), $2 }' "$work/learners.txt")
sql -c "CREATE TABLE lesson_bench_open AS
  SELECT row_number() OVER (ORDER BY id)::int AS n, id, learner_id, state::text AS state FROM lessons
  WHERE finished_at IS NULL AND expired_at IS NULL AND learner_id IN ($ids)" -c "ALTER TABLE lesson_bench_open ADD PRIMARY KEY (n)"
open_count=$(sql -c "SELECT count(*) FROM lesson_bench_open")
"$BINARY" bench lessons --pgbench-scripts "$work/pgbench"
statements=""
for script in read write answer one; do
  statements+="$script"$'\t'"$(pgbench_run "$work/pgbench/$script.sql" "$DURATION" -D count="$open_count")"$'\n'
done

# OpenLessons alone: the saturation again, ROUNDS (3) pairs of runs of
# DURATION on a server started again with lessons.keepOpen off, then on.
# The learners go on where they were, so each pair is compared, not the runs.
: >"$work/open-lessons.txt"
BASELINE=${BASELINE:-}
for round in $(seq 1 "$ROUNDS"); do
  for keep in false true; do
    kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true
    if [ -z "$BASELINE" ]; then
      PARLA_LESSONS_KEEP_OPEN=$keep start_server "$PORT"
    elif [ "$keep" = false ]; then
      BINARY="$BASELINE" start_server "$PORT"
    else
      start_server "$PORT"
    fi
    python3 Benchmarks/course_load.py run --port "$PORT" --accounts "$work/learners.txt" --duration "$DURATION" --warmup "$WARMUP" \
      --label "lessons.keepOpen $keep" --summary "$work/open-$round-$keep.json" >/dev/null
    echo "$round $keep $work/open-$round-$keep.json" >>"$work/open-lessons.txt"
  done
done

# AssetFiles alone (the registry's sizes and hashes of assets, once read):
# on a server started again, nothing read yet, each pack's bundle asked
# once (every file read and hashed, as each request would be without it),
# then ten times more (from memory). No pack list first: it would read them.
kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true
start_server "$PORT"
bundles=$(python3 - "$PORT" "$pack_token" "$pack_learner" "$pack_ids" <<'PY'
import json, statistics, sys, time, urllib.request
port, token, learner, ids = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4].split()
def timed(pack):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/learners/{learner}/packs/{pack}/bundle",
                                     headers={"Authorization": f"Bearer {token}"})
    start = time.perf_counter()
    with urllib.request.urlopen(request) as reply:
        body = json.loads(reply.read())
    return (time.perf_counter() - start) * 1000, len(body["assets"])
cold, warm, assets = [], [], []
for pack in ids:
    took, count = timed(pack)
    cold.append(took); assets.append(count)
    warm.append(statistics.median(timed(pack)[0] for _ in range(10)))
print(len(ids), sum(assets), f"{statistics.median(cold):.2f}", f"{max(cold):.2f}", f"{statistics.median(warm):.2f}", f"{max(warm):.2f}")
PY
)

mkdir -p Benchmarks/results
result="Benchmarks/results/course-$(date -u +%Y-%m-%dT%H%M%SZ).md"
python3 - "$health" "$packs" "$packs_one" "$fresh" "$work/saturation.json" "$work/saturation.md" "$work/thinking.md" "$counts" "$seeded" \
  "$pack_check" "$CONNECTIONS" "$DURATION" "$(nproc)" "$bundles" "$work/open-lessons.txt" "$BASELINE" "$statements" "$open_count" >"$result" <<'PY'
import json, sys
sys.path.insert(0, "Benchmarks")
from lesson_load import WRK_HEAD, nested, wrk_row
health, packs, packs_one, fresh, summary, saturation, thinking, counts, seeded, check, connections, duration, cores, bundles, opened, baseline = sys.argv[1:17]
statements, open_count = dict((line.split("\t", 1) for line in sys.argv[17].strip().split("\n"))), sys.argv[18]
health, packs, packs_one, fresh = (line.split("\t") for line in (health, packs, packs_one, fresh))
summary = json.load(open(summary))
learners, lessons, answers, cards, pack_lessons, pack_cards = counts.split()
listed, progressed, continuing = check.split()
ratio = summary["rate"] / float(health[2])
print("# Course benchmark (issue 34)\n")
print(f"{learners} learners with progress in the course: {lessons} course lessons taken, {answers} lesson answers, {cards} memory "
      f"cards (made in {seeded} s, sign-ups included). The pack learner has {pack_lessons} lessons and {pack_cards} memory cards "
      f"over the 5 languages; its pack lists show {listed} packs, {progressed} of them open with lessons complete, and a lesson "
      f"to continue in {continuing} languages. Release build; {cores} cores shared by the load generators, Parla and PostgreSQL.\n")
print(nested(open(saturation).read()))
print("## Against /health, and the pack list\n")
print(f"wrk, {duration} s each; the pack list is one learner's, the five languages in turn (one language per request).\n")
print(WRK_HEAD)
print(wrk_row("GET /health", connections, health))
print(f"| a screen answered (saturation above) | {summary['learners']} | {summary['rate']:.0f} | {summary['p50']:.2f} | "
      f"{summary['p99']:.2f} | {summary['errors']} |")
print(wrk_row(f"GET /v1/learners/{{id}}/packs?language= ({listed} packs with progress)", connections, packs))
print(wrk_row(f"GET /v1/learners/{{id}}/packs?language= ({listed} packs with progress)", 1, packs_one))
print(wrk_row("GET /v1/learners/{id}/packs?language= (a learner without progress)", 1, fresh))
print(f"\nA screen answered: p99 {summary['p99']:.1f} ms (goal: at most 25 ms), {ratio:.0%} of /health's rate "
      f"(goal: at least 40%), {summary['learners']} learners on as many connections.")
print(f"Pack progress of a learner with {listed} packs: p99 {packs_one[4]} ms alone, {packs[4]} ms at {connections} connections "
      f"(goal: at most 10 ms).\n")
print("## What an answer asks of PostgreSQL, alone\n")
print(f"pgbench, 64 clients, prepared, {duration} s each, on the {open_count} open lessons of the learners measured above, "
      "the server idle: the statements as the store runs them (`parla bench lessons`). The read is the lesson with its "
      "learner's model (the state not sent: the server holds it); the write is a wrong answer's (the lesson's state).\n")
print("| statements | per second | count | p50 ms | p99 ms |")
print("|---|---:|---:|---:|---:|")
for name, label in [("read", "the read"), ("write", "a wrong answer's write"), ("answer", "an answer: the read, then the write"),
                    ("one", "floor: SELECT 1")]:
    rate, count, p50, p99 = statements[name].split("\t")
    print(f"| {label} | {rate} | {count} | {p50} | {p99} |")
answer_rate = float(statements["answer"].split("\t")[0])
print(f"\nPostgreSQL alone, with both cores and no server, runs {answer_rate:.0f} answers' statements a second: "
      f"{answer_rate / float(health[2]):.0%} of /health's rate (the goal asks the server for 40%).\n")
bundled, assets, cold, cold_max, warm, warm_max = bundles.split()
print("## A pack's bundle, with and without AssetFiles\n")
print(f"The server started again, nothing read: each of the {bundled} packs' bundles ({assets} assets in all) asked once, "
      "each of its files read and hashed (what every request would cost without AssetFiles), then 10 times more from "
      "memory (the median of the 10 per pack); one request at a time.\n")
print("| bundle | median over packs ms | slowest pack ms |")
print("|---|---:|---:|")
print(f"| first request (files read and hashed) | {cold} | {cold_max} |")
print(f"| from AssetFiles | {warm} | {warm_max} |\n")
runs = {}
for line in open(opened):
    round_, keep, path = line.split()
    runs.setdefault(round_, {})[keep] = json.load(open(path))
if runs and baseline:
    print("## This build against a baseline, alone\n")
    print(f"The saturation above again, {len(runs)} pairs of {duration} s runs, each on a server started again: the "
          f"baseline (`{baseline}`, off), then this build (on); the learners go on where they were, so each pair is compared.\n")
elif runs:
    print("## Open lessons kept decoded (OpenLessons), alone\n")
    print(f"The saturation above again, {len(runs)} pairs of {duration} s runs, each on a server started again with "
          "`lessons.keepOpen` off, then on; the learners go on where they were, so each pair is compared.\n")
if runs:
    print("| pair | off: answers/s | off: p50 ms | off: p99 ms | on: answers/s | on: p50 ms | on: p99 ms | gain |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    gains = []
    for round_, pair in sorted(runs.items()):
        off, on = pair["false"], pair["true"]
        gains.append(on["rate"] / off["rate"] - 1)
        print(f"| {round_} | {off['rate']:.0f} | {off['p50']:.1f} | {off['p99']:.1f} | {on['rate']:.0f} | {on['p50']:.1f} | "
              f"{on['p99']:.1f} | {gains[-1]:+.0%} |")
    what = "This build" if baseline else "Kept decoded"
    print(f"\n{what}, a screen answered at saturation: {sum(gains) / len(gains):+.0%} answers/s on average over the pairs.\n")
print(nested(open(thinking).read()))
PY
cat "$result"
echo "saved to $result"
errors=$(python3 -c 'import json,sys; print(sum(s["errors"] + s["startProblems"] + s["stuck"] for s in map(json.load, map(open, sys.argv[1:]))))' \
  "$work/saturation.json" "$work/thinking.json" $(ls "$work"/open-*.json 2>/dev/null))
non2xx=$(($(cut -f6 <<<"$health") + $(cut -f6 <<<"$packs") + $(cut -f6 <<<"$packs_one") + $(cut -f6 <<<"$fresh")))
# Every pack listed has progress, and a lesson goes on in each language.
read -r listed progressed continuing <<<"$pack_check"
if [ "$errors" != 0 ] || [ "$non2xx" != 0 ] || [ "$listed" != "$progressed" ] || [ "$continuing" != 5 ]; then
  echo "failed: $errors lesson errors, $non2xx non-2xx from wrk, pack check '$pack_check' (want every pack listed with progress, 5 to continue)" >&2
  exit 1
fi
