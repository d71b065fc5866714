import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes a multipart form to a temporary file: files are copied in fixed-size chunks, so a
/// form of any size takes about one chunk of memory.
///
/// A boundary found inside a part (the odds are 2⁻¹⁴³ per try) starts the file again with a
/// new one.
enum MultipartEncoder {
    /// The size of the chunks in which files are copied.
    static let chunkSize = 64 * 1024

    /// Writes `form` to a new temporary file.
    ///
    /// - Throws: ``SyncError/invalidMIMEType(_:reason:)`` for a file part whose MIME type is
    ///   not a media type, and ``SyncError/unreadableFile(_:reason:)`` for one that cannot be
    ///   read (both checked before anything is written); ``SyncError/transport(_:)`` when the
    ///   temporary file cannot be written.
    static func encode(_ form: MultipartForm) throws(SyncError) -> StagedBody {
        try MIMEType.validate(form)
        let sources = try openFiles(of: form)
        defer { for handle in sources.values { try? handle.close() } }
        for _ in 0..<4 {
            let boundary = makeBoundary()
            let staged = try StagedBody.create(contentType: "multipart/form-data; boundary=\(boundary)")
            do {
                let output = try FileHandle(forWritingTo: staged.file)
                defer { try? output.close() }
                if try write(form, boundary: boundary, sources: sources, to: output) {
                    return staged
                }
            } catch let error as SyncError {
                staged.remove()
                throw error
            } catch {
                staged.remove()
                throw .transport("cannot write the request body to \(staged.file.path): \(error)")
            }
            staged.remove()
        }
        throw .transport("no multipart boundary was found that is absent from the form's data")
    }

    /// Opens every file part (by index) for reading.
    private static func openFiles(of form: MultipartForm) throws(SyncError) -> [Int: FileHandle] {
        var handles: [Int: FileHandle] = [:]
        for (index, part) in form.parts.enumerated() {
            guard case .file(_, let file) = part, case .file(let url) = file.source else { continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                for handle in handles.values { try? handle.close() }
                throw .unreadableFile(url, reason: "no such file")
            }
            guard !isDirectory.boolValue else {
                for handle in handles.values { try? handle.close() }
                throw .unreadableFile(url, reason: "it is a directory")
            }
            do {
                handles[index] = try FileHandle(forReadingFrom: url)
            } catch {
                for handle in handles.values { try? handle.close() }
                throw .unreadableFile(url, reason: (error as NSError).localizedDescription)
            }
        }
        return handles
    }

    /// Writes the parts and the closing boundary; `false` when the boundary occurs in a part.
    private static func write(
        _ form: MultipartForm,
        boundary: String,
        sources: [Int: FileHandle],
        to output: FileHandle
    ) throws -> Bool {
        let delimiter = Data("--\(boundary)".utf8)
        for (index, part) in form.parts.enumerated() {
            var header = delimiter
            header.append(contentsOf: "\r\nContent-Disposition: form-data; name=\"\(escape(part.name))\"".utf8)
            switch part {
            case .field(_, let value):
                header.append(contentsOf: "\r\n\r\n".utf8)
                let content = Data(value.utf8)
                if contains(delimiter, in: content) { return false }
                try output.write(contentsOf: header)
                try output.write(contentsOf: content)
            case .file(_, let file):
                header.append(contentsOf: "; filename=\"\(escape(file.filename))\"".utf8)
                header.append(contentsOf: "\r\nContent-Type: \(file.mimeType)\r\n\r\n".utf8)
                try output.write(contentsOf: header)
                switch file.source {
                case .data(let data):
                    if contains(delimiter, in: data) { return false }
                    try output.write(contentsOf: data)
                case .file(let url):
                    guard let source = sources[index] else { return false }
                    try source.seek(toOffset: 0)
                    guard try copy(source, from: url, to: output, avoiding: delimiter) else { return false }
                }
            }
            try output.write(contentsOf: Data("\r\n".utf8))
        }
        try output.write(contentsOf: delimiter + Data("--\r\n".utf8))
        return true
    }

    /// Copies a file in chunks; `false` when `delimiter` occurs in it (also across chunks).
    private static func copy(
        _ source: FileHandle,
        from url: URL,
        to output: FileHandle,
        avoiding delimiter: Data
    ) throws(SyncError) -> Bool {
        var tail = Data()
        while true {
            let chunk: Data
            do {
                guard let read = try source.read(upToCount: chunkSize), !read.isEmpty else { return true }
                chunk = read
            } catch {
                throw .unreadableFile(url, reason: (error as NSError).localizedDescription)
            }
            if contains(delimiter, in: tail + chunk.prefix(delimiter.count)) || contains(delimiter, in: chunk) {
                return false
            }
            tail = chunk.suffix(delimiter.count - 1)
            do {
                try output.write(contentsOf: chunk)
            } catch {
                throw .transport("cannot write the request body: \(error)")
            }
        }
    }

    /// Whether `needle` occurs in `haystack`.
    private static func contains(_ needle: Data, in haystack: Data) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { pin in
                guard let hayStart = hay.baseAddress, let pinStart = pin.baseAddress else { return false }
                let first = Int32(pin[0])
                var offset = 0
                let last = hay.count - pin.count
                // memchr finds candidates for the first byte fast; memcmp checks the rest.
                while offset <= last, let hit = memchr(hayStart + offset, first, last - offset + 1) {
                    if memcmp(hit, pinStart, pin.count) == 0 { return true }
                    offset = hayStart.distance(to: UnsafeRawPointer(hit)) + 1
                }
                return false
            }
        }
    }

    /// A name or file name in a quoted header parameter, escaped as browsers escape it
    /// (HTML's multipart/form-data encoding algorithm).
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "%22"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// `----KeelFormBoundary` and 24 random letters and digits, as browsers form theirs.
    static func makeBoundary() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return "----KeelFormBoundary"
            + String((0..<24).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}
