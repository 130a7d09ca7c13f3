package import Foundation

/// The OpenAPI document itself, served verbatim at `/openapi.yaml`.
package enum APIDocument {
    package static func yaml() throws -> Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try Data(contentsOf: url)
    }
}
