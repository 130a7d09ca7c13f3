import Foundation
import Mustache
import ParlaCore

/// What every page shows around its own part (`head.mustache`,
/// `problems.mustache`).
public struct PageFrame: Sendable {
    public var title: String
    /// A teacher is signed in: the header's sign-out form, with this CSRF token.
    public var signedIn: Bool
    public var csrf: String?
    /// Where the page sends the browser on at once.
    public var refresh: String?
    /// Why the last form was refused, in the visitor's words.
    public var problems: [String]

    public init(title: String, signedIn: Bool = false, csrf: String? = nil, refresh: String? = nil, problems: [String] = []) {
        (self.title, self.signedIn, self.csrf, self.refresh, self.problems) = (title, signedIn, csrf, refresh, problems)
    }
}

/// A page's values, typed: its template names the model's stored
/// properties; `{{#hasItems}}` is true when the model's `items` is not empty.
public protocol PageModel: Sendable {
    /// The template's name (`Templates/<template>.mustache`).
    var template: String { get }
    var frame: PageFrame { get }
}

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

    /// `page`, with the words of `language` under `t`.
    public func render(_ page: some PageModel, language: Language) -> String {
        library.render(PageValues(page: page, language: language), withTemplate: page.template) ?? ""
    }
}

/// How a template finds a name at the page's level: the words (`t`), the
/// language, the frame's values, then the model's.
struct PageValues: MustacheParent {
    let page: any PageModel
    let language: Language

    func child(named name: String) -> Any? {
        switch name {
        case "t": return WebText.texts(language)
        case "lang": return language.code
        default: break
        }
        if let value = Self.property(name, of: page.frame) ?? Self.property(name, of: page) { return value }
        if name.hasPrefix("has"), name.count > 3 {
            let listed = name.dropFirst(3).prefix(1).lowercased() + name.dropFirst(4)
            let items = Self.property(listed, of: page.frame) ?? Self.property(listed, of: page)
            if let items = items as? any Collection { return !items.isEmpty }
        }
        return nil
    }

    /// A stored property's value; nil for none, or for an optional that is nil.
    static func property(_ name: String, of object: Any) -> Any? {
        guard let value = Mirror(reflecting: object).children.first(where: { $0.label == name })?.value else { return nil }
        let optional = Mirror(reflecting: value)
        guard optional.displayStyle == .optional else { return value }
        return optional.children.first?.value
    }
}
