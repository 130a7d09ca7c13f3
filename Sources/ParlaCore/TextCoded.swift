/// A value with one written form (`emoji:1f43e`, `word:cat`): coded as that
/// text, in the API's JSON and in stored documents alike.
public protocol TextCoded: Codable, CustomStringConvertible {
    /// The value a text writes, or nil when it writes none.
    init?(_ text: String)
}

extension TextCoded {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(text) is no \(Self.self)"))
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
