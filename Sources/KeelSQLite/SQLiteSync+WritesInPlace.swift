import Keel

extension SQLiteSync {
    /// Answers a write on the calling thread when the store was opened with
    /// ``writesOnCallingThread`` and the connection is free; `nil` takes the queue.
    ///
    /// The write runs exactly as it would on the queue (the same transaction, the same
    /// commit hook, the same answer), so only the thread that waits for its `fdatasync`
    /// changes. A connection in use, a closed store or a cancelled task returns `nil`: the
    /// queue then answers, or refuses, as it does without the option.
    func writeInPlace(_ request: SyncRequest) -> Result<SyncResponse, SyncError>? {
        guard writesOnCallingThread, request.method != .read else { return nil }
        let idAttribute = self.idAttribute
        let beforeCommit = self.beforeCommit
        return inPlace { connection in
            Result { () throws(SyncError) -> SyncResponse in
                try connection.perform(request, idAttribute: idAttribute, beforeCommit: beforeCommit)
            }
        }
    }

    /// Runs `body` with the connection on the calling thread when writes may run there, the
    /// task is not cancelled, the store is open and no other operation holds the
    /// connection; otherwise returns `nil` at once, without waiting.
    func inPlace<T: Sendable>(_ body: (SQLiteConnection) -> T) -> T? {
        guard writesOnCallingThread, queue != nil, !Task.isCancelled else { return nil }
        let answer = connection.withLockIfAvailable { connection -> T? in
            guard let connection else { return nil }
            return body(connection)
        }
        return answer ?? nil
    }
}
