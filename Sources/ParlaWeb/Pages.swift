import Foundation
import Mustache
import ParlaCore

/// The dashboard's pages (`Templates/*.mustache`), rendered on the server:
/// HTML escaped by default; charts come as SVG made by `Charts`.
public struct DashboardPages: Sendable {
    let library: MustacheLibrary

    public init() async throws {
        guard let directory = Bundle.module.resourceURL?.appendingPathComponent("Templates").path else {
            throw CocoaError(.fileNoSuchFile)
        }
        library = try await MustacheLibrary(directory: directory)
    }

    /// `page` with `values`, the words of `language` under `t`.
    public func render(_ page: String, _ values: [String: Any], language: Language) -> String {
        var context = values
        context["t"] = WebText.texts(language)
        context["lang"] = language.code
        context["hasProblems"] = (values["problems"] as? [String])?.isEmpty == false
        return library.render(context, withTemplate: page) ?? ""
    }
}
