import Testing

@testable import Keel

/// A model's extras keep the server's last record and the gate its syncs go through in one box
/// (``ModelExtras/remoteAttributes``, ``ModelExtras/syncGate``): each must read back as it was
/// set, whichever came first, and one must not replace the other.
struct ModelExtrasSyncRecordsTests {
    @Test func theGateStaysWhenTheServerRecordIsSetAndCleared() {
        let extras = ModelExtras()
        #expect(extras.remoteAttributes == nil)
        let gate = extras.syncGate
        #expect(extras.syncGate === gate)
        #expect(extras.remoteAttributes == nil)
        extras.remoteAttributes = ["id": 1]
        #expect(extras.remoteAttributes == ["id": 1])
        #expect(extras.syncGate === gate)
        extras.remoteAttributes = nil
        #expect(extras.remoteAttributes == nil)
        #expect(extras.syncGate === gate)
    }

    @Test func aServerRecordSetFirstKeepsItsValueWhenTheGateIsMade() {
        let extras = ModelExtras()
        extras.remoteAttributes = ["id": 2, "title": "Dune"]
        let gate = extras.syncGate
        #expect(extras.remoteAttributes == ["id": 2, "title": "Dune"])
        extras.remoteAttributes = ["id": 2]
        #expect(extras.remoteAttributes == ["id": 2])
        #expect(extras.syncGate === gate)
    }

    @Test func clearingARecordThatIsNotThereLeavesNoneAndEachGateIsItsModels() {
        let first = ModelExtras()
        first.remoteAttributes = nil
        #expect(first.remoteAttributes == nil)
        let second = ModelExtras()
        second.remoteAttributes = ["id": 3]
        #expect(first.syncGate !== second.syncGate)
        #expect(first.remoteAttributes == nil)
        #expect(second.remoteAttributes == ["id": 3])
    }
}
