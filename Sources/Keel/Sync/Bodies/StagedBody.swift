import Foundation

/// A request body written to a temporary file.
///
/// `URLSession` uploads from a file by streaming it, and reports progress. Whoever creates one removes it when the request ends.
struct StagedBody: Sendable {
    /// The temporary file.
    let file: URL
    /// The body's `Content-Type`.
    let contentType: String

    /// The body's size in bytes.
    var length: Int64 {
        let size = try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber
        return size?.int64Value ?? 0
    }

    /// Creates an empty temporary file.
    ///
    /// - Throws: ``SyncError/transport(_:)`` when it cannot be created.
    static func create(contentType: String, contents: Data = Data()) throws(SyncError) -> StagedBody {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("keel-upload-\(UUID().uuidString)", isDirectory: false)
        guard FileManager.default.createFile(atPath: file.path, contents: contents) else {
            throw .transport("cannot create a temporary file for the request body at \(file.path)")
        }
        return StagedBody(file: file, contentType: contentType)
    }

    /// Deletes the temporary file.
    func remove() {
        try? FileManager.default.removeItem(at: file)
    }
}
