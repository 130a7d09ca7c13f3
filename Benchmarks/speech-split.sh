#!/usr/bin/env bash
# Speech scores measured as the papers measure them (issue 36): fitted on
# speechocean762's train split only (2,500 utterances, 125 speakers),
# reported on its test split (2,500 utterances, 125 other speakers), with
# `parla speech evaluate --train --test`, beside GOPT's row. The two folders
# come from `scripts/so762.sh GIT_DIR OUT` and stay outside the repository:
# without them the benchmark says so and stops. Each split's scores, as the
# server scores (substitutes in the alignment), are kept in $SERVED (read
# back on the next run, so trying a mapping costs no scoring: delete it
# after a change to scoring). Saves the output under Benchmarks/results/.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/so762-paths.sh
if ! so762_present; then
  echo "speech-split: no speechocean762 train and test at $DATA (make them with scripts/so762.sh): skipped"
  exit 0
fi
mkdir -p Benchmarks/results
result="Benchmarks/results/speech-split-$(date -u +%Y-%m-%dT%H%M%SZ).md"
{
  echo "# Speech scores on speechocean762's test split, fitted on its train split (issue 36)"
  echo
  echo "\`parla speech evaluate --language en --train train --test test\`, $(nproc) cores (one score a core), release build."
  echo "Targets rebuilt from every rater's scores (scripts/so762.sh): word accuracy is the raters' median as released,"
  echo "phone accuracy their mean, sentence scores the median rounded down (the release's for about 4 in 5 utterances)."
  echo
  echo '```'
  "$BINARY" speech evaluate --language en --train "$DATA/train" --test "$DATA/test" --features "$SERVED" --log-level error
  echo '```'
  echo
  echo "Goals: utterance accuracy r >= 0.72, word accuracy r >= 0.55, phone accuracy r >= 0.55 (GOPT's row passed at every level);"
  echo "real-time factor <= 0.10 per core."
} >"$result"
cat "$result"
echo "saved to $result"
