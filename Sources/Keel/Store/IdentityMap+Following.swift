// MARK: - Following ids

extension IdentityMap {
    /// Keeps the entry in step with the model: registered when it gets an id, moved when
    /// the id changes, removed when the model is destroyed.
    ///
    /// The handlers are shared by every model of the collection and owned by the map, so
    /// following a model registers no closure of its own, and a model that outlives the map
    /// drops them at its next `changeId` or `destroy`.
    func follow(_ model: Model, in collection: String) {
        sharedFollowers(of: collection).add(to: model)
    }

    /// ``follow(_:in:)`` for a collection whose number in the keys is `number`.
    ///
    /// The collection's followers are found by its number: its models share them however the
    /// path is written (`notes/`, `/notes`), as their keys do.
    func follow(_ model: Model, in collection: String, number: Int) {
        if followKnown(model, number: number) { return }
        let found = sharedFollowers(of: collection)
        if number >= followersByNumber.count {
            followersByNumber.append(contentsOf: repeatElement(nil, count: number + 1 - followersByNumber.count))
        }
        followersByNumber[number] = found
        found.add(to: model)
    }

    /// ``follow(_:in:number:)`` by the followers found for the collection numbered `number`
    /// before; `false`, following nothing, when there are none yet.
    @inline(__always)
    func followKnown(_ model: Model, number: Int) -> Bool {
        guard number < followersByNumber.count, let known = followersByNumber[number].map(Unmanaged.passUnretained)
        else { return false }
        // Borrowed: the map holds its followers, and adding them to a model changes no list.
        known._withUnsafeGuaranteedRef { $0.add(to: model) }
        return true
    }

    /// The followers of `collection`, made on first use.
    private func sharedFollowers(of collection: String) -> ModelFollowers {
        if let known = followers[collection] { return known }
        let made = ModelFollowers(names: ["changeId", "destroy"], owner: self, isBookkeeping: true) {
            [weak self] event in
            guard let self, let model = event.model else { return }
            switch event.name {
            case "destroy", Self.deinitEventName: self.forget(model, in: collection)
            default: self.move(model, in: collection, from: event.previousID, options: event.options)
            }
        }
        followers[collection] = made
        return made
    }

    /// Moves a model's entry from its previous id to its new one.
    private func move(_ model: Model, in collection: String, from previous: JSONValue?, options: ChangeOptions) {
        if let previous, !previous.isNull {
            let old = key(collection, id: previous)
            if entries[old]?.holds(model) == true { entries.removeEntry(for: old) }
        }
        guard let id = model.storedID, !id.isNull else { return }
        let key = self.key(collection, id: id)
        if let entry = entries[key], !entry.holds(model) {
            let live = entry.model
            // The record already has an instance; report it on the model instead of
            // silently holding two instances for one id.
            let error = IdentityMapError.conflict(
                collection: paths.name(of: key.collection),
                id: key.id.text,
                existingType: String(describing: type(of: live))
            )
            model.trigger(Event(name: "error", model: model, error: error, options: options))
            return
        }
        insert(Entry(model), for: key)
    }

    /// Drops the entry of a model that was destroyed or whose deinit has started.
    ///
    /// It reads the model's cached id and compares its address only: from the deinit, the
    /// model must not be retained past the call or reported to Observation.
    private func forget(_ model: Model, in collection: String) {
        guard let id = model.storedID, !id.isNull else { return }
        let key = self.key(collection, id: id)
        if entries[key]?.holds(model) == true { entries.removeEntry(for: key) }
    }
}
