# Sourced by the scripts that read speechocean762 (Benchmarks/speech-split.sh,
# scripts/train-speech.sh): where the release binary, the corpus's two
# splits (scripts/so762.sh makes them) and their kept scores are, and
# whether both splits are there.
BINARY=${BINARY:-.build/release/parla}
DATA=${PARLA_SO762:-../data/so762}
FEATURES=${FEATURES:-$DATA/features}

so762_present() {
  [ -f "$DATA/train/scores.jsonl" ] && [ -f "$DATA/test/scores.jsonl" ]
}
