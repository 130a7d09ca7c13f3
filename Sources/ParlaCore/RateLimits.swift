#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the service counts per client address and per account, so that
/// one client cannot guess passwords, flood the outbox, make accounts by
/// the thousand or keep the scorer busy for everyone else.
public enum LimitedAction: String, Sendable, CaseIterable {
    /// A new account (`POST /v1/accounts`).
    case signUp
    /// A guest (`POST /v1/guests`).
    case guest
    /// A sign-in, with a password or a provider's token (API and dashboard).
    case signIn
    /// Asking for a reset email, or setting a password with its token.
    case passwordReset
    /// A recording to score or align.
    case recording
}

/// At most `count` in each window of `seconds` (fixed windows, counted on
/// the database so that every server sees the same count).
public struct RateLimit: Sendable, Equatable {
    public var count: Int
    public var seconds: Int

    public init(count: Int, seconds: Int) {
        self.count = count
        self.seconds = seconds
    }

    /// The window `now` (seconds since 1970) falls in, as its start and end.
    public func window(at now: Double) -> (start: Int, end: Int) {
        let start = Int((now / Double(seconds)).rounded(.down)) * seconds
        return (start, start + seconds)
    }

    /// Whole seconds until the window of `now` ends: a client refused now
    /// may try again then (at least 1).
    public func retryAfter(at now: Double) -> Int {
        max(1, Int((Double(window(at: now).end) - now).rounded(.up)))
    }
}

/// The limits of each action, per client address and per account. A limit
/// that is absent does not apply (sign-ups have no account yet; a failed
/// sign-in is already throttled per email by `AccountService`).
public struct RateLimitPolicy: Sendable, Equatable {
    public var perAddress: [LimitedAction: RateLimit]
    public var perAccount: [LimitedAction: RateLimit]

    public init(perAddress: [LimitedAction: RateLimit], perAccount: [LimitedAction: RateLimit]) {
        self.perAddress = perAddress
        self.perAccount = perAccount
    }

    /// Generous enough for a class of thirty signing up and in from one
    /// school's address within the hour, and for a learner repeating a
    /// phrase every two seconds; tight enough that a script is slowed to
    /// a crawl.
    public static let standard = RateLimitPolicy(
        perAddress: [
            .signUp: RateLimit(count: 100, seconds: 3600),
            .guest: RateLimit(count: 100, seconds: 3600),
            .signIn: RateLimit(count: 100, seconds: 300),
            .passwordReset: RateLimit(count: 30, seconds: 3600),
            .recording: RateLimit(count: 600, seconds: 60),
        ],
        perAccount: [
            .recording: RateLimit(count: 60, seconds: 60)
        ])
}

/// The address a request comes from, as its limits count it.
public enum ClientAddress {
    /// The client's address: the peer's, unless the peer is a trusted proxy
    /// (nginx in front of several servers), in which case the last address
    /// in `X-Forwarded-For` that is not itself a trusted proxy. Headers from
    /// anyone else are ignored: a client cannot choose its own bucket.
    /// IPv6 addresses count per /64, the block one subscriber is given.
    /// Nil when there is no peer (a request made in-process).
    public static func resolve(peer: String?, forwardedFor: [String], trustedProxies: Set<String>) -> String? {
        guard let peer, let peerAddress = canonical(peer) else { return nil }
        guard trustedProxies.contains(peerAddress) else { return bucket(peerAddress) }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { String($0.trimmingSpaces) }
        for hop in hops.reversed() {
            guard let address = canonical(hop) else { return bucket(peerAddress) }
            if !trustedProxies.contains(address) { return bucket(address) }
        }
        return bucket(peerAddress)
    }

    /// The address in its canonical text (IPv4 dotted, IPv6 as inet_ntop
    /// writes it, an IPv4-mapped IPv6 address as IPv4); nil if not one.
    public static func canonical(_ text: String) -> String? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return format(AF_INET, &v4, 16) }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return bytes[12..<16].map(String.init).joined(separator: ".")
        }
        return format(AF_INET6, &v6, 46)
    }

    /// IPv4 as it is; IPv6 cut to its /64.
    static func bucket(_ canonical: String) -> String {
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, canonical, &v6) == 1 else { return canonical }
        withUnsafeMutableBytes(of: &v6) { bytes in
            for index in 8..<16 { bytes[index] = 0 }
        }
        return (format(AF_INET6, &v6, 46) ?? canonical) + "/64"
    }

    private static func format<Address>(_ family: Int32, _ address: inout Address, _ size: Int) -> String? {
        var text = [CChar](repeating: 0, count: size)
        guard inet_ntop(family, &address, &text, socklen_t(size)) != nil else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
