import Foundation
import ParlaCore

#if FUZZING
    import CLibFuzzer
#endif

/// One input through the picture check exactly as an uploaded profile
/// picture goes. The fuzzer, the replay and the regression tests all call
/// this, so they exercise the same code. Any outcome is fine; a crash,
/// trap, hang or sanitizer report is a finding.
public func inspectUpload(_ bytes: [UInt8]) -> Result<PictureInfo, ParlaError> {
    Result { () throws(ParlaError) in try ImageInspector.inspect(bytes) }
}

/// Built by `scripts/fuzz-decoders.sh` (`-sanitize=fuzzer -DFUZZING`), a
/// libFuzzer target taking libFuzzer's flags; otherwise
/// `parla-fuzz-picture FILE|DIR...` replays inputs (a crash the fuzzer
/// kept, a corpus) and prints each one's outcome.
@main
struct FuzzPicture {
    static func main() {
        #if FUZZING
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(
                LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                    _ = inspectUpload(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
                    return 0
                })
        #else
            for file in CommandLine.arguments.dropFirst().flatMap(files) {
                guard let bytes = FileManager.default.contents(atPath: file) else { continue }
                switch inspectUpload([UInt8](bytes)) {
                case .success(let info): print("\(file): \(info.mediaType.rawValue) \(info.width)x\(info.height)")
                case .failure(let error): print("\(file): \(error.code.rawValue)")
                }
            }
        #endif
    }

    /// The file at `path`, or every file under it.
    static func files(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return [path] }
        return ((try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 }.filter {
            FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }
}
