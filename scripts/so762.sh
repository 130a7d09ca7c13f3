#!/usr/bin/env bash
# Builds the whole speechocean762 corpus (train and test, 2,500 utterances
# each) in the format of the so762-dev development set, for fitting and
# evaluating the pronunciation scorer:
#
#   scripts/so762.sh GIT_DIR OUT
#
# GIT_DIR is a (bare) git copy of github.com/jimbozhang/speechocean762 (the
# fetch tool's /work/.mirror/jimbozhang+speechocean762/repo). It writes
#   OUT/{train,test}/scores.jsonl  one JSON object per line, sorted by id,
#                                  with so762-dev's fields plus `raters`
#                                  (every rater's own scores);
#   OUT/{train,test}/text          `<id> <TRANSCRIPT>`, sorted;
#   OUT/{train,test}/wav/<id>.wav  16 kHz mono 16-bit WAV, the corpus's bytes;
# and prints a report (counts; agreement with so762-dev when it is present).
# The targets are recomputed from every rater's scores in the repository's
# history; scripts/so762.py says how. Idempotent: files already right are
# left alone, stale ones removed. Needs git and python3 (standard library).
#
# Licence: speechocean762 is CC BY 4.0 (OpenSLR SLR101). Credit the authors
# and cite Junbo Zhang et al., "speechocean762: An Open-Source Non-native
# English Speech Corpus For Pronunciation Assessment", Proc. Interspeech
# 2021, arXiv:2104.01378.
#
# Third-party data: OUT must be outside the repository, and nothing it holds
# may ever be committed into the product repository.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 GIT_DIR OUT" >&2
  exit 2
fi
git_dir="$1"
out="$2"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
dev="${SO762_DEV:-/work/shared/speech-testdata/so762-dev}"

for tool in git python3; do
  command -v "$tool" >/dev/null || { echo "so762: $tool is missing" >&2; exit 1; }
done
git --git-dir="$git_dir" rev-parse --verify --quiet HEAD >/dev/null ||
  { echo "so762: $git_dir is not a git directory" >&2; exit 1; }

out="$(realpath -m "$out")"
case "$out/" in
  "$(realpath "$root")"/*)
    echo "so762: $out is inside the repository; the data must stay outside it" >&2
    exit 1 ;;
esac
mkdir -p "$out"

args=("$git_dir" "$out")
if [ -f "$dev/scores.jsonl" ]; then
  args+=("$dev")
fi
exec python3 "$here/so762.py" "${args[@]}"
