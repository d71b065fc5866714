import Keel
import Testing

@testable import KeelSQLite

/// Which queued changes go in an atomic replay, and how they name records created offline.
struct AtomicReplayBatchTests {
    private func change(
        _ sequence: Int,
        _ method: SyncMethod,
        _ collection: String,
        _ recordID: String,
        _ resource: JSONValue? = nil,
        state: QueuedChange.State = .pending
    ) -> QueuedChange {
        QueuedChange(
            sequence: sequence,
            method: method,
            url: url(method == .create ? collection : "\(collection)/\(recordID)"),
            collection: collection,
            recordID: recordID,
            body: resource,
            headers: ["Accept": JSONAPIFormat.mediaType],
            idempotencyKey: "key-\(sequence)",
            baseVersion: nil,
            state: state,
            rootKey: resource == nil ? nil : "data"
        )
    }

    @Test func createsGoWithTheirTemporaryIDAsLidAndLaterOperationsNameThemByLid() {
        let queue = [
            change(1, .create, "/authors", "local-1", ["type": "Author", "attributes": ["name": "Ann"]]),
            change(
                2,
                .create,
                "/articles",
                "local-2",
                [
                    "type": "Article", "attributes": ["title": "Hi"],
                    "relationships": ["author": ["data": ["type": "Author", "id": "local-1"]]],
                ]
            ),
            change(
                3,
                .patch,
                "/articles",
                "local-2",
                ["type": "Article", "id": "local-2", "attributes": ["title": "Ho"]]
            ),
            change(4, .delete, "/articles", "local-2"),
            change(5, .patch, "/authors", "9", ["type": "Author", "id": "9", "attributes": ["name": "Bo"]]),
        ]
        let batch = AtomicReplayBatch(queue, types: [RecordKey(collection: "/articles", id: "local-2"): "Article"]) {
            _ in
            false
        }
        #expect(batch.positions == [0, 1, 2, 3, 4])
        #expect(
            batch.operations == [
                ["op": "add", "data": ["type": "Author", "lid": "local-1", "attributes": ["name": "Ann"]]],
                [
                    "op": "add",
                    "data": [
                        "type": "Article", "lid": "local-2", "attributes": ["title": "Hi"],
                        "relationships": ["author": ["data": ["type": "Author", "lid": "local-1"]]],
                    ],
                ],
                ["op": "update", "data": ["type": "Article", "lid": "local-2", "attributes": ["title": "Ho"]]],
                ["op": "remove", "ref": ["type": "Article", "lid": "local-2"]],
                ["op": "update", "data": ["type": "Author", "id": "9", "attributes": ["name": "Bo"]]],
            ]
        )
    }

    @Test func aChangeThatCannotGoKeepsTheLaterChangesOfItsRecordOut() {
        let failed = QueuedChange.State.failed(.httpStatus(400, body: nil))
        let queue = [
            // Rejected before: it and the record's later changes stay out.
            change(1, .create, "/authors", "local-1", ["type": "Author", "attributes": ["name": ""]], state: failed),
            change(2, .patch, "/authors", "local-1", ["type": "Author", "id": "local-1", "attributes": ["name": "A"]]),
            // Names a record whose create stays out.
            change(
                3,
                .create,
                "/articles",
                "local-2",
                ["type": "Article", "relationships": ["author": ["data": ["type": "Author", "id": "local-1"]]]]
            ),
            // A temporary id in an attribute cannot be resolved by the server.
            change(4, .create, "/notes", "local-3", ["type": "Note", "attributes": ["about": "local-1"]]),
            // Checked for conflicts one change at a time.
            change(5, .patch, "/authors", "7", ["type": "Author", "id": "7", "attributes": ["name": "C"]]),
            // Not JSON:API.
            QueuedChange(
                sequence: 6,
                method: .create,
                url: url("/todos"),
                collection: "/todos",
                recordID: "local-4",
                body: ["title": "Plain"],
                headers: [:],
                idempotencyKey: "key-6",
                baseVersion: nil,
                state: .pending
            ),
            change(7, .create, "/authors", "local-5", ["type": "Author", "attributes": ["name": "D"]]),
        ]
        let batch = AtomicReplayBatch(queue, types: [:]) { $0.sequence == 5 }
        #expect(batch.positions == [6])
    }

    @Test func errorsThatPointToAnOperationAreReportedAgainstItsChangeWithARelativePointer() {
        let error = SyncError.httpStatus(
            422,
            body: [
                "errors": [
                    ["detail": "can't be blank", "source": ["pointer": "/atomic:operations/1/data/attributes/title"]],
                    ["detail": "taken", "source": ["pointer": "/atomic:operations/3/data/attributes/name"]],
                    ["detail": "out of range", "source": ["pointer": "/atomic:operations/9/data"]],
                    ["detail": "everything"],
                ]
            ]
        )
        let named = CachingSync.errorsByOperation(error, count: 4)
        #expect(named.keys.sorted() == [1, 3])
        #expect(
            named[1]
                == .httpStatus(
                    422,
                    body: ["errors": [["detail": "can't be blank", "source": ["pointer": "/data/attributes/title"]]]]
                )
        )
        #expect(
            CachingSync.errorsByOperation(.httpStatus(400, body: ["errors": [["detail": "blank"]]]), count: 2).isEmpty
        )
    }

    @Test func theBatchKeyIsTheSameForTheSameChangesAndDiffersForOthers() {
        let first = [change(1, .create, "/authors", "local-1", ["type": "Author"])]
        let second = first + [change(2, .create, "/authors", "local-2", ["type": "Author"])]
        #expect(CachingSync.batchKey(of: first) == CachingSync.batchKey(of: first))
        #expect(CachingSync.batchKey(of: first) != CachingSync.batchKey(of: second))
    }
}
