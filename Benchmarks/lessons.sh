#!/usr/bin/env bash
# The lesson answers endpoint under load: a release server, LEARNERS (32)
# simulated learners signed up first, each on its own keep-alive connection
# in a closed loop without think time (Benchmarks/lesson_load.py): start a
# teacher-mode lesson of 12 multiple-choice questions (fr, it, de, es, en in
# turn), answer each with a random option not yet tried, start another once
# it is finished. Only the answers are timed: answers per second and
# p50/p90/p99/max latency for all answers, right ones (learning-model updates
# and the next question chosen) and wrong ones (the same question back),
# after WARMUP (3) s discarded, over DURATION (20) s; errors and lessons
# completed. Saves the table under Benchmarks/results/.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-18082}
LEARNERS=${LEARNERS:-32}
DURATION=${DURATION:-20}
WARMUP=${WARMUP:-3}
. Benchmarks/server.sh
start_server "$PORT"

mkdir -p Benchmarks/results
result="Benchmarks/results/lessons-$(date -u +%Y-%m-%dT%H%M%SZ).md"
python3 Benchmarks/lesson_load.py --port "$PORT" --learners "$LEARNERS" --duration "$DURATION" --warmup "$WARMUP" |
  tee "$result"
echo "saved to $result"
