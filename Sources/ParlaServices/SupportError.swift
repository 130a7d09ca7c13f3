/// A setting or an operator's input that Parla cannot work with, said
/// plainly to whoever runs it.
package struct SupportError: Error, CustomStringConvertible {
    package var description: String

    package init(description: String) {
        self.description = description
    }
}
