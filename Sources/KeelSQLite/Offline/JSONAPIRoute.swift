import Foundation
import Keel

/// Where a JSON:API server routes a resource type by default, for the `included` resources
/// of a type that neither the configuration nor a `Store` gave a collection.
///
/// JSON:API servers route a type's collection at the type's name, beside the collection the
/// document's primary data came from: `included` `people` of a `/jsonapi/articles` list live
/// in `/jsonapi/people` (Rails' jsonapi-resources, Ember Data's default adapter, Laravel,
/// djangorestframework-jsonapi with plural type names). Drupal's `entity--bundle` types live
/// at `entity/bundle` (`user--user` beside `/jsonapi/node/article` is `/jsonapi/user/user`).
/// A type that is not safe as path segments (empty, `..`, or other than letters, digits,
/// `-`, `_` and `.`) has no route.
enum JSONAPIRoute {
    /// The collection of `type` beside the collection `primary`, whose resources are of
    /// `primaryType` when it is known; `nil` for a type with no route.
    ///
    /// The namespace is `primary` without its own type's route (`/jsonapi` for
    /// `/jsonapi/node/article` of `node--article`), else `primary`'s parent.
    static func collection(of type: String, besides primary: String, primaryType: String?) -> String? {
        guard let route = route(of: type) else { return nil }
        return CachePath.normalized(namespace(of: primary, primaryType: primaryType) + "/" + route)
    }

    /// The path a type is routed at under its namespace: `people`, `node/article`.
    static func route(of type: String) -> String? {
        let segments = type.components(separatedBy: "--")
        guard segments.allSatisfy(isSafe) else { return nil }
        return segments.joined(separator: "/")
    }

    private static func namespace(of primary: String, primaryType: String?) -> String {
        let path = CachePath.normalized(primary)
        if let primaryType, let route = route(of: primaryType), path.hasSuffix("/" + route) {
            return String(path.dropLast(route.count + 1))
        }
        return ResourcePath(URL(string: path) ?? URL(filePath: path)).parent ?? ""
    }

    private static func isSafe(_ segment: String) -> Bool {
        !segment.isEmpty && segment != "." && segment != ".."
            && segment.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
    }
}
