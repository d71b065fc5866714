extension Model {
    /// Whether this model asks to be destroyed when its owner saves it nested (Rails'
    /// `mark_for_destruction`, NSRails' `remoteDestroyOnNesting`).
    ///
    /// A saved model marked so, in a ``HasMany`` or ``HasOne`` encoded as
    /// ``RelationEncoding/nestedAttributes``, goes in its owner's next save as its id and
    /// `_destroy: true` (the Rails model needs `accepts_nested_attributes_for …, allow_destroy:
    /// true`), while it stays in the relation until the server's answer leaves it out; a new
    /// model marked so is not sent. Other encodings ignore the mark. A successful fetch or save
    /// of the owner clears it.
    ///
    /// ```swift
    /// user[User.invites].first?.isMarkedForDestruction = true
    /// try await user.save()  // "invites_attributes": [{"id": 7, "_destroy": true}]
    /// ```
    public var isMarkedForDestruction: Bool {
        get { storedExtras?.isMarkedForDestruction ?? false }
        set {
            guard newValue || storedExtras != nil else { return }
            extras.isMarkedForDestruction = newValue
        }
    }

    /// Marks the model to be destroyed with its owner's next save; see
    /// ``isMarkedForDestruction``.
    ///
    /// ```swift
    /// user[User.profile]?.markForDestruction()
    /// try await user.save()  // "profile_attributes": {"id": 3, "_destroy": true}
    /// ```
    public func markForDestruction() {
        isMarkedForDestruction = true
    }
}
