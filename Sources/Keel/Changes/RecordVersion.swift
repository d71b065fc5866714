import Foundation

/// Compares the versions of a record: whole numbers by value (`lock_version`), timestamps
/// by time (`updated_at`, whatever their fractional digits), anything else as text.
///
/// ```swift
/// RecordVersion.isNewer("2026-05-01T12:00:00.5Z", than: "2026-05-01T12:00:00.25Z")  // true
/// RecordVersion.isNewer("10", than: "9")                                             // true
/// ```
public enum RecordVersion {
    /// Whether `version` comes after `applied`: a change with it should be applied over a
    /// record at `applied`.
    ///
    /// A missing version on either side counts as newer, so a server that sends none has
    /// every change applied.
    ///
    /// ```swift
    /// RecordVersion.isNewer("3", than: "3")  // false: the same change again
    /// ```
    ///
    /// - Parameters:
    ///   - version: The incoming change's version.
    ///   - applied: The version already applied.
    /// - Returns: `true` when the change is to be applied.
    public static func isNewer(_ version: String?, than applied: String?) -> Bool {
        guard let version, let applied else { return true }
        if let new = Int(version), let old = Int(applied) { return new > old }
        if let new = ISO8601Timestamp.date(from: version), let old = ISO8601Timestamp.date(from: applied) {
            return new > old
        }
        return version > applied
    }
}
