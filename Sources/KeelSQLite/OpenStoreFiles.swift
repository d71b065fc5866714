import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The store files this process has open through Keel, by device and inode, so that a
/// second store opened on the same file does not open and close a descriptor of its own
/// on it.
///
/// POSIX advisory locks belong to the process and the file: closing *any* descriptor of the
/// file drops every lock the process holds on it, those of SQLite's open connections
/// included. SQLite then no longer holds the shared lock that tells another process's
/// closing connection it is not the last one, and that process checkpoints and deletes the
/// write-ahead log under this process's connections ("How To Corrupt An SQLite Database
/// File", section 2.2). ``WriteAheadLogGuard`` reads the database file before SQLite opens
/// it, so it runs only while the process has no connection to the file.
enum OpenStoreFiles {
    /// A file's identity, whatever path names it.
    struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    private static let openCounts = Mutex<[Identity: Int]>([:])

    /// The identity of the file at `path`, or `nil` when there is none.
    static func identity(of path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Whether a connection of this process has the file at `path` open.
    static func isOpen(_ path: String) -> Bool {
        guard let identity = identity(of: path) else { return false }
        return openCounts.withLock { $0[identity, default: 0] > 0 }
    }

    /// Records a connection just opened on the file at `path`.
    ///
    /// - Returns: The identity to give ``closed(_:)`` when the connection closes.
    static func opened(_ path: String) -> Identity? {
        guard let identity = identity(of: path) else { return nil }
        openCounts.withLock { $0[identity, default: 0] += 1 }
        return identity
    }

    /// Records that a connection recorded by ``opened(_:)`` closed.
    static func closed(_ identity: Identity) {
        openCounts.withLock { counts in
            let remaining = counts[identity, default: 1] - 1
            counts[identity] = remaining > 0 ? remaining : nil
        }
    }
}
