// MARK: - An entry of the table

extension IdentityMap {
    /// A registered model, without a reference count: the model removes its entry when
    /// `Model`'s deinit starts (``Model/leaveIdentityMaps()``), so an entry always names a
    /// model whose memory is intact. (A subclass's own deinit runs before that, while the
    /// entry is still there.)
    struct Entry {
        let reference: Unmanaged<Model>
        /// The stamp of the document read whose relation last applied a record to the model
        /// (``linkStamp(for:)``); `0` for none.
        var stamp = 0
        init(_ model: Model, stamp: Int = 0) {
            reference = Unmanaged.passUnretained(model)
            self.stamp = stamp
        }
        /// The model, retained for the caller.
        var model: Model { reference.takeUnretainedValue() }
        /// Whether the entry is `model`'s, compared without a reference count.
        func holds(_ model: Model) -> Bool { reference.toOpaque() == Unmanaged.passUnretained(model).toOpaque() }
    }
}
