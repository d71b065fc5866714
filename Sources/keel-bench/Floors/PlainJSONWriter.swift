/// The floors' JSON writer: the compact JSON text of a ``PlainValue``.
///
/// Object keys come in the dictionary's order. Doubles are written with Swift's shortest
/// representation, which is valid JSON for the finite values the floors use.
enum PlainJSONWriter {
    /// The JSON text of `value`.
    static func text(of value: PlainValue) -> String {
        var output = ""
        append(value, to: &output)
        return output
    }

    private static func append(_ value: PlainValue, to output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let bool): output += bool ? "true" : "false"
        case .int(let int): output += String(int)
        case .double(let double): output += String(double)
        case .string(let string): append(string, to: &output)
        case .array(let elements):
            output += "["
            for (position, element) in elements.enumerated() {
                if position > 0 { output += "," }
                append(element, to: &output)
            }
            output += "]"
        case .object(let object):
            output += "{"
            var first = true
            for (key, member) in object {
                if !first { output += "," }
                first = false
                append(key, to: &output)
                output += ":"
                append(member, to: &output)
            }
            output += "}"
        }
    }

    private static func append(_ string: String, to output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
