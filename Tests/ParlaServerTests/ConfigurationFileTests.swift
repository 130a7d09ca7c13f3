import Configuration
import Foundation
import ParlaServer
import ParlaTestSupport
import Synchronization
import SystemPackage
import Testing

/// `Config/parla.json` is where an operator learns what can be set: it
/// lists every key the server reads, with its default, and nothing else.
@Suite("the configuration file")
struct ConfigurationFileTests {
    /// The keys a reader was asked for.
    final class KeysRead: AccessReporter {
        let keys = Mutex<Set<String>>([])
        func report(_ event: AccessEvent) {
            _ = keys.withLock { $0.insert(event.metadata.key.components.joined(separator: ".")) }
        }
    }

    /// The leaves of a JSON object, as dotted keys.
    static func leaves(_ value: Any, prefix: String = "") -> Set<String> {
        guard let object = value as? [String: Any] else { return [prefix] }
        var keys: Set<String> = []
        for (key, child) in object { keys.formUnion(leaves(child, prefix: prefix.isEmpty ? key : prefix + "." + key)) }
        return keys
    }

    @Test("Config/parla.json lists every key ServerSettings reads, and only those")
    func everyKeyListed() throws {
        let read = KeysRead()
        _ = ServerSettings(config: ConfigReader(provider: InMemoryProvider(values: [:]), accessReporter: read))
        let file = try Data(contentsOf: URL(fileURLWithPath: TestApp.projectDirectory + "/Config/parla.json"))
        let listed = Self.leaves(try JSONSerialization.jsonObject(with: file))
        let asked = read.keys.withLock { $0 }
        #expect(asked.subtracting(listed).isEmpty, "read but missing from Config/parla.json: \(asked.subtracting(listed).sorted())")
        #expect(listed.subtracting(asked).isEmpty, "in Config/parla.json but never read: \(listed.subtracting(asked).sorted())")
    }

    @Test("the file's values are the defaults: reading it changes no setting")
    func fileHoldsTheDefaults() async throws {
        let file = try await FileProvider<JSONSnapshot>(filePath: FilePath(TestApp.projectDirectory + "/Config/parla.json"))
        let fromFile = ServerSettings(config: ConfigReader(provider: file))
        let none = ServerSettings(config: ConfigReader(provider: InMemoryProvider(values: [:])))
        #expect(Self.fields(fromFile) == Self.fields(none))
    }

    /// A value's leaves as "path=value", in an order that does not depend
    /// on a set's or a dictionary's.
    static func fields(_ value: Any, path: String = "") -> [String] {
        let mirror = Mirror(reflecting: value)
        guard !mirror.children.isEmpty else { return ["\(path)=\(value)"] }
        // A set's members, a dictionary's entries: each whole, then sorted.
        if mirror.displayStyle == .set || mirror.displayStyle == .dictionary {
            return mirror.children.map { fields($0.value, path: path + ".*").joined(separator: " ") }.sorted()
        }
        return mirror.children.enumerated().flatMap { index, child in fields(child.value, path: path + "." + (child.label ?? "\(index)")) }
    }
}
