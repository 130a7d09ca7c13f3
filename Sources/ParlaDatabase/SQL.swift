import PostgresNIO

/// SQL with bound values that composes: a fragment may interpolate another
/// (`\(fragment)`), keeping each value bound, so that one statement can be
/// written in parts that are each written once (`LearningRows`). Becomes a
/// `PostgresQuery` only when run.
public struct SQL: ExpressibleByStringInterpolation, Sendable {
    fileprivate enum Part: Sendable {
        case text(String)
        case value(@Sendable (inout PostgresQuery.StringInterpolation) -> Void)
    }

    private var parts: [Part]

    public init(stringLiteral value: String) { parts = [.text(value)] }

    public init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

    public struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var parts: [Part] = []

        public init(literalCapacity: Int, interpolationCount: Int) { parts.reserveCapacity(2 * interpolationCount + 1) }

        public mutating func appendLiteral(_ literal: String) { parts.append(.text(literal)) }

        public mutating func appendInterpolation<Value: PostgresDynamicTypeEncodable & Sendable>(_ value: Value) {
            parts.append(.value { $0.appendInterpolation(value) })
        }

        public mutating func appendInterpolation<Value: PostgresDynamicTypeEncodable & Sendable>(_ value: Value?) {
            parts.append(.value { $0.appendInterpolation(value) })
        }

        public mutating func appendInterpolation(_ fragment: SQL) { parts += fragment.parts }

        /// Text from the code, never from a request.
        public mutating func appendInterpolation(unescaped text: String) { parts.append(.text(text)) }
    }

    public var query: PostgresQuery {
        var built = PostgresQuery.StringInterpolation(literalCapacity: 0, interpolationCount: parts.count)
        for part in parts {
            switch part {
            case .text(let text): built.appendLiteral(text)
            case .value(let bind): bind(&built)
            }
        }
        return PostgresQuery(stringInterpolation: built)
    }
}
