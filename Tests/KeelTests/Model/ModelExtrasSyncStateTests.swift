import Testing

@testable import Keel

/// A model's extras keep the case of its sync state in one byte and the error of a failed sync
/// in their rarely used box (``ModelExtras/syncState``): each state must read back as it was set,
/// and a box shared by a store's models must not carry one model's failure to another.
struct ModelExtrasSyncStateTests {
    @Test func everyStateReadsBackAsItWasSet() {
        let extras = ModelExtras()
        #expect(extras.syncState == .synced)
        let states: [SyncState] = [
            .pending, .conflict, .failed(.timedOut), .failed(.transport("offline")), .synced,
            .failed(.httpStatus(409, body: ["id": 1])), .pending, .synced,
        ]
        for state in states {
            extras.syncState = state
            #expect(extras.syncState == state)
        }
    }

    @Test func aFailureInASharedBoxStaysWithItsModel() {
        let shared = RareModelExtras()
        let failing = ModelExtras()
        let other = ModelExtras()
        #expect(failing.shareRare(shared) && other.shareRare(shared))
        failing.syncState = .failed(.timedOut)
        #expect(failing.syncState == .failed(.timedOut))
        #expect(other.syncState == .synced)
        #expect(shared.syncFailure == nil)
        other.syncState = .failed(.cancelled)
        failing.syncState = .synced
        #expect(failing.syncState == .synced)
        #expect(other.syncState == .failed(.cancelled))
    }

    @Test func aCopiedBoxKeepsTheFailure() {
        let box = RareModelExtras()
        box.syncFailure = .missingBackend
        #expect(box.copy().syncFailure == .missingBackend)
    }

    @Test func aModelReportsItsFailedStateWithTheErrorAndLeavesIt() {
        let note = Model(["id": 1])
        var errors: [SyncError?] = []
        note.on("syncState") { event in errors.append(event.error as? SyncError) }
        note.setSyncState(.failed(.storage("disk full")))
        #expect(note.syncState == .failed(.storage("disk full")))
        note.setSyncState(.failed(.storage("disk full")))
        note.setSyncState(.conflict)
        #expect(note.syncState == .conflict)
        note.setSyncState(.synced)
        #expect(note.syncState == .synced)
        #expect(errors == [.storage("disk full"), nil, nil])
    }
}
