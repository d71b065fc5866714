import Foundation
import KeelSQLite

/// Words a store that cannot be opened as one sentence that names the file once, with no
/// system message a person cannot act on.
enum StoreOpenFailure {
    /// The error for a store that failed to open.
    ///
    /// - Parameters:
    ///   - error: Why the store did not open.
    ///   - file: The store's file.
    ///   - what: What the file is, for the message.
    ///   - writing: Whether the command would change the store.
    static func error(
        _ error: SQLiteStoreError,
        file: URL,
        what: String = "the todo store",
        writing: Bool = true
    ) -> TodosError {
        let path = file.path
        switch error {
        case .readOnly:
            return .backend("cannot \(writing ? "change" : "open") \(what) \(path): it is read-only")
        case .cannotOpen(_, let message) where message.hasPrefix("cannot create its directory"):
            return .backend("cannot create the folder of \(what) \(path): \(folderProblem(file))")
        case .cannotOpen(_, let message):
            return .backend("cannot open \(what) \(path): \(message)")
        case .permissionDenied(let denied, let message) where denied == path:
            return .backend("cannot open \(what) \(path): \(message)")
        case .permissionDenied(let denied, let message):
            return .backend("cannot open \(what) \(path): \(message) (\(denied))")
        default:
            let reason = error.description
            let sentence = reason.prefix(1).lowercased() + reason.dropFirst()
            return .backend(
                reason.contains(path) ? "cannot open \(what): \(sentence)" : "cannot open \(what) \(path): \(sentence)"
            )
        }
    }

    /// Why the folders on the way to `file` cannot be created: a file in the way, or no
    /// permission.
    private static func folderProblem(_ file: URL) -> String {
        var current = file.deletingLastPathComponent()
        while current.path != "/", !FileManager.default.fileExists(atPath: current.path) {
            current = current.deletingLastPathComponent()
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: current.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            return "\(current.path) is a file, not a folder"
        }
        return "\(current.path) does not let new folders be made in it"
    }
}
