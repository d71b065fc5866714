import Keel

/// The order a local answer's `sort` or `ordering` parameter asks for (`-title,id`): by each
/// key in turn, `-` for descending, stably, records without a value for a key (or with
/// `null`) after those with one.
struct LocalSort {
    /// The keys, first to last.
    var keys: [(name: String, isDescending: Bool)] = []

    /// The keys of a parameter's value, such as `-title,id`.
    init(parsing value: String) {
        keys = value.split(separator: ",").map { field in
            let isDescending = field.hasPrefix("-")
            return (String(isDescending ? field.dropFirst() : field), isDescending)
        }
    }

    /// No keys: the stored order.
    init() {}

    /// `records` in this order, each key's value read by `value`.
    func sorted(_ records: [JSONObject], value: (String, JSONObject) -> JSONValue?) -> [JSONObject] {
        guard !keys.isEmpty else { return records }
        return records.enumerated().sorted { first, second in
            for key in keys {
                let a = value(key.name, first.element).flatMap { $0.isNull ? nil : $0 }
                let b = value(key.name, second.element).flatMap { $0.isNull ? nil : $0 }
                switch (a, b) {
                case (let a?, let b?):
                    if JSONValue.sortsBefore(a, b) { return !key.isDescending }
                    if JSONValue.sortsBefore(b, a) { return key.isDescending }
                case (.some, .none): return true
                case (.none, .some): return false
                case (.none, .none): break
                }
            }
            return first.offset < second.offset
        }.map(\.element)
    }
}
