#!/usr/bin/env bash
# The learning-model benchmark: 1,000 simulated learners (theta ~ N(0,1)) take
# the placement test on a synthetic 300-item 2PL bank, scored by signed
# residual time and by accuracy alone; FSRS-6 with default parameters on the
# py-fsrs review log (srs-benchmark protocol) when the machine has it.
# Saves a table under Benchmarks/results/.
set -euo pipefail
cd "$(dirname "$0")/.."

BINARY=${BINARY:-.build/release/parla}
VENV=Benchmarks/.venv
CATSIM_VERSION=0.21.0
REVIEW_LOG=${PARLA_FSRS_REVIEW_LOG:-../shared/reference/fsrs/pyfsrs_review_logs_josh.csv}

# catsim, the reference CAT, in the benchmark's own venv.
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import catsim" 2>/dev/null; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet "catsim==$CATSIM_VERSION"
fi
data=$(mktemp -d /tmp/parla-learning-bench-XXXXXX)
trap 'rm -rf "$data"' EXIT

mkdir -p Benchmarks/results
result="Benchmarks/results/learning-$(date -u +%Y-%m-%dT%H%M%SZ).md"
{
  echo "# Learning-model benchmark"
  echo
  echo "## Placement: 1,000 simulated learners, synthetic 300-item 2PL bank (a ~ U(0.8, 2.0)), stop at SD < 0.3 (8-25 items)"
  echo
  "$BINARY" learning simulate-placement --learners 1000 --items 300 --seed 2026 --export "$data"
  echo
  echo "Same bank, same learners, same answers (each learner's answer to every item drawn once), catsim $CATSIM_VERSION"
  echo "with maximum likelihood and maximum information selection:"
  echo
  "$VENV/bin/python" Benchmarks/catsim_compare.py "$data"
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
