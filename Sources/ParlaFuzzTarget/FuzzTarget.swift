import Foundation

#if FUZZING
    import CLibFuzzer
#endif

/// What the fuzz targets share. Built by `scripts/fuzz-decoders.sh`
/// (`-sanitize=fuzzer -DFUZZING`), a target runs libFuzzer's driver,
/// taking libFuzzer's flags; otherwise it replays the files and folders
/// named on its command line (a crash the fuzzer kept, a corpus) and
/// prints each one's outcome.
public enum FuzzTarget {
    /// Runs `input` on every input libFuzzer makes, or `describe` on each
    /// file given; never returns.
    public static func main(input: @escaping @Sendable ([UInt8]) -> Void, describe: ([UInt8]) -> String) -> Never {
        #if FUZZING
            // libFuzzer takes a C function, which cannot capture: the input
            // function waits for it here, set once before the driver starts.
            Input.current = input
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(
                LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                    Input.current(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
                    return 0
                })
        #else
            for file in CommandLine.arguments.dropFirst().flatMap(files) {
                guard let bytes = FileManager.default.contents(atPath: file) else { continue }
                print("\(file): \(describe([UInt8](bytes)))")
            }
            exit(0)
        #endif
    }

    #if FUZZING
        private enum Input {
            nonisolated(unsafe) static var current: @Sendable ([UInt8]) -> Void = { _ in }
        }
    #endif

    /// The file at `path`, or every file under it.
    static func files(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return [path] }
        return ((try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 }.filter {
            FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }
}
