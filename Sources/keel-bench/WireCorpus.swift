import Keel

/// The JSON texts of `wire_twitter` and `wire_canada`, generated with the specification's
/// LCG so that every run (and both sides) parse the same bytes, without a file.
///
/// They have the character of the two corpora that JSON libraries are compared on:
/// `twitter.json` (search results: Unicode text in several scripts and emoji, nested user
/// objects and entities, many short strings and small integers) and `canada.json` (one
/// GeoJSON country outline: long arrays of coordinate pairs, doubles of 15–17 digits).
enum WireCorpus {
    /// How many statuses the Twitter-shaped corpus has.
    static let statusCount = 1_000
    /// How many features, rings per feature and points per ring the Canada-shaped corpus has:
    /// 111,360 points, as many as `canada.json`'s 111,126 give or take.
    static let features = 10, ringsPerFeature = 48, pointsPerRing = 232
    /// How many points the Canada-shaped corpus has.
    static var pointCount: Int { features * ringsPerFeature * pointsPerRing }

    // MARK: - Twitter

    private static let words = [
        "the", "release", "café", "naïve", "Zürich", "東京", "今日は", "ありがとう", "新しい", "日本語",
        "🎉", "😀", "🚀", "こんにちは", "Москва", "привет", "données", "señor", "über", "ok",
        "swift", "json", "keel", "model", "a\"quote", "line\nbreak", "tab\there", "中文", "한국어", "ok!",
    ]
    private static let places = ["東京都", "Montréal", "São Paulo", "", "Berlin", "서울", "New York, NY", "🌍"]

    /// The Twitter-shaped corpus: `{"statuses": [...], "search_metadata": {...}}`.
    static func twitter() -> JSONValue {
        var random = ParkMiller(seed: 42)
        let statuses = (0..<statusCount).map { status($0, random: &random) }
        return [
            "statuses": .array(statuses),
            "search_metadata": [
                "completed_in": 0.087, "max_id": .int(505_874_924_095_815_681), "query": "%E4%B8%80",
                "count": .int(statusCount), "since_id": 0,
            ],
        ]
    }

    private static func text(words count: Int, random: inout ParkMiller) -> String {
        (0..<count).map { _ in words[random.next() % words.count] }.joined(separator: " ")
    }

    private static func status(_ index: Int, random: inout ParkMiller) -> JSONValue {
        let id = 505_874_924_095_815_681 - index * 7
        let user = random.next() % 5_000
        let hashtags: [JSONValue] = (0..<(random.next() % 3)).map { k in
            ["text": .string(text(words: 1, random: &random)), "indices": [.int(k * 10), .int(k * 10 + 6)]]
        }
        let urls: [JSONValue] = (0..<(random.next() % 2)).map { k in
            [
                "url": .string("http://t.co/\(random.next() % 100_000)"),
                "expanded_url": .string("https://example.com/\(index)/\(k)"),
                "display_url": .string("example.com/\(index)/\(k)"), "indices": [40, 62],
            ]
        }
        let mentions: [JSONValue] = (0..<(random.next() % 3)).map { k in
            let mentioned = random.next() % 5_000
            return [
                "screen_name": .string("user\(mentioned)"), "name": .string(text(words: 2, random: &random)),
                "id": .int(mentioned), "id_str": .string(String(mentioned)), "indices": [.int(k * 8), .int(k * 8 + 7)],
            ]
        }
        let replyTo: JSONValue = random.next() % 4 == 0 ? .int(id - 1_000) : .null
        return [
            "id": .int(id), "id_str": .string(String(id)),
            "created_at": .string("Sun Aug 31 00:\(10 + index % 50):\(10 + index % 49) +0000 2014"),
            "text": .string(text(words: 4 + random.next() % 12, random: &random)),
            "source": "<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Mobile Web (M2)</a>",
            "truncated": false, "in_reply_to_status_id": replyTo,
            "user": [
                "id": .int(user), "id_str": .string(String(user)), "name": .string(text(words: 2, random: &random)),
                "screen_name": .string("user\(user)"), "location": .string(places[random.next() % places.count]),
                "description": .string(text(words: 6 + random.next() % 10, random: &random)),
                "followers_count": .int(random.next() % 100_000), "friends_count": .int(random.next() % 2_000),
                "verified": .bool(random.next() % 10 == 0), "lang": "ja",
                "profile_image_url": .string("http://pbs.twimg.com/profile_images/\(user)/normal.jpeg"),
            ],
            "entities": ["hashtags": .array(hashtags), "urls": .array(urls), "user_mentions": .array(mentions)],
            "retweet_count": .int(random.next() % 1_000), "favorite_count": .int(random.next() % 1_000),
            "favorited": .bool(random.next() % 2 == 0), "retweeted": false, "lang": "ja",
        ]
    }

    // MARK: - Canada

    /// The Canada-shaped corpus: a GeoJSON `FeatureCollection` of polygons.
    static func canada() -> JSONValue {
        var random = ParkMiller(seed: 7)
        func coordinate(_ low: Double, _ span: Double) -> JSONValue {
            .double(low + Double(random.next()) / 2_147_483_647 * span)
        }
        let features: [JSONValue] = (0..<features).map { feature in
            let rings: [JSONValue] = (0..<ringsPerFeature).map { _ in
                .array((0..<pointsPerRing).map { _ in [coordinate(-141, 88), coordinate(41.7, 41.3)] })
            }
            return [
                "type": "Feature", "properties": ["name": .string("Canada \(feature)")],
                "geometry": ["type": "Polygon", "coordinates": .array(rings)],
            ]
        }
        return ["type": "FeatureCollection", "features": .array(features)]
    }
}
