/// A collection's models by id.
///
/// Integer ids (and floating-point ids with an integer value, which equal them) go to an
/// ``IntKeyedModels``, where dense ids cost an array index instead of a hash; other ids
/// go to a dictionary.
///
/// Not copyable, as its ``IntKeyedModels`` is not.
struct ModelIDIndex: ~Copyable {
    private var integers = IntKeyedModels()
    private var others: [JSONValue: Model] = [:]

    /// The integer an id stands for, when it is one.
    private static func integer(_ id: JSONValue) -> Int? {
        switch id {
        case .int(let int): return int
        case .double(let double): return Int(exactly: double)
        default: return nil
        }
    }

    subscript(id: JSONValue) -> Model? {
        if let integer = Self.integer(id) { return integers[integer] }
        return others.isEmpty ? nil : others[id]
    }

    /// The model whose id is this integer: inlined into `Collection.get(_:)`.
    subscript(integer integer: Int) -> Model? {
        @inline(__always) get { integers[integer] }
    }

    /// Makes room for `capacity` models with integer ids.
    mutating func reserveCapacity(_ capacity: Int) {
        integers.reserveCapacity(capacity)
    }

    /// Indexes `model` under `id`, replacing any model there.
    mutating func insert(_ model: Model, forID id: JSONValue) {
        if let integer = Self.integer(id) {
            integers.insert(model, forKey: integer)
        } else {
            others[id] = model
        }
    }

    /// Indexes `model` under the integer id `integer`, replacing any model there.
    @inline(__always)
    mutating func insert(_ model: Model, forInteger integer: Int) {
        integers.insert(model, forKey: integer)
    }

    /// Removes the model under `id`, only if it is `model`.
    mutating func remove(_ model: Model, forID id: JSONValue) {
        if let integer = Self.integer(id) {
            integers.remove(model, forKey: integer)
        } else if let index = others.index(forKey: id), others.values[index] === model {
            others.remove(at: index)
        }
    }

    /// Removes the model under the integer id `integer`, only if it is `model`.
    @inline(__always)
    mutating func remove(_ model: Model, forInteger integer: Int) {
        integers.remove(model, forKey: integer)
    }

    mutating func removeAll() {
        integers.removeAll()
        others = [:]
    }
}
