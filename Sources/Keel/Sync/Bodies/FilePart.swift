public import Foundation

/// A file to send in a multipart form: bytes in memory, or a file on disk that is streamed
/// and never loaded whole, with the file name and MIME type the server receives.
///
/// ```swift
/// let avatar = FilePart.file(URL(filePath: "/tmp/me.png"))  // me.png, image/png
/// let report = FilePart.data(Data("a,b\n".utf8), filename: "report.csv")  // text/csv
/// try await user.save(files: ["avatar": avatar])
/// ```
///
/// Without a MIME type, one is chosen from the file name's extension (`png`, `jpg`, `pdf`,
/// `csv`, `json`, `txt`, `mp4`, …), and `application/octet-stream` for any other.
public struct FilePart: Sendable, Hashable {
    /// Where the bytes come from.
    public enum Source: Sendable, Hashable {
        /// Bytes in memory.
        case data(Data)
        /// A local file, read in chunks when the request is sent.
        case file(URL)
    }

    /// Where the bytes come from.
    public var source: Source
    /// The file name sent in the part's `Content-Disposition` (what Rails'
    /// `original_filename` and Django's `UploadedFile.name` report).
    public var filename: String
    /// The part's `Content-Type`.
    ///
    /// It must be a media type: `type/subtype`, each an RFC 9110 token, then any
    /// `; name=value` parameters whose value is a token or a quoted string
    /// (`text/plain; charset="utf-8"`). Anything else, such as a line break, which would add
    /// part headers or replace the file's content, makes the call throw
    /// ``SyncError/invalidMIMEType(_:reason:)`` before anything is sent.
    public var mimeType: String

    /// Creates a file part.
    ///
    /// ```swift
    /// let part = FilePart(source: .data(bytes), filename: "scan.pdf", mimeType: "application/pdf")
    /// ```
    ///
    /// - Parameters:
    ///   - source: Where the bytes come from.
    ///   - filename: The file name the server receives.
    ///   - mimeType: The part's content type; `nil` to choose one from the file name.
    public init(source: Source, filename: String, mimeType: String? = nil) {
        self.source = source
        self.filename = filename
        self.mimeType = mimeType ?? MIMEType.guess(forFilename: filename)
    }

    /// A file on disk, streamed when the request is sent.
    ///
    /// The file is read only then: a missing or unreadable one makes the call throw
    /// ``SyncError/unreadableFile(_:reason:)`` before anything is sent.
    ///
    /// ```swift
    /// let part = FilePart.file(URL(filePath: "/tmp/photo.jpg"), mimeType: "image/jpeg")
    /// ```
    ///
    /// - Parameters:
    ///   - url: The file's URL.
    ///   - filename: The name the server receives; `nil` for the file's own name.
    ///   - mimeType: The content type; `nil` to choose one from the file name.
    /// - Returns: The part.
    public static func file(_ url: URL, filename: String? = nil, mimeType: String? = nil) -> FilePart {
        FilePart(source: .file(url), filename: filename ?? url.lastPathComponent, mimeType: mimeType)
    }

    /// Bytes in memory, sent as a file.
    ///
    /// ```swift
    /// let part = FilePart.data(Data("hello".utf8), filename: "hello.txt")
    /// ```
    ///
    /// - Parameters:
    ///   - data: The bytes.
    ///   - filename: The name the server receives.
    ///   - mimeType: The content type; `nil` to choose one from the file name.
    /// - Returns: The part.
    public static func data(_ data: Data, filename: String, mimeType: String? = nil) -> FilePart {
        FilePart(source: .data(data), filename: filename, mimeType: mimeType)
    }
}
