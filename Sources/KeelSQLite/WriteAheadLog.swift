/// The bytes of a SQLite write-ahead log (`-wal` file), decoded as the file format
/// describes (https://www.sqlite.org/fileformat2.html#walformat).
///
/// The log is a 32-byte header followed by frames: a 24-byte frame header and one database
/// page each. All integers are big-endian. Each frame carries a checksum that continues the
/// one before it (the header's for the first frame), so a frame's checksum can be verified
/// from the checksum stored in the frame just before it, whether or not that frame is intact.
struct WriteAheadLog {
    static let headerSize = 32
    static let frameHeaderSize = 24
    private static let magic: UInt32 = 0x377F_0682
    private static let version: UInt32 = 3_007_000

    /// The two running sums of the checksum algorithm.
    struct Checksum: Equatable {
        var first: UInt32
        var second: UInt32

        static let zero = Checksum(first: 0, second: 0)
    }

    /// The log header, as SQLite's recovery validates it.
    struct Header {
        /// Whether the checksums read 32-bit words big-endian (the magic number's low bit).
        let bigEndianChecksums: Bool
        let pageSize: Int
        /// Salt-1 and salt-2: they change each time the log restarts, so frames left from an
        /// earlier pass through the file carry other salts.
        let salts: UInt64
        let checksum: Checksum
        /// Whether SQLite would use the log: a known magic number, a valid page size and a header
        /// checksum that matches.
        ///
        /// SQLite ignores the whole log otherwise.
        let isValid: Bool
    }

    /// One frame's header; the page follows it.
    struct Frame {
        let pageNumber: UInt32
        /// The database size in pages after a commit; non-zero only in a transaction's last
        /// frame, the commit frame.
        let commitSize: UInt32
        let salts: UInt64
        let checksum: Checksum

        var isCommit: Bool { commitSize != 0 }
    }

    let bytes: [UInt8]

    /// The header, or `nil` when the file is too short to hold one (SQLite then ignores it).
    var header: Header? {
        guard bytes.count >= Self.headerSize else { return nil }
        let magic = word(at: 0)
        let pageSize = Int(word(at: 8))
        let bigEndian = magic & 1 == 1
        let stored = Checksum(first: word(at: 24), second: word(at: 28))
        let computed = checksum(of: 0..<24, bigEndian: bigEndian, seed: .zero)
        let isValid =
            magic & 0xFFFF_FFFE == Self.magic && Self.isPageSize(pageSize) && computed == stored
            && word(at: 4) == Self.version
        return Header(
            bigEndianChecksums: bigEndian,
            pageSize: pageSize,
            salts: doubleWord(at: 16),
            checksum: stored,
            isValid: isValid
        )
    }

    /// Whether `size` is a page size SQLite accepts: a power of two from 512 to 65536.
    static func isPageSize(_ size: Int) -> Bool {
        size >= 512 && size <= 65_536 && size & (size - 1) == 0
    }

    /// How many whole frames the file holds; SQLite ignores a partial frame at the end.
    func frameCount(pageSize: Int) -> Int {
        max(0, (bytes.count - Self.headerSize) / (Self.frameHeaderSize + pageSize))
    }

    /// Frame `index` (1-based, as in SQLite), which must be below ``frameCount(pageSize:)``.
    func frame(_ index: Int, pageSize: Int) -> Frame {
        let offset = frameOffset(index, pageSize: pageSize)
        return Frame(
            pageNumber: word(at: offset),
            commitSize: word(at: offset + 4),
            salts: doubleWord(at: offset + 8),
            checksum: Checksum(first: word(at: offset + 16), second: word(at: offset + 20))
        )
    }

    /// The page a frame carries.
    func page(_ index: Int, pageSize: Int) -> ArraySlice<UInt8> {
        let start = frameOffset(index, pageSize: pageSize) + Self.frameHeaderSize
        return bytes[start..<(start + pageSize)]
    }

    /// The checksum a frame should store when the running checksum before it is `seed`:
    /// the sums continued over the first 8 bytes of its header and over its page.
    func expectedChecksum(of index: Int, pageSize: Int, bigEndian: Bool, seed: Checksum) -> Checksum {
        let offset = frameOffset(index, pageSize: pageSize)
        let afterHeader = checksum(of: offset..<(offset + 8), bigEndian: bigEndian, seed: seed)
        let pageStart = offset + Self.frameHeaderSize
        return checksum(of: pageStart..<(pageStart + pageSize), bigEndian: bigEndian, seed: afterHeader)
    }

    private func frameOffset(_ index: Int, pageSize: Int) -> Int {
        Self.headerSize + (index - 1) * (Self.frameHeaderSize + pageSize)
    }

    /// SQLite's checksum: over pairs of 32-bit words `x0, x1`, `s0 += x0 + s1; s1 += x1 + s0`.
    private func checksum(of range: Range<Int>, bigEndian: Bool, seed: Checksum) -> Checksum {
        var first = seed.first
        var second = seed.second
        bytes.withUnsafeBytes { buffer in
            var offset = range.lowerBound
            while offset < range.upperBound {
                let x0 = buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                let x1 = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                first &+= (bigEndian ? UInt32(bigEndian: x0) : UInt32(littleEndian: x0)) &+ second
                second &+= (bigEndian ? UInt32(bigEndian: x1) : UInt32(littleEndian: x1)) &+ first
                offset += 8
            }
        }
        return Checksum(first: first, second: second)
    }

    private func word(at offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private func doubleWord(at offset: Int) -> UInt64 {
        UInt64(word(at: offset)) << 32 | UInt64(word(at: offset + 4))
    }
}
