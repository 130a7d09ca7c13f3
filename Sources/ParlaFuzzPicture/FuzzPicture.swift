import Foundation
import ParlaCore
import ParlaFuzzTarget

/// One input through the picture check exactly as an uploaded profile
/// picture goes. The fuzzer, the replay and the regression tests all call
/// this, so they exercise the same code. Any outcome is fine; a crash,
/// trap, hang or sanitizer report is a finding.
public func inspectUpload(_ bytes: [UInt8]) -> Result<PictureInfo, ParlaError> {
    Result { () throws(ParlaError) in try ImageInspector.inspect(bytes) }
}

/// `parla-fuzz-picture`: libFuzzer's target, or a replay (`FuzzTarget`).
@main
struct FuzzPicture {
    static func main() {
        FuzzTarget.main(input: { _ = inspectUpload($0) }) { bytes in
            switch inspectUpload(bytes) {
            case .success(let info): "\(info.mediaType.rawValue) \(info.width)x\(info.height)"
            case .failure(let error): error.code.rawValue
            }
        }
    }
}
