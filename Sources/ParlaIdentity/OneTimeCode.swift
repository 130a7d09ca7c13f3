import Crypto
import Foundation

/// Time-based one-time codes (TOTP, RFC 6238, with RFC 4226's HOTP): the
/// second factor staff must use and any account may. Six digits from
/// HMAC-SHA1 of the 30-second step, as every authenticator app computes
/// them from the `otpauth://` URI. A code counts once: the step it matched
/// is kept, and only a later step is accepted after it.
public enum OneTimeCode {
    public static let digits = 6
    public static let period: TimeInterval = 30
    /// Steps either side of now that still count (a phone's clock drifts).
    public static let drift: Int64 = 1
    /// Recovery codes made with a second factor, each good once.
    public static let recoveryCodeCount = 10

    /// A new shared secret: 160 random bits, as RFC 4226 recommends.
    public static func newSecret() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<20).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    public static func step(at date: Date) -> Int64 { Int64((date.timeIntervalSince1970 / period).rounded(.down)) }

    /// The code of `step` (RFC 4226's dynamic truncation of HMAC-SHA1).
    public static func code(_ secret: [UInt8], step: Int64, digits: Int = digits) -> String {
        var counter = UInt64(bitPattern: step).bigEndian
        let message = withUnsafeBytes(of: &counter) { Data($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let value =
            (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let text = String(value % modulus)
        return String(repeating: "0", count: digits - text.count) + text
    }

    /// The step whose code `typed` is, within `drift` of `date` and after
    /// `lastUsed` (a code works once); nil otherwise. Spaces are ignored.
    public static func matchingStep(_ typed: String, secret: [UInt8], at date: Date, after lastUsed: Int64) -> Int64? {
        let code = typed.filter { !$0.isWhitespace }
        guard code.count == digits, code.allSatisfy(\.isASCII), code.allSatisfy(\.isNumber) else { return nil }
        let now = step(at: date)
        for candidate in (now - drift)...(now + drift) where candidate > lastUsed {
            if constantTimeEqual(Self.code(secret, step: candidate), code) { return candidate }
        }
        return nil
    }

    /// What an authenticator app scans: `otpauth://totp/Parla:<label>?...`.
    public static func uri(secret: [UInt8], label: String, issuer: String = "Parla") -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~@")
        let name = "\(issuer):\(label)".addingPercentEncoding(withAllowedCharacters: allowed.union([":"])) ?? issuer
        let issuerParameter = issuer.addingPercentEncoding(withAllowedCharacters: allowed) ?? issuer
        return
            "otpauth://totp/\(name)?secret=\(base32(secret))&issuer=\(issuerParameter)&algorithm=SHA1&digits=\(digits)&period=\(Int(period))"
    }

    /// RFC 4648 base32 without padding, as `otpauth://` URIs carry secrets.
    public static func base32(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var text = ""
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                text.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { text.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return text
    }

    /// The bytes of a base32 secret (as typed into an app by hand); nil
    /// for anything else.
    public static func secret(base32 text: String) -> [UInt8]? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var bytes: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for character in text.uppercased() where character != "=" && !character.isWhitespace {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                bytes.append(UInt8((buffer >> UInt32(bits - 8)) & 0xff))
                bits -= 8
            }
        }
        return bytes
    }

    /// Ten recovery codes, `xxxx-xxxx-xxxx` of lower-case letters and
    /// digits without look-alikes (60 bits each): shown once, kept hashed.
    public static func newRecoveryCodes() -> [String] {
        let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")
        var generator = SystemRandomNumberGenerator()
        return (0..<recoveryCodeCount).map { _ in
            (0..<3).map { _ in String((0..<4).map { _ in alphabet.randomElement(using: &generator)! }) }.joined(separator: "-")
        }
    }

    /// A recovery code as typed, in the form it was made (case, spaces and
    /// dashes do not matter); nil when it cannot be one.
    public static func normalizedRecoveryCode(_ typed: String) -> String? {
        let letters = typed.lowercased().filter { $0.isLetter || $0.isNumber }
        guard letters.count == 12, letters.allSatisfy(\.isASCII) else { return nil }
        let characters = Array(letters)
        return [characters[0..<4], characters[4..<8], characters[8..<12]].map { String($0) }.joined(separator: "-")
    }

    private static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
