// Header only: LLVMFuzzerRunDriver comes from the toolchain's libFuzzer runtime.
