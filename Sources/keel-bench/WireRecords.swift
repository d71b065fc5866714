import Foundation
import Keel

// The app values of `wire_twitter` and `wire_canada`: the `Codable` structs that Keel's
// `Model.decode` and Foundation's `JSONDecoder` both fill, the models that Keel's parse fills,
// and the check values that every side computes from what it built.

// MARK: - Twitter

/// One status of the Twitter-shaped corpus, as an app declares it.
struct Status: Codable {
    let id: Int
    let idStr: String
    let createdAt: String
    let text: String
    let source: String
    let truncated: Bool
    let inReplyToStatusId: Int?
    let user: TwitterUser
    let entities: Entities
    let retweetCount: Int
    let favoriteCount: Int
    let favorited: Bool
    let retweeted: Bool
    let lang: String

    enum CodingKeys: String, CodingKey {
        case id, text, source, truncated, user, entities, favorited, retweeted, lang
        case idStr = "id_str", createdAt = "created_at", inReplyToStatusId = "in_reply_to_status_id"
        case retweetCount = "retweet_count", favoriteCount = "favorite_count"
    }
}

/// A status's author.
struct TwitterUser: Codable {
    let id: Int
    let idStr: String
    let name: String
    let screenName: String
    let location: String
    let description: String
    let followersCount: Int
    let friendsCount: Int
    let verified: Bool
    let lang: String
    let profileImageUrl: String

    enum CodingKeys: String, CodingKey {
        case id, name, location, description, verified, lang
        case idStr = "id_str", screenName = "screen_name", followersCount = "followers_count"
        case friendsCount = "friends_count", profileImageUrl = "profile_image_url"
    }
}

/// A status's hashtags, links and mentions.
struct Entities: Codable {
    struct Hashtag: Codable {
        let text: String
        let indices: [Int]
    }
    struct Link: Codable {
        let url: String
        let expandedUrl: String
        let displayUrl: String
        let indices: [Int]

        enum CodingKeys: String, CodingKey {
            case url, indices
            case expandedUrl = "expanded_url", displayUrl = "display_url"
        }
    }
    struct Mention: Codable {
        let screenName: String
        let name: String
        let id: Int
        let idStr: String
        let indices: [Int]

        enum CodingKeys: String, CodingKey {
            case name, id, indices
            case screenName = "screen_name", idStr = "id_str"
        }
    }

    let hashtags: [Hashtag]
    let urls: [Link]
    let userMentions: [Mention]

    enum CodingKeys: String, CodingKey {
        case hashtags, urls
        case userMentions = "user_mentions"
    }
}

/// The whole Twitter-shaped document, for `JSONDecoder`.
struct TwitterCorpus: Codable {
    struct Metadata: Codable {
        let count: Int
        let query: String
    }
    let statuses: [Status]
    let searchMetadata: Metadata

    enum CodingKeys: String, CodingKey {
        case statuses
        case searchMetadata = "search_metadata"
    }
}

/// A status as a Keel model: the natural model of a list screen of tweets.
final class Tweet: Model {}

/// What the check value of `wire_twitter` reads from one status.
struct StatusDigest {
    var id: Int
    var text: String
    var userName: String
    var followers: Int
    var favorited: Bool
    var indices: [Int]
    var replyTo: Int?
}

extension StatusDigest {
    init(_ status: Status) {
        let entities = status.entities
        self.init(
            id: status.id, text: status.text, userName: status.user.name, followers: status.user.followersCount,
            favorited: status.favorited,
            indices: entities.hashtags.flatMap(\.indices) + entities.urls.flatMap(\.indices)
                + entities.userMentions.flatMap(\.indices),
            replyTo: status.inReplyToStatusId
        )
    }

    init(_ status: JSONValue) {
        let entities = status["entities"]
        let indices = ["hashtags", "urls", "user_mentions"].flatMap { kind in
            (entities?[kind]?.arrayValue ?? []).flatMap { ($0["indices"]?.arrayValue ?? []).map { $0.intValue ?? 0 } }
        }
        self.init(
            id: status["id"]?.intValue ?? -1, text: status["text"]?.stringValue ?? "",
            userName: status["user"]?["name"]?.stringValue ?? "", followers: status["user"]?["followers_count"]?.intValue ?? -1,
            favorited: status["favorited"]?.boolValue ?? false, indices: indices,
            replyTo: status["in_reply_to_status_id"]?.intValue
        )
    }

    init(_ status: Any) {
        let object = status as? [String: Any] ?? [:]
        let user = object["user"] as? [String: Any] ?? [:]
        let entities = object["entities"] as? [String: Any] ?? [:]
        let indices = ["hashtags", "urls", "user_mentions"].flatMap { kind in
            (entities[kind] as? [[String: Any]] ?? []).flatMap { $0["indices"] as? [Int] ?? [] }
        }
        self.init(
            id: object["id"] as? Int ?? -1, text: object["text"] as? String ?? "", userName: user["name"] as? String ?? "",
            followers: user["followers_count"] as? Int ?? -1, favorited: object["favorited"] as? Bool ?? false,
            indices: indices, replyTo: object["in_reply_to_status_id"] as? Int
        )
    }

    /// The check value of `wire_twitter`: per status, its id modulo 10⁶, the UTF-8 length
    /// of its text and of its author's name, the author's followers, every entity index,
    /// one for a favorite and one for a reply, all modulo 2³².
    static func check(_ digests: [StatusDigest]) -> Int {
        digests.reduce(0) { sum, status in
            let part = status.id % 1_000_000 + status.text.utf8.count + status.userName.utf8.count + status.followers
                + status.indices.reduce(0, +) + (status.favorited ? 1 : 0) + (status.replyTo == nil ? 0 : 1)
            return (sum + part) % (1 << 32)
        }
    }
}

// MARK: - Canada

/// One feature of the Canada-shaped corpus, as an app declares it.
struct Feature: Codable {
    struct Properties: Codable {
        let name: String
    }
    struct Geometry: Codable {
        let type: String
        let coordinates: [[[Double]]]
    }
    let type: String
    let properties: Properties
    let geometry: Geometry
}

/// The whole Canada-shaped document, for `JSONDecoder`.
struct FeatureCollection: Codable {
    let type: String
    let features: [Feature]
}

/// A feature as a Keel model.
final class Outline: Model {}

/// The check value of `wire_canada`: the number of points plus every coordinate in
/// thousandths, rounded, all modulo 2³²; `points` gives each point's two coordinates.
func outlineCheck(_ points: some Sequence<(Double, Double)>) -> Int {
    var sum = 0
    for (x, y) in points {
        sum = (sum + 1 + Int((x * 1_000).rounded()) + Int((y * 1_000).rounded())) & 0xFFFF_FFFF
    }
    return sum
}

extension Feature {
    /// Every point of the feature's rings.
    var points: [(Double, Double)] {
        geometry.coordinates.flatMap { ring in ring.map { ($0[0], $0[1]) } }
    }
}

/// Every point of a feature, from Keel's value of it.
func outlinePoints(_ feature: JSONValue) -> [(Double, Double)] {
    (feature["geometry"]?["coordinates"]?.arrayValue ?? []).flatMap { ring in
        (ring.arrayValue ?? []).map { ($0[0]?.doubleValue ?? .nan, $0[1]?.doubleValue ?? .nan) }
    }
}

/// Every point of a feature, from `JSONSerialization`'s value of it.
func outlinePoints(_ feature: Any) -> [(Double, Double)] {
    let geometry = (feature as? [String: Any])?["geometry"] as? [String: Any]
    return (geometry?["coordinates"] as? [[[Double]]] ?? []).flatMap { ring in ring.map { ($0[0], $0[1]) } }
}
