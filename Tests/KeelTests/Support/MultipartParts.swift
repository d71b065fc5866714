import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One part of a recorded `multipart/form-data` body.
struct RecordedPart: Equatable {
    /// The raw `Content-Disposition` header value.
    var disposition: String
    /// The `Content-Type` header value, if any.
    var contentType: String?
    /// The part's bytes.
    var body: Data

    /// The `name` parameter, as sent (escapes kept).
    var name: String? { parameter("name") }
    /// The `filename` parameter, as sent (escapes kept).
    var filename: String? { parameter("filename") }
    /// The body as UTF-8 text.
    var text: String { String(decoding: body, as: UTF8.self) }

    private func parameter(_ key: String) -> String? {
        guard let range = disposition.range(of: "; \(key)=\"") else { return nil }
        let rest = disposition[range.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}

extension URLRequest {
    /// The boundary of a multipart request's `Content-Type`.
    var multipartBoundary: String? {
        guard let type = value(forHTTPHeaderField: "Content-Type"), type.hasPrefix("multipart/form-data; boundary=")
        else { return nil }
        return String(type.dropFirst("multipart/form-data; boundary=".count))
    }

    /// The parts of a multipart body, or `nil` when the body does not follow RFC 7578's
    /// framing with the request's boundary.
    var recordedParts: [RecordedPart]? {
        guard let boundary = multipartBoundary, let body = httpBody else { return nil }
        return MultipartParts.parse(body, boundary: boundary)
    }
}

/// A strict reader of `multipart/form-data` bodies for tests.
enum MultipartParts {
    static func parse(_ body: Data, boundary: String) -> [RecordedPart]? {
        let delimiter = Data("--\(boundary)".utf8)
        let crlf = Data("\r\n".utf8)
        guard body.starts(with: delimiter), body.suffix(delimiter.count + 4) == delimiter + Data("--\r\n".utf8)
        else { return nil }
        var parts: [RecordedPart] = []
        var position = body.startIndex + delimiter.count
        while body[position..<position + 2] == crlf {
            let start = position + 2
            guard let next = body.range(of: crlf + delimiter, in: start..<body.endIndex) else { return nil }
            let raw = body[start..<next.lowerBound]
            guard let split = raw.range(of: crlf + crlf) else { return nil }
            let headerText = String(decoding: raw[raw.startIndex..<split.lowerBound], as: UTF8.self)
            var disposition = ""
            var contentType: String?
            for line in headerText.components(separatedBy: "\r\n") {
                if line.hasPrefix("Content-Disposition: ") {
                    disposition = String(line.dropFirst("Content-Disposition: ".count))
                } else if line.hasPrefix("Content-Type: ") {
                    contentType = String(line.dropFirst("Content-Type: ".count))
                } else {
                    return nil
                }
            }
            parts.append(
                RecordedPart(disposition: disposition, contentType: contentType, body: Data(raw[split.upperBound...]))
            )
            position = next.upperBound
        }
        return parts
    }
}

/// Files for upload tests, in a directory of their own that goes away with the value.
final class UploadFixtures: Sendable {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("keel-upload-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A file of `size` pseudo-random bytes (from `seed`), written in chunks.
    func file(named name: String, size: Int, seed: UInt64 = 1) throws -> URL {
        let url = directory.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var state = seed
        var written = 0
        while written < size {
            let count = min(256 * 1024, size - written)
            let words = (0..<(count + 7) / 8).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return state
            }
            try handle.write(contentsOf: words.withUnsafeBytes { Data($0.prefix(count)) })
            written += count
        }
        return url
    }

    /// The SHA-256 of a file in hex, from Python's hashlib (which the test servers need anyway).
    static func sha256(of file: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import hashlib, sys\ndigest = hashlib.sha256()\nwith open(sys.argv[1], 'rb') as f:\n"
                + "    for chunk in iter(lambda: f.read(1 << 20), b''): digest.update(chunk)\nprint(digest.hexdigest())",
            file.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
