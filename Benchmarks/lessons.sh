#!/usr/bin/env bash
# The lesson answers endpoint under load: a release server, LEARNERS (32)
# simulated learners signed up first, each on its own keep-alive connection
# (Benchmarks/lesson_load.py): start a teacher-mode lesson of 12
# multiple-choice questions (fr, it, de, es, en in turn), answer each with a
# random option not yet tried, start another once it is finished. Two runs:
# learners who take THINK (1-3) s to answer, as people do, over
# THINKING_DURATION (40) s; then the same without think time (saturation)
# over DURATION (20) s. Only the answers are timed: answers per second and
# p50/p90/p99/max latency for all answers, right ones (learning-model updates
# and the next question chosen) and wrong ones (the same question back),
# after WARMUP (3) s discarded; errors and lessons completed. Saves the
# tables under Benchmarks/results/.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-18082}
LEARNERS=${LEARNERS:-32}
DURATION=${DURATION:-20}
WARMUP=${WARMUP:-3}
THINK=${THINK:-1,3}
THINKING_DURATION=${THINKING_DURATION:-40}
. Benchmarks/server.sh
start_server "$PORT"

mkdir -p Benchmarks/results
result="Benchmarks/results/lessons-$(date -u +%Y-%m-%dT%H%M%SZ).md"
{
  # Learners as people use it: a few seconds to read and answer each question.
  python3 Benchmarks/lesson_load.py --port "$PORT" --learners "$LEARNERS" --duration "$THINKING_DURATION" --warmup "$WARMUP" \
    --think "$THINK"
  echo
  # Saturation: the same learners answering as fast as the server lets them.
  python3 Benchmarks/lesson_load.py --port "$PORT" --learners "$LEARNERS" --duration "$DURATION" --warmup "$WARMUP"
} | tee "$result"
echo "saved to $result"
