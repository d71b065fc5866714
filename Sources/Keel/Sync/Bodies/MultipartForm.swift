/// A `multipart/form-data` body (RFC 7578): text fields and files, in order.
///
/// ```swift
/// var form = MultipartForm()
/// form.append("user[name]", "Ann")
/// form.append("user[avatar]", file: .file(URL(filePath: "/tmp/ann.png")))
/// var options = SyncOptions()
/// options.requestBody = .multipart(form)
/// ```
///
/// ``RESTSync`` writes the form to a temporary file, copying files in chunks, and uploads
/// that file, so a large file never sits in memory; the temporary file is deleted when the
/// request ends, however it ends. The boundary is random and checked not to occur in any
/// part. Field names and file names are escaped as browsers escape them (a `"` as `%22`, a
/// line break as `%0D` or `%0A`); other characters, also non-ASCII ones, go as UTF-8.
public struct MultipartForm: Sendable, Hashable {
    /// One part of a form.
    public enum Part: Sendable, Hashable {
        /// A text field.
        case field(name: String, value: String)
        /// A file.
        case file(name: String, FilePart)

        /// The field name.
        ///
        /// ```swift
        /// MultipartForm.Part.field(name: "title", value: "Hi").name  // "title"
        /// ```
        public var name: String {
            switch self {
            case .field(let name, _), .file(let name, _): return name
            }
        }
    }

    /// The parts, in the order they are sent.
    public var parts: [Part]

    /// Creates a form.
    ///
    /// ```swift
    /// let form = MultipartForm([.field(name: "title", value: "Scan"), .file(name: "scan", .data(pdf, filename: "scan.pdf"))])
    /// ```
    ///
    /// - Parameter parts: The parts, in order.
    public init(_ parts: [Part] = []) {
        self.parts = parts
    }

    /// Creates a form of the fields of a JSON value in a notation, followed by files.
    ///
    /// ```swift
    /// let form = MultipartForm(fields: ["user": ["name": "Ann"]], notation: .brackets, files: [("user[avatar]", avatar)])
    /// ```
    ///
    /// - Parameters:
    ///   - fields: The values to send as text fields (see ``FormNotation/fields(for:)``).
    ///   - notation: How nested values are named.
    ///   - files: Field names and files.
    public init(fields: JSONValue, notation: FormNotation = .brackets, files: [(name: String, file: FilePart)] = []) {
        parts = notation.fields(for: fields).map { Part.field(name: $0.name, value: $0.value) }
        parts += files.map { Part.file(name: $0.name, $0.file) }
    }

    /// Appends a text field.
    ///
    /// ```swift
    /// form.append("title", "Holiday")
    /// ```
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The text.
    public mutating func append(_ name: String, _ value: String) {
        parts.append(.field(name: name, value: value))
    }

    /// Appends a file.
    ///
    /// ```swift
    /// form.append("photo", file: .file(photoURL))
    /// ```
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - file: The file.
    public mutating func append(_ name: String, file: FilePart) {
        parts.append(.file(name: name, file))
    }
}
