/// The links that embed one model (the posts that belong to one author), told of its `change`
/// events at one place among its handlers, shared by all of them.
///
/// The place is the marker (``EventHandler/changeMarker``), added to the model's `change`
/// handlers with the first link: one entry shared by every model, without a closure, so that
/// following a model a map built costs no handler of its own and no copy of the handler table
/// it shares with the models built alike (``SharedHandlerAppend``). A dispatch that reaches the
/// marker tells the links (``EmitterState/markedLinks``), in the place of the handler each link
/// once had, so the app's handlers on the model run before or after them as they were
/// registered before or after the first link, and a manual `trigger("change")` reaches them.
///
/// The links are told in the order they were added, as their handlers ran; a link added while
/// the model's `change` is being dispatched, once the dispatch reached the place, is not told of
/// that one (as a handler added during a trigger does not run), and one removed meanwhile is not
/// told.
///
/// The list holds its links unretained: a link removes itself when it lets go of the model
/// and when it is deallocated. If the app removes the place (`off()` on the model), the links
/// added until then are not told any more, as their own handlers would have been removed (but
/// for the dispatch in progress, which still tells them); links added later get a new list and
/// place. A list made while the model is dispatching takes a handler of its own instead of the
/// marker: the marker that dispatch holds stands for the list it was added with.
///
/// A model that shares the state of the models a map built alike, with no handler of its own,
/// moves to the state those models share with the marker (``SharingDependentLinks``), instead of
/// copying its state to add the marker.
class DependentLinks {
    /// A link, or nothing where one was removed during a dispatch: one word.
    ///
    /// `Unmanaged`, not an `unowned(unsafe)` optional: with that, a debug build's
    /// `Array.removeLast()` on an empty last slot removed two slots (Swift 6.3 at `-Onone`: the
    /// generic path read the empty slot as the absence of one and removed another), leaving
    /// ``count`` past the slots, which a link's deinit then indexed.
    private struct Slot {
        var link: Unmanaged<DependentLink>? = nil
    }

    // The list's state opts out of run-time exclusivity checks: no access to it stays open
    // across a call into a link (they ran on every link added, removed and told).

    // What an add reads and writes comes first, in one line of the list's object: the slots
    // after the first are a buffer of the list's own, sized here, where an array's count and
    // capacity were in its buffer's header, another line each add read (an author's list of
    // 100 posts, visited among 1,000 authors in turn, is rarely still in the cache).

    /// How many slots there are, empty ones included: ``first`` and then ``rest``.
    @exclusivity(unchecked) private var count = 0
    /// How many slots ``rest`` has room for.
    @exclusivity(unchecked) private var restCapacity = 0
    /// The slots after the first, allocated for the second link; ``count`` - 1 of them are
    /// initialized.
    @exclusivity(unchecked) private var rest: UnsafeMutablePointer<Slot>?
    /// The first slot, held in place: most models have one owner (the author of one article
    /// in a compound document), and a buffer for it cost an allocation and a third of the link.
    @exclusivity(unchecked) private var first = Slot()
    /// How many dispatches are running: removals leave empty slots until the last one ends,
    /// so that the positions they iterate by stay put.
    @exclusivity(unchecked) private var dispatchDepth = 0
    /// How many slots removals left empty; the others keep their order around them.
    @exclusivity(unchecked) private var emptySlots = 0
    /// Whether the marker this list was added with is still among the model's handlers; the
    /// model's removal of it clears this (``markerWasRemoved()``).
    @exclusivity(unchecked) private var isMarkerRegistered = false
    /// The handler of a list made while the model was dispatching, registered instead of the
    /// marker; `nil` for a list told through the marker.
    private var handler: EventHandler?
    /// The list made, while the model was dispatching, for the links added after this one's
    /// place was removed.
    private var successor: DependentLinks?

    /// The list that `model`'s new links join: made, with its place among the model's `change`
    /// handlers, on the first link, and again if the app removed that place.
    ///
    /// - Parameter appendMarker: Adds the marker for a map's models, sharing their tables, when
    ///   the owner was built by one.
    static func of(_ model: Model, appendMarker: () -> SharedHandlerAppend?) -> DependentLinks {
        switch model.emitterStorage {
        case .marked(let links):
            // Removing the marker takes a state of the model's own: it is still registered.
            return links
        case .state(let current):
            if let shared = current.sharedMarking(for: model) {
                let links = SharingDependentLinks(sharing: shared)
                model.emitterStorage = .marked(links)
                return links
            }
        case .empty, .forwarder:
            break
        }
        let state = model.state
        if let marked = state.markedLinks {
            var current = marked
            while let next = current.successor { current = next }
            if current.isRegistered(on: model, in: state) { return current }
            // A dispatch in progress holds the marker, which must still tell the list it has.
            if state.dispatchDepth > 0 {
                let links = DependentLinks(handlerOn: model, in: state)
                current.successor = links
                return links
            }
        }
        let links = DependentLinks(isMarkerRegistered: true)
        state.markedLinks = links
        if let append = appendMarker() {
            append.append(to: model, in: state)
        } else {
            model.add(EventHandler.changeMarker, named: "change", in: state)
        }
        return links
    }

    /// An empty list, told through the marker when `isMarkerRegistered`.
    fileprivate init(isMarkerRegistered: Bool) {
        self.isMarkerRegistered = isMarkerRegistered
    }

    deinit {
        rest?.deallocate()
    }

    /// A list told through a handler of its own, registered on `model`, whose state is `state`.
    private init(handlerOn model: Model, in state: EmitterState) {
        let handler = EventHandler(
            id: EventEmitter.makeUniqueID(),
            name: "change",
            callback: { [unowned self] _ in dispatch() },
            owner: nil,
            isOnce: false
        )
        self.handler = handler
        model.add(handler, named: "change", in: state)
    }

    /// Whether the list's place is still among `model`'s handlers; `state` is its state.
    private func isRegistered(on model: Model, in state: EmitterState) -> Bool {
        guard let handler else { return isMarkerRegistered }
        guard let position = EventEmitter.position(of: "change", in: &state.handlers) else { return false }
        return state.handlers.value(at: position).contains { $0 === handler }
    }

    /// Records that the model's handlers no longer hold the marker.
    func markerWasRemoved() {
        isMarkerRegistered = false
    }

    /// Adds a link at the end.
    func add(_ link: DependentLink) {
        link.dependentIndex = count
        append(Slot(link: Unmanaged.passUnretained(link)))
    }

    /// Removes the link at `index` (its ``DependentLink/dependentIndex``).
    ///
    /// The others keep their order, as the handlers each link once had kept theirs in the
    /// model's list: the slot is left empty, and outside a dispatch the empty slots are dropped
    /// once they are half the list (or trail it), so that removing the owners one by one costs
    /// each a constant share.
    func remove(at index: Int) {
        guard index < count else { return }
        guard dispatchDepth == 0 else {
            setSlot(Slot(), at: index)
            emptySlots += 1
            return
        }
        if index == count - 1 {
            _ = removeLast()
            while count > 0 && slot(at: count - 1).link == nil {
                _ = removeLast()
                emptySlots -= 1
            }
            return
        }
        setSlot(Slot(), at: index)
        emptySlots += 1
        if emptySlots * 2 > count { compact() }
    }

    /// Tells each link present when the dispatch starts, in order.
    func dispatch() {
        dispatchDepth += 1
        let end = count
        var index = 0
        while index < end {
            // Retained for the call: the link's update may release its owner, and with it the link.
            if let link = slot(at: index).link?.takeUnretainedValue() { link.relatedModelDidChange() }
            index += 1
        }
        dispatchDepth -= 1
        if dispatchDepth == 0 && emptySlots > 0 { compact() }
    }

    /// Drops the empty slots left by removals, keeping the others' order.
    private func compact() {
        var kept = 0
        for index in 0..<count {
            let entry = slot(at: index)
            guard let link = entry.link else { continue }
            if kept != index { setSlot(entry, at: kept) }
            link._withUnsafeGuaranteedRef { $0.dependentIndex = kept }
            kept += 1
        }
        while count > kept { _ = removeLast() }
        emptySlots = 0
    }

    // MARK: - Slots

    /// The bytes a slot takes: one word, a reference to a class (``DependentLink``).
    static var slotStride: Int { MemoryLayout<Slot>.stride }

    // Inlined: out of line, the append alone cost every further owner of a model 17
    // instructions (`bulk_relations`).

    /// The slot at `index`, which is less than ``count``.
    @inline(__always)
    private func slot(at index: Int) -> Slot {
        guard index > 0, let rest else { return first }
        return rest[index - 1]
    }

    /// Puts `slot` at `index`, which is less than ``count``.
    @inline(__always)
    private func setSlot(_ slot: Slot, at index: Int) {
        if index > 0, let rest { rest[index - 1] = slot } else { first = slot }
    }

    /// Adds `slot` after the others.
    @inline(__always)
    private func append(_ slot: Slot) {
        let index = count
        count = index + 1
        guard index > 0 else {
            first = slot
            return
        }
        if index > restCapacity { growRest() }
        // `growRest()` made the buffer: the slots after the first are there from the second on.
        (rest.unsafelyUnwrapped + (index - 1)).initialize(to: slot)
    }

    /// Doubles the room of ``rest`` (plus one: 3, 7, 15, … slots fill malloc's chunks),
    /// moving the slots it holds.
    @inline(never)
    private func growRest() {
        let capacity = max(3, restCapacity * 2 + 1)
        let grown = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
        if let rest {
            grown.moveInitialize(from: rest, count: restCapacity)
            rest.deallocate()
        }
        rest = grown
        restCapacity = capacity
    }

    /// Removes the last slot, which must exist, and returns it.
    @inline(__always)
    private func removeLast() -> Slot {
        count -= 1
        guard count > 0, let rest else {
            let only = first
            first = Slot()
            return only
        }
        return (rest + (count - 1)).move()
    }
}

/// The links of a model that shares, with the models a map built alike, the state that has the
/// marker among its `change` handlers (``EmitterStorage/marked(_:)``, ``EmitterState/sharedMarking(for:)``).
///
/// The model keeps the list in its storage instead of a state of its own, and copies the state
/// as any model that shares one does before its handlers change (``EventEmitter/state``), taking
/// the list along (``EmitterState/markedLinks``).
final class SharingDependentLinks: DependentLinks {
    /// The state the model shares, with the marker registered; kept after the model copies it,
    /// as the root it was made from keeps it too.
    let sharedState: EmitterState

    /// An empty list of a model that shares `sharedState`, told through the marker there.
    init(sharing sharedState: EmitterState) {
        self.sharedState = sharedState
        super.init(isMarkerRegistered: true)
    }
}
