import Keel
import Testing

/// The map's keys: a collection path and an id, integer ids hashed without `Hasher`.
struct IdentityMapKeyTests {
    @Test func integerIDsOfSeveralCollectionsStayDistinctRecords() {
        let map = IdentityMap()
        let ids = Array(-500..<2_000) + [Int.min, Int.max, 1 << 32, -(1 << 40)]
        var notes: [Int: Note] = [:]
        var lists: [Int: Note] = [:]
        for id in ids {
            notes[id] = map.model(Note.self, collection: "/notes", attributes: ["id": .int(id)])
            lists[id] = map.model(Note.self, collection: "/lists", attributes: ["id": .int(id)])
        }

        #expect(map.count == 2 * ids.count)
        for id in ids {
            #expect(map.existing(Note.self, id: .int(id), in: "/notes") === notes[id])
            #expect(map.existing(Note.self, id: .int(id), in: "/lists") === lists[id])
            #expect(notes[id] !== lists[id])
        }
    }

    @Test func textAndIntegerIDsShareOneMap() {
        let map = IdentityMap()
        let seven = map.model(Note.self, collection: "/notes", attributes: ["id": 7])
        let text = map.model(Note.self, collection: "/notes", attributes: ["id": "seven"])
        let padded = map.model(Note.self, collection: "/notes", attributes: ["id": "07"])

        #expect(map.existing(Note.self, id: "7", in: "/notes") === seven)
        #expect(map.existing(Note.self, id: 7.0, in: "/notes") === seven)
        #expect(map.existing(Note.self, id: "seven", in: "/notes") === text)
        #expect(map.existing(Note.self, id: "07", in: "/notes") === padded)
        #expect(padded !== seven)
        #expect(map.count == 3)
    }
}
