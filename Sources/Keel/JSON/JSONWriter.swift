/// Writes values as JSON text into a byte buffer.
struct JSONWriter {
    /// The UTF-8 text written so far.
    private(set) var output: [UInt8] = []

    private let isPretty: Bool
    private let sortsKeys: Bool
    private let escapesSlashes: Bool

    init(options: JSONWriteOptions) {
        isPretty = options.contains(.prettyPrinted)
        sortsKeys = options.contains(.sortedKeys)
        escapesSlashes = options.contains(.escapingSlashes)
        output.reserveCapacity(256)
    }

    /// Writes `value`, nested `depth` levels deep.
    mutating func write(_ value: JSONValue, depth: Int = 0) {
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
        case .array(let array):
            write(array, depth: depth)
        case .object(let object):
            write(object, depth: depth)
        }
    }

    /// Writes an array.
    mutating func write(_ array: [JSONValue], depth: Int) {
        guard !array.isEmpty else {
            writeASCII("[]")
            return
        }
        output.append(UInt8(ascii: "["))
        for (index, element) in array.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            if isPretty { writeNewline(depth: depth + 1) }
            write(element, depth: depth + 1)
        }
        if isPretty { writeNewline(depth: depth) }
        output.append(UInt8(ascii: "]"))
    }

    /// Writes an object, its keys sorted when the options ask for it.
    mutating func write(_ object: JSONObject, depth: Int) {
        guard !object.isEmpty else {
            writeASCII("{}")
            return
        }
        output.append(UInt8(ascii: "{"))
        if sortsKeys {
            let sorted = object.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, member) in sorted.enumerated() {
                write(member: member, first: index == 0, depth: depth)
            }
        } else {
            for (index, member) in object.enumerated() {
                write(member: member, first: index == 0, depth: depth)
            }
        }
        if isPretty { writeNewline(depth: depth) }
        output.append(UInt8(ascii: "}"))
    }

    private mutating func write(member: JSONObject.Element, first: Bool, depth: Int) {
        if !first { output.append(UInt8(ascii: ",")) }
        if isPretty { writeNewline(depth: depth + 1) }
        write(member.key)
        output.append(UInt8(ascii: ":"))
        if isPretty { output.append(UInt8(ascii: " ")) }
        write(member.value, depth: depth + 1)
    }

    private mutating func writeNewline(depth: Int) {
        output.append(UInt8(ascii: "\n"))
        for _ in 0..<depth * 2 { output.append(UInt8(ascii: " ")) }
    }

    private mutating func writeASCII(_ text: StaticString) {
        output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    // MARK: - Numbers

    /// Writes an integer in decimal.
    private mutating func write(_ int: Int) {
        if int < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = int.magnitude
        // 20 digits hold any UInt64.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Writes a double: integral values up to 2^53 as integers, others in their shortest
    /// round-trip form, and `NaN` and infinities, which JSON cannot express, as `null`.
    private mutating func write(_ double: Double) {
        guard double.isFinite else {
            writeASCII("null")
            return
        }
        if double.magnitude <= 9_007_199_254_740_992, let int = Int(exactly: double) {
            write(int)
        } else {
            // `description` is the shortest text that reads back as the same double, and is
            // valid JSON for every finite value (`1e-05`, `1.5e+300`, `0.1`).
            output.append(contentsOf: double.description.utf8)
        }
    }

    // MARK: - Strings

    /// Writes a quoted, escaped string.
    mutating func write(_ string: String) {
        output.append(UInt8(ascii: "\""))
        let written: Void? = string.utf8.withContiguousStorageIfAvailable { writeEscaped($0) }
        if written == nil {
            var contiguous = string
            contiguous.withUTF8 { writeEscaped($0) }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Writes UTF-8 text, escaping `"`, `\`, control characters and, if asked, `/`.
    private mutating func writeEscaped(_ text: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in text.indices {
            let byte = text[index]
            guard
                byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
                    || (byte == UInt8(ascii: "/") && escapesSlashes)
            else { continue }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<index]))
            runStart = index + 1
            output.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(byte)
            case 0x08: output.append(UInt8(ascii: "b"))
            case 0x0C: output.append(UInt8(ascii: "f"))
            case 0x0A: output.append(UInt8(ascii: "n"))
            case 0x0D: output.append(UInt8(ascii: "r"))
            case 0x09: output.append(UInt8(ascii: "t"))
            default:
                let hexDigits: StaticString = "0123456789abcdef"
                writeASCII("u00")
                output.append(hexDigits.utf8Start[Int(byte >> 4)])
                output.append(hexDigits.utf8Start[Int(byte & 0x0F)])
            }
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart...]))
    }
}
