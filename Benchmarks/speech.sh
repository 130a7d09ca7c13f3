#!/usr/bin/env bash
# The speech benchmark: per language, the separation of right and wrong
# attempts (AUC) and the real-time factor (CPU seconds per second of audio)
# of a full score on one core, warm decoders, with `parla speech calibrate`
# on real read speech (never synthetic). English always uses Debian's
# pocketsphinx-testdata; the shared VoxForge clips and native models are
# used when present. Saves a table under Benchmarks/results/.
set -euo pipefail
cd "$(dirname "$0")/.."

BINARY=${BINARY:-.build/release/parla}
CLIPS=${PARLA_SPEECH_TESTDATA:-../shared/speech-testdata}
MODELS=${PARLA_SPEECH_MODELS:-../shared/models}
work=$(mktemp -d /tmp/parla-speech-bench-XXXXXX)
trap 'rm -rf "$work"' EXIT

# LibriVox clips from pocketsphinx-testdata, as <id>.wav + <id>.txt.
librivox=/usr/share/pocketsphinx/test/data/librivox
mkdir -p "$work/librivox"
sed -E 's/^<s> (.*) <\/s> \((.*)\)$/\2\t\1/' "$librivox/transcription" | while IFS=$'\t' read -r id text; do
  ln -s "$librivox/$id.wav" "$work/librivox/$id.wav"
  echo "$text" >"$work/librivox/$id.txt"
done

row() {
  local language=$1 model=$2 data=$3; shift 3
  local line
  line=$("$BINARY" speech calibrate --language "$language" --data "$data" --log-level error "$@" | tail -1)
  python3 - "$language" "$model" "$line" <<'PY'
import re, sys
language, model, line = sys.argv[1:4]
values = dict(re.findall(r"(clips|right|wrong|AUC|factor) (-?[\d.]+)", line))
print(f"| {language} | {model} | {values['clips']} | {values['right']} | {values['wrong']} | {values['AUC']} | {values['factor']} |")
PY
}

rows=()
rows+=("$(row en en-us "$work/librivox")")
if [ -d "$CLIPS" ]; then
  rows+=("$(row en en-us "$CLIPS/voxforge-en")")
  rows+=("$(row fr fr-fr "$CLIPS/voxforge-fr")")
  for language in it de es; do rows+=("$(row $language en-us-crosslingual "$CLIPS/voxforge-$language")"); done
  if [ -d "$MODELS" ]; then
    rows+=("$(row de de-voxforge "$CLIPS/voxforge-de" --speech-model-paths "$MODELS")")
    rows+=("$(row es es-cmusphinx "$CLIPS/voxforge-es" --speech-model-paths "$MODELS")")
  fi
fi

mkdir -p Benchmarks/results
result="Benchmarks/results/speech-$(date -u +%Y-%m-%dT%H%M%SZ).md"
{
  echo "# Speech benchmark"
  echo
  echo "Each clip scored with its own text (right) and the next clip's (wrong); mean goodness of pronunciation"
  echo "(nats/frame), AUC, and the real-time factor of a full score (CPU s / audio s, one core, warm decoder). Release build."
  echo
  echo "| language | model | clips | right | wrong | AUC | real-time factor |"
  echo "|---|---|---:|---:|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"
} >"$result"
cat "$result"
echo "saved to $result"
