public import Foundation

extension Model {
    /// The collection URL used when the model is not in a collection, such as `"/notes"`:
    /// the class's `urlRoot` until this model's is assigned (assigning `nil` hides the
    /// class's).
    ///
    /// ```swift
    /// let note = Model(["id": 1])
    /// note.urlRoot = "/notes"
    /// try note.url()  // "/notes/1"
    /// ```
    public var urlRoot: String? {
        get { storedExtras?.urlRoot ?? type(of: self).urlRoot }
        set { extras.urlRoot = .some(newValue) }
    }

    /// This model's own base URL (ISModel's `setBaseUrl:`); it wins over the collection's and
    /// the class's.
    ///
    /// ```swift
    /// note.baseURL = URL(string: "https://staging.example.com")
    /// ```
    public var baseURL: URL? {
        get { storedExtras?.baseURL }
        set { extras.baseURL = newValue }
    }

    /// This model's own backend; it wins over the collection's and the class's.
    ///
    /// ```swift
    /// note.sync = InMemorySync()
    /// ```
    public var sync: (any Sync)? {
        get { storedExtras?.sync }
        set { extras.sync = newValue }
    }

    /// The base URL in effect: the model's own, else its collection's (or, once that
    /// collection is released, the one it had), else the class's.
    ///
    /// `nil` leaves relative URLs for the backend to resolve (``RESTSync`` uses its own
    /// base URL).
    ///
    /// > Note: ISModel asks the collection's base URL before the model's own. Keel asks the
    /// > model first, in the same order as ``resolvedSync``, so that a base URL assigned to a
    /// > model always takes effect and a model's backend and base URL come from the same place.
    ///
    /// ```swift
    /// note.resolvedBaseURL
    /// ```
    public var resolvedBaseURL: URL? {
        baseURL ?? collectionBaseURL ?? Self.baseURL
    }

    /// The backend in effect: the model's own, else its collection's (or, once that
    /// collection is released, the one it had), else the class's, else the shared store's
    /// (``Store/shared``).
    ///
    /// ```swift
    /// let backend = note.resolvedSync
    /// ```
    public var resolvedSync: (any Sync)? {
        sync ?? collectionSync ?? Self.sync ?? Store.sharedSync
    }

    /// The wire format of one call: the call's, else the collection's, else the class's, with
    /// the call's ``SyncOptions/bodyParameters`` over its own.
    func wireFormat(for options: SyncOptions) -> WireFormat {
        var format = options.wireFormat ?? collectionWireFormat ?? Self.wireFormat
        if !options.bodyParameters.isEmpty {
            format.bodyParameters = format.bodyParameters.merging(options.bodyParameters)
        }
        return format
    }

    /// The collection's URL, base URL and backend; after the collection is released, the
    /// ones it had, so a model created by a collection can still sync on its own.
    var collectionContext: CollectionSyncContext? {
        if let collection { return CollectionSyncContext(collection) }
        return releasedCollectionContext
    }

    // The four parts of ``collectionContext`` that a save asks for one at a time, each read
    // alone: building the whole context for each (its URL, base URL, backend and format) was
    // about 2.4 k instructions of every create.

    /// The URL of ``collectionContext``.
    var collectionURL: String? {
        if let collection { return collection.url }
        return releasedCollectionContext?.url
    }

    /// The base URL of ``collectionContext``.
    var collectionBaseURL: URL? {
        if let collection { return collection.baseURL }
        return releasedCollectionContext?.baseURL
    }

    /// The backend of ``collectionContext``.
    var collectionSync: (any Sync)? {
        if let collection { return collection.sync }
        return releasedCollectionContext?.sync
    }

    /// The wire format of ``collectionContext``.
    var collectionWireFormat: WireFormat? {
        if let collection { return collection.wireFormat }
        return releasedCollectionContext?.wireFormat
    }

    /// What the first released collection the model belonged to gave it for syncing: the
    /// copy the model keeps, else what the forwarder of its released ``collection`` keeps.
    var releasedCollectionContext: CollectionSyncContext? {
        if let kept = storedExtras?.releasedCollection { return kept.context }
        return collectionForwarder?.releasedCollection?.context
    }

    /// Keeps a released collection's URL, base URL and backend for syncing, unless this
    /// model already kept an earlier collection's.
    func keepSyncContext(of released: ReleasedCollection) {
        guard storedExtras?.releasedCollection == nil else { return }
        extras.releasedCollection = released
    }

    /// Makes the collection of `forwarder` the model's ``collection``; what the released
    /// collection it replaces kept for the model's syncing (through its forwarder) is kept by
    /// the model first.
    func setCollectionForwarder(_ forwarder: EventHandler) {
        if let released = collectionForwarder?.releasedCollection { keepSyncContext(of: released) }
        collectionForwarder = forwarder
    }

    /// The full URL for one operation: the options' URL, else the per-operation URL, else
    /// the call's named route, else the class's route for the method, else ``url()``,
    /// resolved against ``resolvedBaseURL``.
    ///
    /// ```swift
    /// let target = try note.requestURL(for: .update)
    /// ```
    ///
    /// - Parameters:
    ///   - method: The operation.
    ///   - options: Options whose ``SyncOptions/url`` wins over everything else.
    /// - Returns: An absolute URL when a base URL is known, else a relative one.
    /// - Throws: ``SyncError/missingURL(_:)`` when no URL can be found or built;
    ///   ``SyncError/unsafePathSegment(_:)`` when the id is empty, `.` or `..`;
    ///   ``SyncError/missingRouteParameter(_:route:)`` when a route lacks a value.
    public func requestURL(for method: SyncMethod, options: SyncOptions = SyncOptions()) throws(SyncError) -> URL {
        try requestTarget(for: method, options: options).url
    }
}

/// Joining, encoding and resolving URL paths the way ISModel and Backbone do.
package enum URLPath {
    /// Characters that JavaScript's `encodeURIComponent` leaves alone.
    private static let componentAllowed = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()"
    )

    /// The path segment that addresses the record with this id: the id percent-encoded.
    ///
    /// An id that encodes to an empty, `.` or `..` segment is refused: joined to its
    /// collection's URL it would address the collection or its parent (`/notes/..` is `/`
    /// once `URLSession` removes the dot segments), and percent-encoding the dots does not
    /// help, since RFC 3986 lets servers decode `%2E` back to `.`.
    ///
    /// - Throws: ``SyncError/unsafePathSegment(_:)``.
    package static func recordSegment(for id: JSONValue) throws(SyncError) -> String {
        // An integer's digits are never empty nor a dot segment.
        if case .int(let int) = id { return decimalText(int) }
        let segment = encodeComponent(id)
        if segment.isEmpty || isDotSegment(segment) { throw .unsafePathSegment(segment) }
        return segment
    }

    /// Whether a percent-encoded path segment is `.` or `..`, in any mix of literal and
    /// percent-encoded dots.
    package static func isDotSegment(_ segment: some StringProtocol) -> Bool {
        // Such a segment is 1 to 6 bytes (`%2E%2E`) and starts with `.` or `%`: any other is
        // answered without lower-casing and decoding it (about 8 k instructions).
        let bytes = segment.utf8
        guard let first = bytes.first, first == UInt8(ascii: ".") || first == UInt8(ascii: "%"),
            bytes.count <= 6
        else { return false }
        let decoded = segment.lowercased().replacingOccurrences(of: "%2e", with: ".")
        return decoded == "." || decoded == ".."
    }

    /// Whether a URL reference is absolute: it starts with an RFC 3986 scheme
    /// (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`) followed by `:`.
    ///
    /// Only the text before the first `/`, `?` or `#` counts, so `/search?next=http://x` is
    /// relative.
    package static func hasScheme(_ reference: String) -> Bool {
        var bytes = reference.utf8.makeIterator()
        guard let first = bytes.next(), isLetter(first) else { return false }
        while let byte = bytes.next() {
            if byte == UInt8(ascii: ":") { return true }
            guard isLetter(byte) || isDigit(byte) || "+-.".utf8.contains(byte) else { return false }
        }
        return false
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Percent-encodes an id for use as one path segment.
    package static func encodeComponent(_ id: JSONValue) -> String {
        let text: String
        switch id {
        case .string(let string): text = string
        // Digits and a minus sign need no encoding: an integer id skips the check below.
        case .int(let int): return decimalText(int)
        case .double(let double): text = Int(exactly: double).map(String.init) ?? String(double)
        default: text = id.description
        }
        // Most ids need no encoding; Foundation's encoder copies through an NSString even then.
        if text.utf8.allSatisfy(isComponentByte) { return text }
        return text.addingPercentEncoding(withAllowedCharacters: componentAllowed) ?? text
    }

    /// `String(value)`, written digit by digit into the new string (`description` goes
    /// through a generic formatter).
    package static func decimalText(_ value: Int) -> String {
        let count = decimalLength(value)
        // Exactly as long as the text, so that a short one is a small string, not an allocation.
        return String(unsafeUninitializedCapacity: count) { buffer in
            writeDecimal(value, into: buffer, endingAt: count)
            return count
        }
    }

    /// How many bytes `String(value)` has: its digits and a minus sign.
    @inline(__always)
    static func decimalLength(_ value: Int) -> Int {
        var digits = 1
        var rest = value.magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        return digits + (value < 0 ? 1 : 0)
    }

    /// Writes `String(value)` into `buffer` so that it ends just before `end`
    /// (``decimalLength(_:)`` bytes).
    @inline(__always)
    static func writeDecimal(_ value: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, endingAt end: Int) {
        var magnitude = value.magnitude
        var index = end
        repeat {
            index -= 1
            buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        if value < 0 { buffer[index - 1] = UInt8(ascii: "-") }
    }

    /// Whether `encodeURIComponent` leaves this UTF-8 byte alone (``componentAllowed``).
    private static func isComponentByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || "-_.!~*'()".utf8.contains(byte)
    }

    /// `join(base, recordSegment(for: id))`: an integer id's digits are written after the base
    /// (and a `/`) into one new string, without a string of their own (about 190 instructions
    /// of every save and destroy).
    ///
    /// - Throws: ``SyncError/unsafePathSegment(_:)`` when the id is empty, `.` or `..`.
    package static func recordPath(_ base: String, id: JSONValue) throws(SyncError) -> String {
        guard case .int(let int) = id else { return join(base, try recordSegment(for: id)) }
        var base = base
        return base.withUTF8 { head in
            // The digits never start with a `/`: one goes between unless the base ends with it.
            let slash = head.last != UInt8(ascii: "/")
            let count = head.count + (slash ? 1 : 0) + decimalLength(int)
            return String(unsafeUninitializedCapacity: count) { buffer in
                let written = buffer.initialize(fromContentsOf: head)
                if slash { buffer[written] = UInt8(ascii: "/") }
                writeDecimal(int, into: buffer, endingAt: count)
                return count
            }
        }
    }

    /// Joins two parts with exactly one `/` between them.
    package static func join(_ base: String, _ component: String) -> String {
        switch (endsWithSlash(base), startsWithSlash(component)) {
        case (true, true): concatenate(base, component, slash: false, droppingFirstByte: true)
        case (false, false): concatenate(base, component, slash: true, droppingFirstByte: false)
        default: concatenate(base, component, slash: false, droppingFirstByte: false)
        }
    }

    /// `base`, a `/` if asked, and `component` (without its first byte, a `/`, if asked),
    /// written into one new string: adding the parts one by one grew the string twice.
    private static func concatenate(
        _ base: String,
        _ component: String,
        slash: Bool,
        droppingFirstByte: Bool
    ) -> String {
        var base = base
        var component = component
        return base.withUTF8 { head in
            component.withUTF8 { whole in
                let tail = UnsafeBufferPointer(rebasing: whole[(droppingFirstByte ? 1 : 0)...])
                let count = head.count + (slash ? 1 : 0) + tail.count
                return String(unsafeUninitializedCapacity: count) { buffer in
                    var written = buffer.initialize(fromContentsOf: head)
                    if slash {
                        buffer[written] = UInt8(ascii: "/")
                        written += 1
                    }
                    written += UnsafeMutableBufferPointer(rebasing: buffer[written...]).initialize(fromContentsOf: tail)
                    return written
                }
            }
        }
    }

    /// Whether `text.hasSuffix("/")`, read from the last bytes.
    ///
    /// A `/` after an ASCII byte (or alone) is a character of its own, and a text whose last
    /// byte is not `/` cannot end with one. Only a `/` after a non-ASCII character, which a
    /// `Prepend` character could take into its own cluster, is left to `hasSuffix`, which
    /// compares characters (and costs ten times more).
    private static func endsWithSlash(_ text: String) -> Bool {
        let bytes = text.utf8
        guard let last = bytes.last, last == UInt8(ascii: "/") else { return false }
        guard bytes.count > 1 else { return true }
        let before = bytes[bytes.index(bytes.endIndex, offsetBy: -2)]
        return before < 0x80 ? true : text.hasSuffix("/")
    }

    /// Whether `text.hasPrefix("/")`, read from the first bytes.
    ///
    /// A `/` before an ASCII byte (or alone) is a character of its own. A `/` before a
    /// non-ASCII scalar, which may combine with it, is left to `hasPrefix`.
    private static func startsWithSlash(_ text: String) -> Bool {
        let bytes = text.utf8
        guard let first = bytes.first, first == UInt8(ascii: "/") else { return false }
        guard bytes.count > 1 else { return true }
        let after = bytes[bytes.index(after: bytes.startIndex)]
        return after < 0x80 ? true : text.hasPrefix("/")
    }

    /// Resolves a path against a base URL by joining them; a URL with a scheme stays as it
    /// is (see ``hasScheme(_:)``).
    package static func resolve(_ path: String, against base: URL?) throws(SyncError) -> URL {
        let joined = hasScheme(path) ? path : base.map { join($0.absoluteString, path) } ?? path
        guard let url = URL(string: joined) else { throw .missingURL("\(joined) is not a valid URL") }
        return url
    }
}
