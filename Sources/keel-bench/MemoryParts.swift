#if canImport(Glibc)
    import Glibc
#endif
import Keel

/// The `memory-parts` run: the heap bytes of one `Note` of `construct`, part by part
/// (Benchmarks/README.md, "One registrar per model").
///
///     MEMORY_PARTS=1 keel-bench
///
/// Each part is built 200,000 times and held to the end of the run; its bytes are the growth
/// of the main heap (its top, `sbrk(0)`: malloc's chunk sizes, headers included) divided by
/// the count. The list that holds the parts is larger than malloc's mapping threshold, so it
/// lies outside that heap. The parts:
///
/// - `note`: a `Note` of `construct` after the check's observed read (`note["rank"]`), which
///   creates its Observation registrar;
/// - `note_unread`: the same `Note` without the read, so without a registrar;
/// - `attributes`: a note's eight attributes alone, its `tags` and `author` shared;
/// - `tags`: the array `["a", "b"]`; `author`: the object `{name, id}`.
///
/// The model object is `note_unread` less the other three; the registrar is `note` less
/// `note_unread`. Prints one line per part and then one JSON object. Linux only (glibc's
/// main heap); elsewhere it prints nothing and exits with status 2.
struct MemoryParts {
    /// How many of each part are held while measuring.
    static let count = 200_000

    /// The run the environment asks for, or `nil` without `MEMORY_PARTS`.
    init?(environment: [String: String]) {
        guard environment["MEMORY_PARTS"] != nil else { return nil }
    }

    /// Measures the parts and prints the report; returns the exit status.
    func runBlocking() -> Int32 {
        #if canImport(Glibc)
            var held: [Any] = []
            let note = Self.bytesEach(holdingIn: &held) { i in
                let note = Note(noteAttributes(i))
                _ = note["rank"]
                return note
            }
            let unread = Self.bytesEach(holdingIn: &held) { i in Note(noteAttributes(i)) }
            let template = Note(noteAttributes(0)).attributes
            let attributes = Self.bytesEach(holdingIn: &held) { i -> Attributes in
                var copy = template
                copy["rank"] = .int(i)
                return copy
            }
            let tags = Self.bytesEach(holdingIn: &held) { i -> JSONValue in ["a", .string(i < 0 ? "" : "b")] }
            let author = Self.bytesEach(holdingIn: &held) { i -> JSONValue in ["name": "x", "id": .int(i < 0 ? 0 : 3)] }
            let parts: [(String, Double)] = [
                ("model_object", unread - attributes - tags - author),
                ("attributes", attributes),
                ("tags", tags),
                ("author", author),
                ("registrar", note - unread),
                ("note", note),
            ]
            var report = JSONObject()
            for (name, bytes) in parts {
                print("\(name) \(Int(bytes.rounded()))")
                report["\(name)_bytes"] = .int(Int(bytes.rounded()))
            }
            print((try? JSONValue.object(report).jsonString()) ?? "{}")
            return 0
        #else
            log("MEMORY_PARTS needs glibc's mallinfo2")
            return 2
        #endif
    }

    #if canImport(Glibc)
        /// The heap bytes per value that `make` builds, over ``count`` values held at once.
        ///
        /// The values are appended to `held`, so that the next part does not reuse their memory.
        private static func bytesEach<Value>(holdingIn held: inout [Any], _ make: (Int) -> Value) -> Double {
            var values: [Value] = []
            values.reserveCapacity(count)
            let before = Int(bitPattern: sbrk(0))
            for i in 0..<count { values.append(make(i)) }
            let after = Int(bitPattern: sbrk(0))
            held.append(values)
            return Double(after - before) / Double(count)
        }
    #endif
}
