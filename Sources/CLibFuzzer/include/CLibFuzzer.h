#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver, for a fuzz target that keeps its own main: SwiftPM
// links every executable's entry point as `main`, so libFuzzer's own main
// cannot be used (https://llvm.org/docs/LibFuzzer.html#using-libfuzzer-as-a-library).
// Defined only in a -sanitize=fuzzer build; the Swift side calls it under
// `#if FUZZING`.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
