extension JSONAPIReader {
    /// Where a resource object or a resource identifier sits in the document, spelled only for
    /// the error that names it.
    ///
    /// A few plain words on the reader's stack, with the place around it by address. The
    /// reader used to pass closures that spelled the path, and the optimizer made a copy of
    /// the recursion through ``JSONAPIReader`` for each closure it met (607 functions, 2.2 MB
    /// of a release build), so that an article and its author ran through different copies.
    struct Place {
        /// One step of a key path.
        enum Step {
            /// A single-resource document's `data`.
            case data
            /// The resource at this position of a list document's `data`.
            case dataElement(Int)
            /// The resource at this position of `included`.
            case included(Int)
            /// The `data` of a relationship of the resource at the parent place, or the
            /// identifier at `member` of a to-many one. The relation and the owner's format
            /// outlive the read of the place; the name is spelled from them for an error only.
            case linkage(Unmanaged<Linkable>, format: Unmanaged<FormatReading>, member: Int?)
        }

        /// The last step.
        let step: Step
        /// The place of the resource the relationship belongs to, for a ``Step/linkage(_:format:member:)``.
        let parent: UnsafePointer<Place>?

        init(_ step: Step, in parent: UnsafePointer<Place>? = nil) {
            self.step = step
            self.parent = parent
        }

        /// The key path, such as `data[3].relationships.author.data`.
        var keyPath: String {
            switch step {
            case .data: return "data"
            case .dataElement(let position): return "data[\(position)]"
            case .included(let position): return "included[\(position)]"
            case .linkage(let linkable, let format, let member):
                let owner = parent?.pointee.keyPath ?? ""
                let name = format.takeUnretainedValue().wireName(for: linkable.takeUnretainedValue().key)
                guard let member else { return "\(owner).relationships.\(name).data" }
                return "\(owner).relationships.\(name).data[\(member)]"
            }
        }
    }
}
