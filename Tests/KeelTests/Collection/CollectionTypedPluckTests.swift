import Keel
import Testing

/// `pluck` with an `AttributeKey`: Swift values, one per model.
struct CollectionTypedPluckTests {
    @Test func typedPluckGivesSwiftValuesOnePerModel() {
        let title = AttributeKey<String>("title")
        let notes = Collection<Model>([["title": "Milk"], ["title": 3], [:]])

        let titles: [String?] = notes.pluck(title)

        #expect(titles == ["Milk", nil, nil])
    }
}
