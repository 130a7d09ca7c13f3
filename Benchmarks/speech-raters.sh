#!/usr/bin/env bash
# Agreement with human raters (issue 18): `parla speech evaluate` scores
# so762-dev (non-native English rated by five experts, from speechocean762)
# and prints Pearson r at sentence and word level and the detection of
# mispronounced phones, raw and with the mapping fitted on the other
# speaker-grouped folds, and the real-time factor of a full score on one
# core (release build). The data stays outside the repository: without it
# the benchmark says so and stops. Saves the output under Benchmarks/results/.
set -euo pipefail
cd "$(dirname "$0")/.."

BINARY=${BINARY:-.build/release/parla}
DATA=${PARLA_SPEECH_RATED:-../shared/speech-testdata/so762-dev}
if [ ! -f "$DATA/scores.jsonl" ]; then
  echo "speech-raters: no rated speech at $DATA (so762-dev): skipped"
  exit 0
fi
mkdir -p Benchmarks/results
result="Benchmarks/results/speech-raters-$(date -u +%Y-%m-%dT%H%M%SZ).md"
{
  echo "# Agreement with human raters (issue 18)"
  echo
  echo "\`parla speech evaluate --language en --data $(basename "$DATA") --folds 5\`, $(nproc) cores (one score a core), release build."
  echo
  echo '```'
  "$BINARY" speech evaluate --language en --data "$DATA" --folds 5 --log-level error
  echo '```'
  echo
  echo "Goals: sentence r >= 0.75, word r >= 0.50, phone F1 above the raw GOP threshold's, real-time factor <= 0.15."
} >"$result"
cat "$result"
echo "saved to $result"
