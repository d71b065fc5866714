/// Writes values as JSON text into a byte buffer.
///
/// The writer is iterative: the arrays and objects being written live on an explicit stack
/// rather than on the call stack, so a value nested any number of levels deep is written, or
/// refused, without exhausting the stack.
struct JSONWriter {
    /// The UTF-8 text written so far, `buffer[..<count]`, and zeroed room past it.
    ///
    /// Pieces are copied into the room through an unsafe pointer: a string costs one
    /// capacity check and one `memcpy` instead of a generic `append(contentsOf:)` (about 90
    /// instructions each). ``finish()`` drops the room.
    private var buffer = [UInt8](repeating: 0, count: 256)
    /// How many bytes of `buffer` are written.
    private var count = 0

    private let isPretty: Bool
    private let sortsKeys: Bool
    private let escapesSlashes: Bool

    /// An array or object whose members are being written.
    private struct Frame {
        /// The elements of an array; empty for an object.
        let elements: JSONArray
        /// The keys and values of an object; empty for an array.
        let members: JSONObject
        /// Whether the frame is an object.
        let isObject: Bool
        /// For an object whose keys are written sorted: the positions of its members in key
        /// order.
        let order: [Int]?
        /// How many elements or members have been started.
        var started = 0

        var count: Int { isObject ? members.count : elements.count }
    }

    init(options: JSONWriteOptions) {
        isPretty = options.contains(.prettyPrinted)
        sortsKeys = options.contains(.sortedKeys)
        escapesSlashes = options.contains(.escapingSlashes)
    }

    /// The UTF-8 text written, without the room past it; nothing is written after it.
    mutating func finish() -> [UInt8] {
        buffer.removeSubrange(count...)
        return buffer
    }

    /// What ``start(_:depth:maximumDepth:)`` did with a value.
    private enum Start {
        /// The value is written whole: a scalar, or an empty array or object.
        case written
        /// The opening bracket of a non-empty array or object is written; its members follow.
        case opened(Frame)
        /// The value is an array or object nested too deeply; nothing was written.
        case tooDeep
    }

    /// Writes `value`, or stops at its first array or object nested deeper than
    /// `maximumDepth` levels (the outermost array or object is level 1).
    ///
    /// - Returns: `false` when the value nests too deeply; the output then holds part of it.
    mutating func write(_ value: JSONValue, maximumDepth: Int) -> Bool {
        // The innermost open array or object; `outer` holds the ones around it, outermost first.
        var top: Frame
        switch start(value, depth: 0, maximumDepth: maximumDepth) {
        case .written: return true
        case .tooDeep: return false
        case .opened(let frame): top = frame
        }
        var outer: [Frame] = []
        while true {
            let started = top.started
            guard started < top.count else {
                if isPretty { writeNewline(depth: outer.count) }
                append(top.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                guard let parent = outer.popLast() else { return true }
                top = parent
                continue
            }
            top.started = started + 1
            if started > 0 { append(UInt8(ascii: ",")) }
            if isPretty { writeNewline(depth: outer.count + 1) }
            let member: JSONValue
            if top.isObject {
                let position = top.order?[started] ?? started
                write(top.members.keyAddress(at: position).pointee)
                append(UInt8(ascii: ":"))
                if isPretty { append(UInt8(ascii: " ")) }
                member = top.members.valueAddress(at: position).pointee
            } else {
                member = top.elements[started]
            }
            switch start(member, depth: outer.count + 1, maximumDepth: maximumDepth) {
            case .written:
                continue
            case .tooDeep:
                return false
            case .opened(let frame):
                outer.append(top)
                top = frame
            }
        }
    }

    /// Writes a scalar or an empty array or object whole, or the opening bracket of another
    /// array or object, which is `depth` levels inside the outermost one.
    private mutating func start(_ value: JSONValue, depth: Int, maximumDepth: Int) -> Start {
        switch value {
        case .null:
            writeASCII("null")
        case .bool(let bool):
            writeASCII(bool ? "true" : "false")
        case .int(let int):
            write(int)
        case .double(let double):
            write(double)
        case .string(let string):
            write(string)
        case .array(let elements):
            guard depth < maximumDepth else { return .tooDeep }
            guard !elements.isEmpty else {
                writeASCII("[]")
                return .written
            }
            append(UInt8(ascii: "["))
            return .opened(Frame(elements: elements, members: JSONObject(), isObject: false, order: nil))
        case .object(let object):
            guard depth < maximumDepth else { return .tooDeep }
            guard !object.isEmpty else {
                writeASCII("{}")
                return .written
            }
            append(UInt8(ascii: "{"))
            let order = sortsKeys ? Self.keyOrder(of: object) : nil
            return .opened(Frame(elements: JSONArray(), members: object, isObject: true, order: order))
        }
        return .written
    }

    /// The positions of `members` in ascending order of their keys' code points.
    private static func keyOrder(of members: JSONObject) -> [Int] {
        members.indices.sorted {
            members.keyAddress(at: $0).pointee.utf8.lexicographicallyPrecedes(members.keyAddress(at: $1).pointee.utf8)
        }
    }

    private mutating func writeNewline(depth: Int) {
        append(UInt8(ascii: "\n"))
        for _ in 0..<depth * 2 { append(UInt8(ascii: " ")) }
    }

    private mutating func writeASCII(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    // MARK: - Bytes

    /// Makes room for `extra` more bytes past the text.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if buffer.count - count < extra { grow(toHold: count + extra) }
    }

    /// Grows the buffer to hold at least `size` bytes, at least doubling it.
    @inline(never)
    private mutating func grow(toHold size: Int) {
        buffer.append(contentsOf: repeatElement(0, count: Swift.max(size, buffer.count * 2) - buffer.count))
    }

    /// Calls `body` with the start of the room past the text, which holds at least the
    /// bytes last reserved, and moves the text's end past the number of bytes it returns.
    @inline(__always)
    private mutating func writeIntoRoom(_ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        let start = count
        count += buffer.withUnsafeMutableBufferPointer { body($0.baseAddress.unsafelyUnwrapped + start) }
    }

    private mutating func append(_ byte: UInt8) {
        reserve(1)
        buffer[count] = byte
        count += 1
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        writeIntoRoom { room in
            room.update(from: source, count: bytes.count)
            return bytes.count
        }
    }

    // MARK: - Numbers

    /// Writes an integer in decimal.
    private mutating func write(_ int: Int) {
        // A sign and 19 digits hold any Int.
        reserve(20)
        writeIntoRoom { room in
            var digits = 1
            var rest = int.magnitude / 10
            while rest > 0 {
                digits += 1
                rest /= 10
            }
            let length = int < 0 ? digits + 1 : digits
            if int < 0 { room[0] = UInt8(ascii: "-") }
            var magnitude = int.magnitude
            var index = length
            repeat {
                index -= 1
                room[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            return length
        }
    }

    /// Writes a double: integral values up to 2^53 as integers, others in their shortest round-trip
    /// form, and `NaN` and infinities, which JSON cannot express, as `null`.
    ///
    /// Negative zero is written as `-0.0`, because `-0` reads back as the integer zero.
    private mutating func write(_ double: Double) {
        guard double.isFinite else {
            writeASCII("null")
            return
        }
        if double == 0, double.sign == .minus {
            writeASCII("-0.0")
        } else if double.magnitude <= 9_007_199_254_740_992, let int = Int(exactly: double) {
            write(int)
        } else {
            // `description` is the shortest text that reads back as the same double, and is
            // valid JSON for every finite value (`1e-05`, `1.5e+300`, `0.1`).
            var text = double.description
            text.withUTF8 { append($0) }
        }
    }

    // MARK: - Strings

    /// Writes a quoted, escaped string.
    mutating func write(_ string: String) {
        let written: Void? = string.utf8.withContiguousStorageIfAvailable { writeQuoted($0) }
        if written == nil {
            var contiguous = string
            contiguous.withUTF8 { writeQuoted($0) }
        }
    }

    /// Writes UTF-8 text in quotes: the part before its first byte that needs an escape
    /// (all of it, for most keys and values) in one copy, the rest by ``writeEscaped(_:)``.
    private mutating func writeQuoted(_ text: UnsafeBufferPointer<UInt8>) {
        var plain = 0
        while plain < text.count, !needsEscape(text[plain]) { plain += 1 }
        let isPlain = plain == text.count
        reserve(plain + 2)
        writeIntoRoom { room in
            room[0] = UInt8(ascii: "\"")
            if plain > 0 { (room + 1).update(from: text.baseAddress.unsafelyUnwrapped, count: plain) }
            guard isPlain else { return plain + 1 }
            room[plain + 1] = UInt8(ascii: "\"")
            return plain + 2
        }
        guard !isPlain else { return }
        writeEscaped(UnsafeBufferPointer(rebasing: text[plain...]))
        append(UInt8(ascii: "\""))
    }

    /// Whether `byte` is written escaped: `"`, `\`, a control character and, if asked, `/`.
    @inline(__always)
    private func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            || (byte == UInt8(ascii: "/") && escapesSlashes)
    }

    /// Writes UTF-8 text, escaping `"`, `\`, control characters and, if asked, `/`.
    private mutating func writeEscaped(_ text: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in text.indices {
            let byte = text[index]
            guard needsEscape(byte) else { continue }
            append(UnsafeBufferPointer(rebasing: text[runStart..<index]))
            runStart = index + 1
            append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): append(byte)
            case 0x08: append(UInt8(ascii: "b"))
            case 0x0C: append(UInt8(ascii: "f"))
            case 0x0A: append(UInt8(ascii: "n"))
            case 0x0D: append(UInt8(ascii: "r"))
            case 0x09: append(UInt8(ascii: "t"))
            default:
                let hexDigits: StaticString = "0123456789abcdef"
                writeASCII("u00")
                append(hexDigits.utf8Start[Int(byte >> 4)])
                append(hexDigits.utf8Start[Int(byte & 0x0F)])
            }
        }
        append(UnsafeBufferPointer(rebasing: text[runStart...]))
    }
}
