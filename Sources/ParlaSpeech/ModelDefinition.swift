import Foundation

/// The phones of a Sphinx acoustic model and the senones that model each
/// in any context, read from its binary `mdef` (the layout
/// sphinxbase's `bin_mdef.c` writes: "BMDF", version, a text description,
/// ten counts, the phone names, the context tree, the phones, the senone
/// sequences). What frame-level phone posteriors need.
public struct ModelDefinition: Sendable, Equatable {
    /// The phones by id ("AA", "SIL", "+NSN+").
    public var phones: [String]
    /// Each phone's senones in every context: its own states' and its
    /// triphones', sorted. The best of them is how well the phone, said in
    /// any context, explains a frame.
    public var senones: [[Int]]
    /// Senones in all (context-dependent ones included): what a frame scores.
    public var senoneCount: Int

    /// The phones evidence is measured over (`PhoneLikelihoods.phones`,
    /// `PhoneEvidence.posteriors`): all but the `+NSN+`-style fillers.
    public var evidencePhones: [String] { phones.filter { !Self.isNoise($0) } }

    /// A noise phone ("+NSN+", "+SPN+"): no sound of the language.
    static func isNoise(_ phone: String) -> Bool { phone.hasPrefix("+") }

    public init(phones: [String], senones: [[Int]], senoneCount: Int) {
        (self.phones, self.senones, self.senoneCount) = (phones, senones, senoneCount)
    }

    public struct Unreadable: Error, CustomStringConvertible {
        public var description: String
    }

    public static func read(_ path: String) throws -> ModelDefinition {
        try parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    public static func parse(_ bytes: [UInt8]) throws -> ModelDefinition {
        if bytes.starts(with: Array("0.3\n".utf8)) { return try parseText(String(decoding: bytes, as: UTF8.self)) }
        var position = 0
        func int32() throws -> Int {
            guard position + 4 <= bytes.count else { throw Unreadable(description: "the model definition ends early") }
            defer { position += 4 }
            return Int(
                Int32(
                    bitPattern: UInt32(bytes[position]) | UInt32(bytes[position + 1]) << 8 | UInt32(bytes[position + 2]) << 16
                        | UInt32(bytes[position + 3]) << 24))
        }
        guard try int32() == 0x4644_4D42 else { throw Unreadable(description: "not a little-endian binary model definition") }
        _ = try int32()  // version
        let description = try int32()  // the format's description, in text
        guard description >= 0 else { throw Unreadable(description: "a negative length") }
        position += description
        let counts = try (0..<10).map { _ in try int32() }
        let (ciPhones, allPhones, states, senoneCount, treeNodes) = (counts[0], counts[1], counts[2], counts[4], counts[8])
        guard ciPhones > 0, states > 0, allPhones >= ciPhones, treeNodes >= 0 else {
            throw Unreadable(description: "a model definition with phones of varying states is not supported")
        }
        let namesStart = position
        var phones: [String] = []
        for _ in 0..<ciPhones {
            guard let end = bytes[position...].firstIndex(of: 0) else { throw Unreadable(description: "a phone name never ends") }
            phones.append(String(decoding: bytes[position..<end], as: UTF8.self))
            position = end + 1
        }
        // Padded to four bytes from the names' start; then the context tree (8 bytes a node).
        position = namesStart + ((position - namesStart + 3) & ~3) + 8 * treeNodes
        // Each phone: its senone sequence, its transition matrix, then (for
        // a triphone) its position in the word and its base, left and right phones.
        let phonesStart = position
        var sequences: [(base: Int, sequence: Int)] = []
        for phone in 0..<allPhones {
            position = phonesStart + 12 * phone
            let sequence = try int32()
            let base = phone < ciPhones ? phone : Int(bytes[min(bytes.count - 1, position + 5)])
            guard base < ciPhones else { throw Unreadable(description: "a triphone of no known phone") }
            sequences.append((base, sequence))
        }
        position = phonesStart + 12 * allPhones
        let sequenceValues = try int32()
        let sequencesStart = position
        func senones(of sequence: Int) throws -> [Int] {
            try (0..<states).map { state in
                let index = sequence * states + state
                guard index >= 0, index < sequenceValues, sequencesStart + 2 * index + 1 < bytes.count else {
                    throw Unreadable(description: "a senone sequence out of range")
                }
                return Int(UInt16(bytes[sequencesStart + 2 * index]) | UInt16(bytes[sequencesStart + 2 * index + 1]) << 8)
            }
        }
        let own = try sequences.prefix(ciPhones).map { try senones(of: $0.sequence) }
        var inContext = own.map(Set.init)
        for (base, sequence) in sequences.dropFirst(ciPhones) { inContext[base].formUnion(try senones(of: sequence)) }
        guard inContext.joined().allSatisfy({ $0 < senoneCount }) else { throw Unreadable(description: "a senone out of range") }
        return ModelDefinition(phones: phones, senones: inContext.map { $0.sorted() }, senoneCount: senoneCount)
    }

    /// The text layout (version 0.3, as SphinxTrain writes it): counts as
    /// "<n> <name>" lines, then one line a phone, "base left right position
    /// attribute matrix senone... N", the context-independent ones first
    /// (left "-").
    static func parseText(_ text: String) throws -> ModelDefinition {
        var senoneCount: Int?
        var phones: [String] = []
        var index: [String: Int] = [:]
        var senones: [Set<Int>] = []
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let first = fields.first, !first.hasPrefix("#") else { continue }
            if fields.count == 2, let count = Int(first) {
                if fields[1] == "n_tied_state" { senoneCount = count }
                continue
            }
            guard fields.count >= 8, fields.last == "N" else {
                throw Unreadable(description: "a phone line not understood: \(line.prefix(80))")
            }
            let base = String(first)
            let states = try fields[6..<(fields.count - 1)].map { field -> Int in
                guard let senone = Int(field) else { throw Unreadable(description: "a senone that is no number: \(field)") }
                return senone
            }
            if fields[1] == "-" {
                guard index[base] == nil else { throw Unreadable(description: "the phone \(base) twice") }
                index[base] = phones.count
                phones.append(base)
                senones.append([])
            }
            guard let phone = index[base] else { throw Unreadable(description: "a triphone of no known phone: \(base)") }
            senones[phone].formUnion(states)
        }
        guard let senoneCount, !phones.isEmpty, senones.joined().allSatisfy({ (0..<senoneCount).contains($0) }) else {
            throw Unreadable(description: "no phones, or senones out of range")
        }
        return ModelDefinition(phones: phones, senones: senones.map { $0.sorted() }, senoneCount: senoneCount)
    }
}
