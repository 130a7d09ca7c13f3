# Sourced by the scripts that read speechocean762 (Benchmarks/speech-split.sh,
# scripts/train-speech.sh): where the release binary, the corpus's two
# splits (scripts/so762.sh makes them) and their kept scores are, and
# whether both splits are there.
BINARY=${BINARY:-.build/release/parla}
DATA=${PARLA_SO762:-../data/so762}
# The sequence scorer's training evidence (scored with speech.substitutions
# off, as its weights were trained) and the benchmark's (scored as the
# server scores): two dumps, never mixed.
FEATURES=${FEATURES:-$DATA/features}
SERVED=${SERVED:-$DATA/features-served}

so762_present() {
  [ -f "$DATA/train/scores.jsonl" ] && [ -f "$DATA/test/scores.jsonl" ]
}
