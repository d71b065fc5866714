import Keel
import Testing

/// A has-many whose response names the same children in the same order merges into them in
/// place; it keeps the instances and fires what a collection's `set` of the same records
/// fires, in the same order, as does a merge that has to fall back to `set` half-way.
@MainActor
struct HasManyMergeInPlaceTests {
    /// An invite whose `parse` reads the server's `mail` as `email`.
    final class ParsedInvite: Model {
        override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
            guard var attributes = response.objectValue else { return nil }
            if let mail = attributes.removeValue(forKey: "mail") { attributes["email"] = mail }
            return attributes
        }
    }

    /// A user whose invites parse their records.
    final class Member: Model {
        static let invites = HasMany<ParsedInvite>("invites")
        override class var relations: [any Relation] { [invites] }
    }

    /// A user with a has-many and a has-one, to see the order the relations merge in.
    final class Owner: Model {
        static let invites = HasMany<Relations.Invite>("invites")
        static let profile = HasOne<Relations.Profile>("profile")
        override class var relations: [any Relation] { [invites, profile] }
    }

    private static let initial: [Attributes] = [
        ["id": 1, "email": "a@x", "rank": 1],
        ["id": 2, "email": "b@x", "rank": 2],
        ["id": 3, "email": "c@x", "rank": 3],
    ]

    private static let response: [Attributes] = [
        ["id": 1, "email": "A@x", "rank": 1],
        ["id": 2, "email": "b@x", "rank": 2],
        ["id": 3, "email": "C@x", "rank": 3],
    ]

    /// Records every event of `collection` and of each of its models, as `name ids`.
    private static func record(_ collection: Collection<Relations.Invite>, into log: EventLog) {
        collection.on("all") { event in log.entries.append("collection " + describe(event)) }
        for model in collection.models {
            model.on("all") { event in log.entries.append("model \(model.id ?? .null) " + describe(event)) }
        }
    }

    private static func describe(_ event: Event) -> String {
        guard let changes = event.changes else { return event.name }
        let ids = { (models: [Model]) in models.map { $0.id.map(String.init(describing:)) ?? "new" } }
        return "\(event.name) added \(ids(changes.added)) removed \(ids(changes.removed)) merged \(ids(changes.merged))"
    }

    final class EventLog {
        var entries: [String] = []
    }

    /// The events of the relation's merge and of a plain collection's `set` of the same
    /// records, each from the same initial children.
    private func compareWithSet(
        _ response: [Attributes],
        comparator: ModelComparator<Relations.Invite>? = nil,
        prepare: (Collection<Relations.Invite>) -> Void = { _ in }
    ) -> (merged: [String], set: [String], relation: Collection<Relations.Invite>, plain: Collection<Relations.Invite>)
    {
        let owner = Owner(["id": 7, "invites": .array(JSONArray(Self.initial.map(JSONValue.object)))])
        let relation = owner[Owner.invites]
        relation.comparator = comparator
        let plain = Collection<Relations.Invite>(Self.initial.map { Relations.Invite($0) }, comparator: comparator)
        let mergedLog = EventLog()
        let setLog = EventLog()
        Self.record(relation, into: mergedLog)
        Self.record(plain, into: setLog)
        prepare(relation)
        prepare(plain)
        owner.set(["invites": .array(JSONArray(response.map(JSONValue.object)))])
        plain.set(response)
        return (mergedLog.entries, setLog.entries, relation, plain)
    }

    @Test func theSameChildrenInTheSameOrderAreMergedIntoTheSameInstances() {
        let owner = Owner(["id": 7, "invites": .array(JSONArray(Self.initial.map(JSONValue.object)))])
        let before = owner[Owner.invites].models
        owner.set(["invites": .array(JSONArray(Self.response.map(JSONValue.object)))])
        let after = owner[Owner.invites].models
        #expect(after.count == 3)
        #expect(zip(before, after).allSatisfy { $0 === $1 })
        #expect(owner[Owner.invites].pluck("email") == ["A@x", "b@x", "C@x"])
        #expect(before[0].changedAttributes() == ["email": "A@x"])
        #expect(before[1].hasChanged() == false)
        #expect(owner["invites"]?[2]?["email"] == "C@x")
    }

    @Test func aMergeInPlaceFiresWhatSetFiresInTheSameOrder() {
        let result = compareWithSet(Self.response)
        #expect(result.merged == result.set)
        #expect(
            result.merged == [
                "collection change:email", "model 1 change:email", "collection change", "model 1 change",
                "collection change:email", "model 3 change:email", "collection change", "model 3 change",
                "collection update added [] removed [] merged [\"1\", \"2\", \"3\"]",
            ]
        )
    }

    @Test func theOwnerFiresItsChangeAfterTheChildrensEventsAndTheUpdate() {
        let owner = Owner(["id": 7, "invites": .array(JSONArray(Self.initial.map(JSONValue.object)))])
        var events: [String] = []
        owner[Owner.invites].on("change update") { event in events.append("invites " + event.name) }
        owner.on("all") { event in events.append("owner " + event.name) }
        owner.set(["invites": .array(JSONArray(Self.response.map(JSONValue.object)))])
        #expect(
            events == [
                "invites change", "invites change", "invites update", "owner change:invites", "owner change",
            ]
        )
    }

    @Test func aSilentMergeInPlaceFiresNothing() {
        let owner = Owner(["id": 7, "invites": .array(JSONArray(Self.initial.map(JSONValue.object)))])
        var events: [String] = []
        owner[Owner.invites].on("all") { event in events.append(event.name) }
        owner.on("all") { event in events.append(event.name) }
        owner.set(["invites": .array(JSONArray(Self.response.map(JSONValue.object)))], silent: true)
        #expect(events.isEmpty)
        #expect(owner[Owner.invites].pluck("email") == ["A@x", "b@x", "C@x"])
    }

    @Test func anIDChangedByAHandlerHalfWayFinishesAsSetDoes() throws {
        // The first merge's handler gives the second child another id: the second record no
        // longer names it, so it becomes a new model and the old one is removed.
        let result = compareWithSet(Self.response) { collection in
            let second = collection.get(2)
            collection.at(0)?.on("change:email") { _ in second?.set(["id": 20]) }
        }
        #expect(result.merged == result.set)
        #expect(result.relation.pluck("id") == result.plain.pluck("id"))
        #expect(result.relation.pluck("id") == [1, 2, 3])
        let update = try #require(result.merged.last)
        #expect(update == "collection update added [\"2\"] removed [\"20\"] merged [\"1\", \"3\"]")
    }

    @Test func aSortedRelationMergesAndSortsAsSetDoes() {
        let response: [Attributes] = [
            ["id": 1, "email": "a@x", "rank": 5],
            ["id": 2, "email": "b@x", "rank": 2],
            ["id": 3, "email": "c@x", "rank": 3],
        ]
        let result = compareWithSet(response, comparator: .attribute("rank"))
        #expect(result.merged == result.set)
        #expect(result.merged.contains("collection sort"))
        #expect(result.relation.pluck("id") == [2, 3, 1])
    }

    @Test func anotherOrderOrOtherChildrenGoThroughSet() {
        let reordered = compareWithSet([Self.response[2], Self.response[0], Self.response[1]])
        #expect(reordered.merged == reordered.set)
        #expect(reordered.relation.pluck("id") == [3, 1, 2])
        let fewer = compareWithSet([Self.response[0], ["id": 4, "email": "d@x"], Self.response[2]])
        #expect(fewer.merged == fewer.set)
        #expect(fewer.relation.pluck("id") == [1, 4, 3])
    }

    @Test func parsedRecordsGoThroughEachChildsParse() throws {
        let members = Collection<Member>([
            ["id": 1, "invites": [["id": 1, "email": "a@x"], ["id": 2, "email": "b@x"]]]
        ])
        let member = try #require(members.get(1))
        let first = try #require(member[Member.invites].at(0))
        try members.set(parsing: [["id": 1, "invites": [["id": 1, "mail": "A@x"], ["id": 2, "mail": "B@x"]]]])
        #expect(member[Member.invites].at(0) === first)
        #expect(member[Member.invites].pluck("email") == ["A@x", "B@x"])
        #expect(member["invites"] == [["id": 1, "email": "A@x"], ["id": 2, "email": "B@x"]])
    }

    @Test func relationsMergeInTheOrderOfTheirAttributes() {
        let owner = Owner(["id": 7, "invites": [["id": 1, "email": "a@x"]], "profile": ["bio": "x"]])
        var events: [String] = []
        owner[Owner.invites].on("change") { _ in events.append("invites") }
        owner[Owner.profile]?.on("change") { _ in events.append("profile") }
        owner.set(["profile": ["bio": "y"], "invites": [["id": 1, "email": "b@x"]]])
        owner.set(["invites": [["id": 1, "email": "c@x"]], "profile": ["bio": "z"]])
        #expect(events == ["profile", "invites", "invites", "profile"])
    }

    @Test func aRecordThatIsNotAnObjectIsRejectedWithoutChangingTheChildren() {
        let owner = Owner(["id": 7, "invites": .array(JSONArray(Self.initial.map(JSONValue.object)))])
        #expect(owner.set(["invites": [["id": 1, "email": "A@x"], "b@x"]]) == false)
        #expect(owner.validationError?["invites"] == ["must be a list of records"])
        #expect(owner[Owner.invites].pluck("email") == ["a@x", "b@x", "c@x"])
    }
}
