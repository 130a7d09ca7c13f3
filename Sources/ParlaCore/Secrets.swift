/// Compares two secrets (a CSRF token, a push endpoint's secret) in a time
/// that does not depend on where they first differ.
public func secretsMatch(_ a: String, _ b: String) -> Bool {
    let (x, y) = (Array(a.utf8), Array(b.utf8))
    guard x.count == y.count else { return false }
    return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
}
