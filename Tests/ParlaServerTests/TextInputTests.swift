import Foundation
import ParlaAPI
import ParlaCore
import ParlaTestSupport
import Testing
import Yams

/// Defect: a NUL in a friend code reached PostgreSQL and came back a 500.
/// Every string a request can carry, as the OpenAPI document lists them, is
/// sent with a NUL and must come back a 422 naming the field.
@Suite("text input: control characters")
struct TextInputTests {
    /// A request body built from the spec (a dictionary: it holds a NUL wherever the spec has a string).
    typealias JSON = [String: any Sendable]

    /// One request per string field of the spec: its method, a concrete
    /// path, and a body holding the NUL at the field's place.
    struct Probe: CustomStringConvertible {
        var method: String, path: String, body: JSON?, field: String
        var description: String { "\(method) \(path) \(field)" }
    }

    static func probes() throws -> [Probe] {
        let spec = try #require(try Yams.load(yaml: String(decoding: APIDocument.yaml(), as: UTF8.self)) as? [String: Any])
        let schemas = ((spec["components"] as? [String: Any])?["schemas"] as? [String: Any]) ?? [:]
        let parameters = ((spec["components"] as? [String: Any])?["parameters"] as? [String: Any]) ?? [:]
        func resolve(_ node: Any?) -> [String: Any] {
            guard var object = node as? [String: Any] else { return [:] }
            while let reference = object["$ref"] as? String, let name = reference.split(separator: "/").last {
                object = (schemas[String(name)] ?? parameters[String(name)]) as? [String: Any] ?? [:]
            }
            return object
        }
        /// Bodies that put the NUL at each string of `schema`, with its path.
        func bodies(_ schema: [String: Any], depth: Int = 0) -> [(any Sendable, String)] {
            guard depth < 6 else { return [] }
            let alternatives = ((schema["oneOf"] ?? schema["anyOf"] ?? schema["allOf"]) as? [Any]) ?? []
            if !alternatives.isEmpty { return alternatives.flatMap { bodies(resolve($0), depth: depth + 1) } }
            let type = schema["type"] as? String ?? (schema["properties"] != nil ? "object" : "")
            switch type {
            case "string" where schema["format"] as? String != "binary":
                return [("a\u{0}b", "")]
            case "array":
                return bodies(resolve(schema["items"]), depth: depth + 1).map { inner, field in
                    ([inner] as [any Sendable], "[0]" + (field.isEmpty || field.hasPrefix("[") ? field : "." + field))
                }
            case "object":
                let properties = (schema["properties"] as? [String: Any]) ?? [:]
                return properties.keys.sorted().flatMap { key in
                    bodies(resolve(properties[key]), depth: depth + 1).map { inner, field in
                        let path = field.isEmpty ? key : field.hasPrefix("[") ? key + field : key + "." + field
                        return ([key: inner] as JSON, path)
                    }
                }
            default:
                return []
            }
        }
        var probes: [Probe] = []
        for (template, item) in (spec["paths"] as? [String: Any]) ?? [:] {
            guard let item = item as? [String: Any] else { continue }
            for method in ["get", "post", "put", "patch", "delete"] {
                guard let operation = item[method] as? [String: Any] else { continue }
                let declared = (((item["parameters"] as? [Any]) ?? []) + ((operation["parameters"] as? [Any]) ?? [])).map { resolve($0) }
                var path = template
                for parameter in declared where parameter["in"] as? String == "path" {
                    let name = parameter["name"] as? String ?? ""
                    path = path.replacingOccurrences(of: "{\(name)}", with: UUID().uuidString.lowercased())
                }
                for parameter in declared {
                    let name = parameter["name"] as? String ?? ""
                    guard resolve(parameter["schema"])["type"] as? String == "string" || parameter["in"] as? String == "path" else {
                        continue
                    }
                    switch parameter["in"] as? String {
                    case "path":
                        let concrete = declared.filter { $0["in"] as? String == "path" && $0["name"] as? String != name }
                            .reduce(template) {
                                $0.replacingOccurrences(of: "{\($1["name"] as? String ?? "")}", with: UUID().uuidString.lowercased())
                            }
                        probes.append(
                            Probe(
                                method: method.uppercased(), path: concrete.replacingOccurrences(of: "{\(name)}", with: "a%00b"),
                                body: nil, field: "path"))
                    case "query":
                        probes.append(Probe(method: method.uppercased(), path: path + "?\(name)=a%00b", body: nil, field: name))
                    default:
                        continue
                    }
                }
                let content = (resolve(operation["requestBody"])["content"] as? [String: Any]) ?? [:]
                for (body, field) in bodies(resolve((content["application/json"] as? [String: Any])?["schema"])) {
                    guard let body = body as? JSON else { continue }
                    probes.append(Probe(method: method.uppercased(), path: path, body: body, field: field))
                }
            }
        }
        return probes.sorted { $0.description < $1.description }
    }

    @Test("a NUL in any string field of any request of the spec is a 422 naming the field, never a 500")
    func everyStringField() async throws {
        let probes = try Self.probes()
        #expect(probes.count > 40, "the spec's string fields were not found: \(probes.count)")
        #expect(probes.contains { $0.path.hasSuffix("/friends") && $0.field == "friendCode" })
        let app = try await TestApp.make()
        try await app.run { client in
            let learner = try await client.signUp()
            for probe in probes {
                let reply = try await client.send(.init(rawValue: probe.method)!, probe.path, token: learner.token, json: probe.body)
                #expect(reply.status == 422, "\(probe): \(reply.status) \(reply.text)")
                #expect(reply.code == "validation_failed", "\(probe): \(reply.text)")
                #expect(reply.fieldErrors.contains("\(probe.field):control_character"), "\(probe): \(reply.text)")
            }
            // The defect as found: the friend request answered 500.
            let friend = try await client.post(
                "/v1/learners/\(learner.learnerID)/friends", token: learner.token,
                json: ["friendCode": "AB\u{0}CD"])
            #expect(friend.status == 422 && friend.fieldErrors == ["friendCode:control_character"], "\(friend.text)")
            // Other control characters in a name or a code, localized.
            let bell = try await client.patch(
                "/v1/learners/\(learner.learnerID)", token: learner.token,
                json: ["displayName": "Tom\u{7}"])
            #expect(bell.status == 422 && bell.fieldErrors == ["displayName:control_character"])
            let newline = try await client.send(
                .post, "/v1/learners/\(learner.learnerID)/friends", token: learner.token,
                json: ["friendCode": "AB\nCD"], headers: ["Accept-Language": "fr"])
            #expect(newline.status == 422)
            let message = try newline.decoded(Components.Schemas.Problem.self).errors?.first?.message ?? ""
            #expect(message.contains("caractère de contrôle"), "\(newline.text)")
            // Letters from every language, and an emoji, still pass the rule.
            let renamed = try await client.patch(
                "/v1/learners/\(learner.learnerID)", token: learner.token,
                json: ["displayName": "Zoë Weiß-Muñoz"])
            #expect(renamed.status == 200, "\(renamed.text)")
        }
    }

    @Test("the rule and its cheap look at a body agree")
    func rule() {
        for scalar in [0x0, 0x7, 0x9, 0xA, 0xD, 0x1F, 0x7F, 0x80, 0x9F] as [UInt32] {
            let text = "a" + String(Character(Unicode.Scalar(scalar)!)) + "b"
            #expect(!TextInput.isAcceptable(text))
            let json = try! JSONSerialization.data(withJSONObject: ["field": text])
            #expect(TextInput.mayHoldControl(json: Array(json)), "\(scalar)")
            let parsed = try! JSONSerialization.jsonObject(with: json)
            #expect(TextInput.controlledFields(in: parsed) == ["field"])
        }
        for text in ["Zoë", "Weiß", "김민준", "🦊", "\\u0000 as typed", "a\u{A0}b"] {
            #expect(TextInput.isAcceptable(text))
            let parsed = try! JSONSerialization.jsonObject(with: JSONSerialization.data(withJSONObject: ["x": [["y": text]]]))
            #expect(TextInput.controlledFields(in: parsed).isEmpty)
        }
        let nested = try! JSONSerialization.jsonObject(with: Data(#"{"flips": [{"note": "ok"}, {"note": "a\u0000"}], "k\u0001": 1}"#.utf8))
        #expect(TextInput.controlledFields(in: nested) == ["flips[1].note", "k\u{1}"])
    }
}
