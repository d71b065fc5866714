import Keel
import Testing

/// App names ↔ wire names, at every depth, with remote names for particular attributes.
struct KeyMappingTests {
    @Test func snakeCaseConvertsBothWays() {
        #expect(KeyConvention.snakeCase.wireName(for: "dueAt") == "due_at")
        #expect(KeyConvention.snakeCase.appName(for: "due_at") == "dueAt")
        #expect(KeyConvention.snakeCase.wireName(for: "avatarURL") == "avatar_url")
        #expect(KeyConvention.unchanged.wireName(for: "dueAt") == "dueAt")
    }

    @Test func remoteNamesWinOverTheConventionBothWays() {
        let keys = KeyMapping(.snakeCase, names: ["id": "nid", "body": "content"])
        #expect(keys.wireName(for: "id") == "nid")
        #expect(keys.appName(for: "nid") == "id")
        #expect(keys.wireName(for: "body") == "content")
        #expect(keys.appName(for: "content") == "body")
        #expect(keys.wireName(for: "createdAt") == "created_at")
    }
}
