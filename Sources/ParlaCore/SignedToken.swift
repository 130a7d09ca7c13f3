import Foundation

/// The shape of a signed token (a JWS in compact form: a StoreKit 2
/// transaction, an OpenID Connect id_token): three base64url parts, the
/// first a JSON object naming its algorithm. Input without that shape is
/// garbage whatever the server is set up to verify, so it is refused as
/// the client's fault (4xx) before any "not configured" or "unavailable"
/// answer (issue 32, item 18).
public enum SignedToken {
    public static func hasCompactShape(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isBase64URL) }) else { return false }
        var header = String(parts[0]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        header += String(repeating: "=", count: (4 - header.count % 4) % 4)
        guard let data = Data(base64Encoded: header),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return false }
        return object["alg"] is String
    }

    private static func isBase64URL(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == "_")
    }
}
