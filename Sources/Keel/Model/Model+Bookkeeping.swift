/// The model's internal bookkeeping: the rarely used state in ``ModelExtras`` and the
/// change record of `set`, each created on first use.
extension Model {
    /// The rarely used state, created on first use.
    var extras: ModelExtras {
        if let storedExtras { return storedExtras }
        let extras = ModelExtras()
        storedExtras = extras
        return extras
    }

    /// Calls `body` with the rarely used state, created on first use, borrowed: reading
    /// ``extras`` retained it for the caller and released it after.
    ///
    /// `body` must not replace the model's extras: the model alone holds them for the call.
    @inline(__always)
    func withExtras<Result>(_ body: (ModelExtras) -> Result) -> Result {
        if storedExtras == nil { storedExtras = ModelExtras() }
        return Unmanaged.passUnretained(storedExtras.unsafelyUnwrapped)._withUnsafeGuaranteedRef(body)
    }

    /// The bookkeeping of `set`, created by the model's first `set` that records anything (the
    /// model's own: never the shared ``ChangeRecord/followingStorage``).
    var changeRecord: ChangeRecord {
        @inline(__always) get {
            if let storedChangeRecord, !storedChangeRecord.followsStorage { return storedChangeRecord }
            return makeChangeRecord()
        }
    }

    @inline(never)
    private func makeChangeRecord() -> ChangeRecord {
        let record = ChangeRecord(idAttribute: idAttribute)
        storedChangeRecord = record
        return record
    }

    /// The attributes before the outermost `set` in progress, or before the last one.
    var previousStorage: Attributes {
        guard let storedChangeRecord else { return Attributes() }
        return storedChangeRecord.followsStorage ? storage : storedChangeRecord.previous
    }
    /// The attributes changed by the current or last outermost `set`.
    var changedStorage: Attributes { storedChangeRecord?.changed ?? Attributes() }
    /// Whether a `set` is running (Backbone's `_changing`).
    var isChanging: Bool { storedChangeRecord?.isChanging ?? false }

    /// The attributes as of the last successful fetch or save.
    var syncedStorage: Attributes? {
        get { storedExtras?.syncedStorage }
        set { extras.syncedStorage = newValue }
    }
    /// Runs this model's sync operations one at a time, in call order.
    var syncGate: SyncGate { extras.syncGate }
    /// The last validation error.
    var storedValidationError: ValidationError? {
        get { storedExtras?.validationError }
        set {
            guard newValue != nil || storedExtras != nil else { return }
            extras.validationError = newValue
        }
    }
}
