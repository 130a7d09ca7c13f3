#!/usr/bin/env bash
# The learning-model benchmark: 1,000 simulated learners (theta ~ N(0,1)) take
# the placement test on a synthetic 300-item 2PL bank, scored by signed
# residual time and by accuracy alone; FSRS-6 with default parameters on the
# py-fsrs review log (srs-benchmark protocol) when the machine has it.
# Saves a table under Benchmarks/results/.
set -euo pipefail
cd "$(dirname "$0")/.."

BINARY=${BINARY:-.build/release/parla}
REVIEW_LOG=${PARLA_FSRS_REVIEW_LOG:-../shared/reference/fsrs/pyfsrs_review_logs_josh.csv}

mkdir -p Benchmarks/results
result="Benchmarks/results/learning-$(date -u +%Y-%m-%dT%H%M%SZ).md"
{
  echo "# Learning-model benchmark"
  echo
  echo "## Placement: 1,000 simulated learners, synthetic 300-item 2PL bank (a ~ U(0.8, 2.0)), stop at SD < 0.3 (8-25 items)"
  echo
  "$BINARY" learning simulate-placement --learners 1000 --items 300 --seed 2026
  echo
  echo "## Memory: FSRS-6 default parameters, srs-benchmark protocol"
  echo
  if [ -f "$REVIEW_LOG" ]; then
    echo "$("$BINARY" learning evaluate-memory "$REVIEW_LOG") (reference: log loss 0.4422, RMSE(bins) 0.0637, AUC 0.679)"
  else
    echo "skipped: no review log at $REVIEW_LOG"
  fi
} >"$result"
cat "$result"
echo "saved to $result"
