/// The MIME type of a file from its name's extension, for the common types of uploads.
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
