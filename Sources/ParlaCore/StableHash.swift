/// FNV-1a (64 bits): a hash that comes out the same in every process and
/// every release, unlike `Hasher`, whose seed changes with each run. What
/// must be chosen the same way again (a retried request's next question, a
/// learner's default picture) is seeded by it.
public enum StableHash {
    public static func of(_ bytes: some Sequence<UInt8>) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    public static func of(_ text: String) -> UInt64 { of(text.utf8) }
}
