/// The MIME type of a file from its name's extension, for the common types of uploads, and the
/// syntax every MIME type sent must have.
enum MIMEType {
    /// Sent when the extension is unknown or missing.
    static let fallback = "application/octet-stream"

    /// The type for `filename`'s extension, case-insensitively; ``fallback`` for others.
    static func guess(forFilename filename: String) -> String {
        guard let dot = filename.lastIndex(of: "."), dot != filename.startIndex else { return fallback }
        let suffix = filename[filename.index(after: dot)...].lowercased()
        return byExtension[suffix] ?? fallback
    }

    private static let byExtension: [String: String] = [
        "avif": "image/avif", "bmp": "image/bmp", "gif": "image/gif", "heic": "image/heic", "heif": "image/heif",
        "ico": "image/vnd.microsoft.icon", "jpeg": "image/jpeg", "jpg": "image/jpeg", "png": "image/png",
        "svg": "image/svg+xml", "tif": "image/tiff", "tiff": "image/tiff", "webp": "image/webp",
        "aac": "audio/aac", "flac": "audio/flac", "m4a": "audio/mp4", "mp3": "audio/mpeg", "oga": "audio/ogg",
        "ogg": "audio/ogg", "opus": "audio/opus", "wav": "audio/wav", "weba": "audio/webm",
        "avi": "video/x-msvideo", "m4v": "video/mp4", "mov": "video/quicktime", "mp4": "video/mp4",
        "mpeg": "video/mpeg", "ogv": "video/ogg", "webm": "video/webm",
        "csv": "text/csv", "css": "text/css", "htm": "text/html", "html": "text/html", "ics": "text/calendar",
        "js": "text/javascript", "md": "text/markdown", "txt": "text/plain", "vcf": "text/vcard",
        "json": "application/json", "pdf": "application/pdf", "rtf": "application/rtf", "xml": "application/xml",
        "doc": "application/msword", "xls": "application/vnd.ms-excel", "ppt": "application/vnd.ms-powerpoint",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt": "application/vnd.oasis.opendocument.text", "epub": "application/epub+zip",
        "gz": "application/gzip", "tar": "application/x-tar", "zip": "application/zip",
        "7z": "application/x-7z-compressed",
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
    ]
}

// MARK: - Syntax

extension MIMEType {
    /// Throws ``SyncError/invalidMIMEType(_:reason:)`` unless `text` is a media type.
    static func validate(_ text: String) throws(SyncError) {
        if let problem = problem(in: text) { throw .invalidMIMEType(text, reason: problem) }
    }

    /// Throws ``SyncError/invalidMIMEType(_:reason:)`` for the first file of `form` whose MIME
    /// type is not a media type.
    static func validate(_ form: MultipartForm) throws(SyncError) {
        for case .file(_, let file) in form.parts { try validate(file.mimeType) }
    }

    /// Why `text` is not a media type (RFC 9110 §8.3.1, with RFC 2045's and RFC 6838's `type`
    /// and `subtype`), or `nil` when it is one: `type/subtype`, each a token, then any number
    /// of `; name=value` parameters whose value is a token or a quoted string.
    ///
    /// A type is written into a part header as it is, so anything else (a line break above
    /// all, which would start a header or the content of the caller's choosing) is refused.
    static func problem(in text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        var position = 0
        var next: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        func token(_ what: String) -> String? {
            let start = position
            while let scalar = next, HTTPHeaderSyntax.isTokenCharacter(scalar) { position += 1 }
            guard position == start else { return nil }
            guard let scalar = next else { return "\(what) is empty" }
            return "\(what) has \(HTTPHeaderSyntax.describe(scalar)) where a token character is needed"
        }

        func quotedString() -> String? {
            position += 1
            while let scalar = next {
                position += 1
                switch scalar {
                case "\"": return nil
                case "\\":
                    guard let escaped = next, escaped == "\t" || (0x20...0x7E).contains(escaped.value) else {
                        return "a quoted parameter value has a backslash that escapes nothing it may escape"
                    }
                    position += 1
                case "\t", " ", "!", "#"..."[", "]"..."~": continue
                default:
                    return "a quoted parameter value has \(HTTPHeaderSyntax.describe(scalar))"
                }
            }
            return "a quoted parameter value is not closed"
        }

        func skipWhitespace() {
            while next == " " || next == "\t" { position += 1 }
        }

        if let problem = token("the type") { return problem }
        guard next == "/" else {
            return next.map { "the type is followed by \(HTTPHeaderSyntax.describe($0)) instead of \"/\"" }
                ?? "there is no \"/\" and subtype after the type"
        }
        position += 1
        if let problem = token("the subtype") { return problem }
        while true {
            skipWhitespace()
            guard let separator = next else { return nil }
            guard separator == ";" else {
                return "\(HTTPHeaderSyntax.describe(separator)) follows the subtype where only "
                    + "parameters (\"; name=value\") may"
            }
            position += 1
            skipWhitespace()
            if next == nil || next == ";" { continue }
            if let problem = token("a parameter name") { return problem }
            guard next == "=" else { return "a parameter has no \"=\" and value" }
            position += 1
            if next == "\"" {
                if let problem = quotedString() { return problem }
            } else if let problem = token("a parameter value") {
                return problem
            }
        }
    }
}
