#!/usr/bin/env bash
# Fuzzes what Parla decodes from untrusted uploads with libFuzzer: audio
# (AudioDecoder: libsndfile and libsamplerate) and pictures (ImageInspector).
#
#   scripts/fuzz-decoders.sh [RUNS [SECONDS]]
#
# RUNS executions a target (1000000 unless given), each target stopping
# after SECONDS if given: audio runs at about 1,000 a second on one core
# (its inputs may decode to 1.5 s: decodeUpload), pictures at 150,000.
#
# Both targets are built with libFuzzer and AddressSanitizer in their own
# scratch path (.build-fuzz), and start from the committed seeds
# (Tests/Fuzz/seeds, scripts/fuzz-seeds.sh) plus what earlier runs kept in
# .build-fuzz/corpus. A crash, sanitizer report, timeout (10 s) or memory
# blow-up (2 GB) is copied into Tests/Fuzz/regressions/TARGET/, which the
# regression tests replay (FuzzRegressionTests), and the script fails.
# Only our Swift code is instrumented: libsndfile and libsamplerate are
# Debian's, so coverage guides mutations through AudioDecoder's own
# branches and the comparisons libsndfile makes (libFuzzer intercepts
# memcmp and strcmp), and the many seed formats reach inside the libraries.
set -euo pipefail

runs="${1:-1000000}"
seconds="${2:-0}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

scratch=.build-fuzz
# -use-ld=lld: gold crashes (internal error in dwarf_reader) linking these.
flags=(-c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld --scratch-path "$scratch")
for target in audio picture; do
  swift build "${flags[@]}" --product "parla-fuzz-$target"
done
bin="$(swift build "${flags[@]}" --show-bin-path)"

# fuzz TARGET MAX_LEN: one target's run; prints libFuzzer's last lines and
# returns non-zero when it found something. -close_fd_mask=3 silences what
# libsndfile prints about broken files; libFuzzer's own report still shows.
fuzz() {
  local target=$1 max_len=$2
  local corpus="$scratch/corpus/$target" artifacts="$scratch/artifacts/$target" log="$scratch/fuzz-$target.log"
  # Artifacts of an earlier run were copied then; only this run's count.
  rm -rf "$artifacts"
  mkdir -p "$corpus" "$artifacts"
  echo "fuzzing $target: $runs runs, inputs up to $max_len bytes (log: $log)"
  local start status=0
  start=$(date +%s)
  "$bin/parla-fuzz-$target" -runs="$runs" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 -close_fd_mask=3 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 "$corpus" "Tests/Fuzz/seeds/$target" >"$log" 2>&1 || status=$?
  grep -E '^#[0-9]+[[:space:]]' "$log" | tail -1 || true
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log" || true
  echo "$target: $(($(date +%s) - start)) s, $(find "$corpus" -type f | wc -l) files in $corpus, exit status $status"
  local found=0
  for artifact in "$artifacts"/crash-* "$artifacts"/timeout-* "$artifacts"/oom-* "$artifacts"/leak-*; do
    [ -e "$artifact" ] || continue
    mkdir -p "Tests/Fuzz/regressions/$target"
    cp "$artifact" "Tests/Fuzz/regressions/$target/"
    echo "FOUND: $artifact, kept as Tests/Fuzz/regressions/$target/$(basename "$artifact")"
    found=1
  done
  [ "$status" -eq 0 ] && [ "$found" -eq 0 ]
}

failed=0
fuzz audio 65536 || failed=1
fuzz picture 4096 || failed=1
exit $failed
