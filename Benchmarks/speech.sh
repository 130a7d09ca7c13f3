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

# row LANGUAGE DATA [options]: the active model is read from `parla speech models`.
row() {
  local language=$1 data=$2; shift 2
  local line model
  model=$("$BINARY" speech models --log-level error "$@" | awk -v language="$language" '$1 == language { print $2 }')
  line=$("$BINARY" speech calibrate --language "$language" --data "$data" --log-level error "$@" | tail -1)
  python3 - "$language" "$model" "$line" <<'PY'
import re, sys
language, model, line = sys.argv[1:4]
values = dict(re.findall(r"(clips|right|wrong|  AUC|overall AUC|factor) (-?[\d.]+)", line))
found = re.search(r"substitutions found (\d+)/(\d+) elsewhere (\d+)/(\d+) detection AUC ([\d.]+)", line)
substitutions = f"{found[1]}/{found[2]} | {found[3]}/{found[4]} | {found[5]}" if found else "- | - | -"
print(f"| {language} | {model} | {values['clips']} | {values['right']} | {values['wrong']} | {values['  AUC']} "
      f"| {values['overall AUC']} | {values['factor']} | {substitutions} |")
PY
}

rows=()
rows+=("$(row en "$work/librivox")")
if [ -d "$CLIPS" ]; then
  for language in en fr it de es; do rows+=("$(row $language "$CLIPS/voxforge-$language")"); done
  if [ -d "$MODELS" ]; then
    for language in de es; do rows+=("$(row $language "$CLIPS/voxforge-$language" --speech-model-paths "$MODELS")"); done
  fi
fi

mkdir -p Benchmarks/results
result="Benchmarks/results/speech-$(date -u +%Y-%m-%dT%H%M%SZ).md"
{
  echo "# Speech benchmark"
  echo
  echo "Each clip scored with its own text (right) and the next clip's (wrong); mean goodness of pronunciation"
  echo "(nats/frame) and its AUC, the AUC of the overall score the API returns, and the real-time factor of a full"
  echo "score (CPU s / audio s, one core, warm decoder). Release build."
  echo
  echo "Substitutions (where the model has a table): on each clip, one phone the native said that is another's"
  echo "likely substitute is asked for as that other phone; found = the alignment heard what the native said there;"
  echo "elsewhere = the clips' other phones the alignment heard a substitute for (false alarms); detection = the"
  echo "chance one of those other phones scores above the phone asked for (phone scores as the API returns them)."
  echo
  echo "| language | model | clips | right | wrong | AUC | overall AUC | real-time factor | substitutions found | elsewhere | detection AUC |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"
} >"$result"
cat "$result"
echo "saved to $result"
