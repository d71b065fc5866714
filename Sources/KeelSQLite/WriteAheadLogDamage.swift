/// Damage in a write-ahead log that would make SQLite silently drop committed transactions.
///
/// When SQLite opens a database whose log was not checkpointed, it replays the log's frames
/// from the start while each one is valid (its salts match the header's, its page number is
/// not zero, and its checksum continues the chain) and keeps everything up to the last
/// commit frame of that valid run. The first invalid frame ends the replay: frames after it
/// are ignored, and the next checkpoint makes that permanent. A log whose header is invalid
/// is ignored entirely.
///
/// That is right after a crash, whose damage is confined to the end of the log, and wrong
/// after damage in the middle of the log. The rule that tells them apart:
///
/// - An **intact frame** carries the log's salts, a non-zero page number, and a checksum
///   that verifies when seeded with the checksum stored in the frame just before it (or in
///   the header, for frame 1). That local check needs no valid prefix, so it also finds
///   intact frames after damage.
/// - A commit is **acknowledged** when an intact frame follows its commit frame. SQLite
///   (with `synchronous=FULL`, as Keel sets it) writes the next transaction's frames only
///   after the commit has been synced, so a crash or a power cut cannot damage a frame
///   before such a commit. Damage confined to the last transaction looks exactly like a
///   commit cut short by a power failure, which SQLite rightly drops; Keel leaves it alone.
/// - The log is **damaged** when replay stops before the end of the file (or the header is
///   invalid), an acknowledged commit follows the stop, and the database SQLite would show
///   differs from the one the intact frames describe: some page written by the frames SQLite
///   drops, up to the last intact commit, has other content than SQLite would read for it
///   (from the replayed frames, else from the database file).
///
/// So a torn or uncommitted tail, frames left from an earlier pass through the file (their
/// salts differ), and a damaged log whose frames were all checkpointed already (nothing is
/// lost) are not damage.
struct WriteAheadLogDamage: Equatable, Sendable, CustomStringConvertible {
    /// The first frame SQLite would not replay; 0 when the log header is damaged.
    let frame: Int
    /// How many commits SQLite would drop (the intact commit frames after the damage).
    let droppedCommits: Int

    /// A phrase for error messages, such as "SQLite would stop replaying it at frame 17 and
    /// drop the 12 committed transactions after that".
    var description: String {
        let transactions = droppedCommits == 1 ? "transaction" : "transactions"
        if frame == 0 {
            return
                "SQLite would ignore its damaged header and drop the \(droppedCommits) committed \(transactions) in it"
        }
        return "SQLite would stop replaying it at frame \(frame) and drop the \(droppedCommits) committed "
            + "\(transactions) after that"
    }
}

extension WriteAheadLog {
    /// Checks the log against ``WriteAheadLogDamage``'s rule.
    ///
    /// - Parameters:
    ///   - databasePageSize: The page size in the database file's header, used when the log
    ///     header is damaged; `nil` when the file has no valid header.
    ///   - databasePage: Reads a page (numbered from 1) of the database file; `nil` past its
    ///     end.
    /// - Returns: The damage, or `nil` when the rule finds none.
    /// - Complexity: O(*n*) in the size of the log.
    func damage(
        databasePageSize: Int?,
        databasePage: (UInt32, Int) -> [UInt8]?
    ) -> WriteAheadLogDamage? {
        guard let header, bytes.count > Self.headerSize else { return nil }
        if header.isValid {
            let chain = Chain(
                log: self,
                salts: header.salts,
                bigEndian: header.bigEndianChecksums,
                pageSize: header.pageSize
            )
            let count = frameCount(pageSize: chain.pageSize)
            var lastCommit = 0
            var stop = 1
            while stop <= count && chain.isIntact(stop) {
                if frame(stop, pageSize: chain.pageSize).isCommit { lastCommit = stop }
                stop += 1
            }
            guard stop <= count else { return nil }
            let dropped = chain.droppedCommits(stop: stop, replayedThrough: lastCommit, databasePage: databasePage)
            return dropped.map { WriteAheadLogDamage(frame: stop, droppedCommits: $0) }
        }
        // SQLite ignores the whole log. Its page size must be the database's; its salts are
        // those of the first intact frame: the log restarts at frame 1, so frames of
        // earlier passes can only come after the current pass's.
        guard let pageSize = databasePageSize ?? (Self.isPageSize(header.pageSize) ? header.pageSize : nil) else {
            return nil
        }
        let count = frameCount(pageSize: pageSize)
        guard count > 0 else { return nil }
        for bigEndian in [header.bigEndianChecksums, !header.bigEndianChecksums] {
            let first = (1...count).first { index in
                let salts = frame(index, pageSize: pageSize).salts
                return Chain(log: self, salts: salts, bigEndian: bigEndian, pageSize: pageSize).isIntact(index)
            }
            guard let first else { continue }
            let chain = Chain(
                log: self,
                salts: frame(first, pageSize: pageSize).salts,
                bigEndian: bigEndian,
                pageSize: pageSize
            )
            if let dropped = chain.droppedCommits(stop: 1, replayedThrough: 0, databasePage: databasePage) {
                return WriteAheadLogDamage(frame: 0, droppedCommits: dropped)
            }
        }
        return nil
    }
}

/// The frames of one pass through the log: those with its salts.
private struct Chain {
    let log: WriteAheadLog
    let salts: UInt64
    let bigEndian: Bool
    let pageSize: Int

    /// Whether frame `index` is intact: the pass's salts, a page number, and a checksum that
    /// continues the one stored just before it.
    func isIntact(_ index: Int) -> Bool {
        let frame = log.frame(index, pageSize: pageSize)
        guard frame.salts == salts, frame.pageNumber != 0 else { return false }
        let seed =
            index == 1
            ? log.header?.checksum ?? .zero : log.frame(index - 1, pageSize: pageSize).checksum
        return log.expectedChecksum(of: index, pageSize: pageSize, bigEndian: bigEndian, seed: seed) == frame.checksum
    }

    /// How many commits SQLite drops when replay stops at frame `stop` having
    /// kept frames up to `replayedThrough`, or `nil` when it loses nothing.
    func droppedCommits(stop: Int, replayedThrough replayed: Int, databasePage: (UInt32, Int) -> [UInt8]?) -> Int? {
        let count = log.frameCount(pageSize: pageSize)
        let intactAfterStop = (stop...count).filter(isIntact)
        let commits = intactAfterStop.filter { log.frame($0, pageSize: pageSize).isCommit }
        // Only an acknowledged commit proves the damage is not a crash's.
        guard let lastIntact = intactAfterStop.last, let lastCommit = commits.last,
            commits.contains(where: { $0 < lastIntact })
        else { return nil }

        // Page number -> the frame with the page's latest content: what SQLite shows, and
        // what the intact frames up to the last commit say.
        var shown: [UInt32: Int] = [:]
        for index in 1..<(replayed + 1) { shown[log.frame(index, pageSize: pageSize).pageNumber] = index }
        var written = shown
        let dropped = Array((replayed + 1)..<stop) + intactAfterStop.filter { $0 <= lastCommit }
        for index in dropped { written[log.frame(index, pageSize: pageSize).pageNumber] = index }

        for index in dropped {
            let pageNumber = log.frame(index, pageSize: pageSize).pageNumber
            guard let latest = written[pageNumber], latest == index else { continue }
            let expected = log.page(latest, pageSize: pageSize)
            let differs: Bool
            if let shownFrame = shown[pageNumber] {
                differs = !log.page(shownFrame, pageSize: pageSize).elementsEqual(expected)
            } else {
                differs = databasePage(pageNumber, pageSize).map { !$0.elementsEqual(expected) } ?? true
            }
            if differs { return commits.count }
        }
        return nil
    }
}
