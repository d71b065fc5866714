/// A link that embeds a model and keeps its owner's attribute in step with it (``OneLink``).
protocol DependentLink: AnyObject {
    /// The link's position in the ``DependentLinks`` of the model it embeds.
    var dependentIndex: Int { get set }
    /// Called when the embedded model fires `change`.
    func relatedModelDidChange()
}

/// The links that embed one model (the posts that belong to one author), told of its `change`
/// events by one handler registered on it, shared by all of them.
///
/// A handler per link cost each link a closure, a handler, a weak reference to the link and a
/// slot in the model's handler list: a tenth of building a post with its author through an
/// identity map. The links are told in the order they were added, as their handlers ran; a
/// link added while the model's `change` is being dispatched is not told of that one (as a
/// handler added during a trigger does not run), and one removed meanwhile is not told.
///
/// The list holds its links unretained: a link removes itself when it lets go of the model
/// and when it is deallocated. If the app removes the shared handler (`off()` on the model),
/// the links added until then are not told any more, as their own handlers would have been
/// removed; links added later get a new list and handler.
final class DependentLinks {
    /// A link, or nothing where one was removed during a dispatch.
    private struct Slot {
        unowned(unsafe) var link: (any DependentLink)?
    }

    // The list's state opts out of run-time exclusivity checks: no access to it stays open
    // across a call into a link (they ran on every link added, removed and told).

    @exclusivity(unchecked) private var slots: [Slot] = []
    /// How many dispatches are running: removals leave empty slots until the last one ends,
    /// so that the positions they iterate by stay put.
    @exclusivity(unchecked) private var dispatchDepth = 0
    @exclusivity(unchecked) private var hasEmptySlots = false
    /// The handler registered on the model for `change`.
    private(set) var handler: EventHandler?

    /// The list of `model`'s dependent links, made and registered on its first link, and
    /// again if the app removed the handler.
    static func of(_ model: Model) -> DependentLinks {
        if let links = model.storedExtras?.dependentLinks, links.isRegistered(on: model) { return links }
        let links = DependentLinks()
        let handler = EventHandler(
            id: EventEmitter.makeUniqueID(),
            name: "change",
            callback: { [unowned links] _ in links.dispatch() },
            owner: nil,
            isOnce: false
        )
        links.handler = handler
        model.add(handler, named: "change", in: model.state)
        model.extras.dependentLinks = links
        return links
    }

    /// Whether the shared handler is still registered on `model`.
    private func isRegistered(on model: Model) -> Bool {
        guard let handler else { return false }
        let state = model.state
        guard let position = EventEmitter.position(of: "change", in: &state.handlers) else { return false }
        return state.handlers.value(at: position).contains { $0 === handler }
    }

    /// Adds a link at the end.
    func add(_ link: any DependentLink) {
        link.dependentIndex = slots.count
        slots.append(Slot(link: link))
    }

    /// Removes the link at `index` (its ``DependentLink/dependentIndex``).
    func remove(at index: Int) {
        guard index < slots.count else { return }
        if dispatchDepth > 0 {
            slots[index].link = nil
            hasEmptySlots = true
            return
        }
        let last = slots.removeLast()
        if index < slots.count {
            slots[index] = last
            last.link?.dependentIndex = index
        }
    }

    /// Tells each link present when the dispatch starts, in order.
    private func dispatch() {
        dispatchDepth += 1
        let end = slots.count
        var index = 0
        while index < end {
            // Retained for the call: the link's update may release its owner, and with it the link.
            if let link = slots[index].link { link.relatedModelDidChange() }
            index += 1
        }
        dispatchDepth -= 1
        if dispatchDepth == 0 && hasEmptySlots { compact() }
    }

    /// Drops the empty slots left by removals during dispatches.
    private func compact() {
        slots.removeAll { $0.link == nil }
        for index in slots.indices { slots[index].link?.dependentIndex = index }
        hasEmptySlots = false
    }
}
