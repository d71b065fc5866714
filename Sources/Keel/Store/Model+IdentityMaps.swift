extension Model {
    /// Tells the identity maps that hold the model in their tables that it is going: called by
    /// its deinit when ``isIdentityMapped``.
    ///
    /// A map keeps no reference count on its models (a `weak` one would give every model a
    /// side table and send each of its retains and releases down the runtime's slow path), so
    /// it must drop a model's entry before the model's memory goes. Each map follows its
    /// models through a shared `destroy` handler that `off()` leaves in place
    /// (``EventHandler/isBookkeeping``); the deinit hands that handler the model once more,
    /// under ``IdentityMap/deinitEventName``, while every stored property is still intact.
    final func leaveIdentityMaps() {
        guard let state = existingState, let position = EventEmitter.position(of: "destroy", in: &state.handlers)
        else { return }
        let leaving = Event(name: IdentityMap.deinitEventName, model: self)
        state.handlers.value(at: position).forEachInPlace { handler in
            if handler.isBookkeeping { handler.callback(leaving) }
        }
    }
}
