/// One element of the input of `add`, `set` and `reset`: a model or its attributes.
///
/// Not generic over the collection's model type, so that arrays of inputs are concrete
/// (fast) types; a `.model` input of a `Collection<M>` always holds an `M`.
enum CollectionInput {
    case model(Model)
    case attributes(Attributes)
}

/// The inputs of one `add`, `set` or `reset`, kept as the array the caller gave.
///
/// An input of attributes only or of models only is the caller's own array, which `set`
/// reads in place: wrapping each element as a ``CollectionInput`` copied every attribute
/// map into a new array and again out of it (about 200 instructions per model in a large
/// `add`). A mix of both, which only a collection's initializer and a relation's merge
/// build, is a list of ``CollectionInput``.
enum CollectionInputs {
    /// Attribute maps, one model each.
    case attributes([Attributes])
    /// Models of the collection's model type, as `Model`.
    case models([Model])
    /// Models and attribute maps, in input order.
    case mixed([CollectionInput])

    /// How many inputs there are.
    var count: Int {
        switch self {
        case .attributes(let list): list.count
        case .models(let list): list.count
        case .mixed(let list): list.count
        }
    }

    /// Whether there are no inputs.
    var isEmpty: Bool { count == 0 }

    /// These inputs followed by `other`.
    func appending(_ other: CollectionInputs) -> CollectionInputs {
        if other.isEmpty { return self }
        if isEmpty { return other }
        return .mixed(mixedList + other.mixedList)
    }

    /// The inputs as a list of ``CollectionInput``.
    private var mixedList: [CollectionInput] {
        switch self {
        case .attributes(let list): list.map(CollectionInput.attributes)
        case .models(let list): list.map(CollectionInput.model)
        case .mixed(let list): list
        }
    }
}
