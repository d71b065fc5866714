import Keel

/// One model class per wire format, with a record and a list as that format's server sends
/// them: the fixtures of the server-data entry point tests.
enum ServerDataDialect: String, CaseIterable, Sendable {
    case plain, rails, djangoREST, drupal, drupal7, jsonAPI

    enum Plain {
        final class Note: Model {
            override class var keepsRemoteAttributes: Bool { true }
            static let comments = HasMany<Comment>("comments")
            override class var urlRoot: String? { "/notes" }
            override class var relations: [any Relation] { [comments] }
        }

        final class Comment: Model {}
    }

    enum Rails {
        final class Note: Model {
            override class var keepsRemoteAttributes: Bool { true }
            static let comments = HasMany<Comment>("comments")
            override class var urlRoot: String? { "/notes" }
            override class var wireFormat: WireFormat { .rails }
            override class var relations: [any Relation] { [comments] }
        }

        final class Comment: Model {
            override class var wireFormat: WireFormat { .rails }
        }
    }

    enum DjangoREST {
        final class Note: Model {
            override class var keepsRemoteAttributes: Bool { true }
            static let comments = HasMany<Comment>("comments")
            override class var urlRoot: String? { "/notes" }
            override class var wireFormat: WireFormat { .djangoREST }
            override class var relations: [any Relation] { [comments] }
        }

        final class Comment: Model {
            override class var wireFormat: WireFormat { .djangoREST }
        }
    }

    enum Drupal {
        final class Article: Model {
            override class var keepsRemoteAttributes: Bool { true }
            override class var urlRoot: String? { "/node" }
            override class var wireFormat: WireFormat { .drupal }
        }

        final class Story: Model {
            override class var keepsRemoteAttributes: Bool { true }
            override class var urlRoot: String? { "/d7/node" }
            override class var wireFormat: WireFormat { .drupal7 }
        }
    }

    enum API {
        final class Note: Model {
            override class var keepsRemoteAttributes: Bool { true }
            static let comments = HasMany<Comment>("comments")
            override class var urlRoot: String? { "/notes" }
            override class var wireFormat: WireFormat { .jsonAPI(type: "notes") }
            override class var relations: [any Relation] { [comments] }
        }

        final class Comment: Model {
            override class var wireFormat: WireFormat { .jsonAPI(type: "comments") }
        }
    }

    /// One record as the server sends it, with id `id`.
    func record(id: Int) -> JSONValue {
        switch self {
        case .plain:
            return [
                "id": .int(id), "title": "Milk", "dueAt": "2026-12-01", "comments": [["id": 5, "bodyText": "Yes"]],
            ]
        case .rails:
            return ["note": Self.snakeCaseNote(id: id)]
        case .djangoREST:
            return Self.snakeCaseNote(id: id)
        case .drupal:
            return [
                "nid": [["value": .int(id)]], "uuid": [["value": "0b7a"]],
                "type": [["target_id": "article", "target_type": "node_type"]], "title": [["value": "Hello"]],
                "uid": [["target_id": 1, "target_type": "user"]], "field_tags": [["target_id": 3], ["target_id": 4]],
            ]
        case .drupal7:
            return [
                "nid": .string(String(id)), "title": "Hi", "type": "article",
                "body": ["und": [["value": "Text", "summary": "", "format": "filtered_html"]]],
                "field_tags": ["und": [["tid": "3"]]], "field_empty": [],
            ]
        case .jsonAPI:
            return ["data": Self.resource(id: id), "included": Self.included]
        }
    }

    /// A list of two records as the server sends it.
    var list: JSONValue {
        switch self {
        case .plain, .drupal, .drupal7:
            return [record(id: 1), record(id: 2)]
        case .rails:
            return ["notes": [Self.snakeCaseNote(id: 1), Self.snakeCaseNote(id: 2)]]
        case .djangoREST:
            return [
                "count": 2, "next": nil, "previous": nil,
                "results": [Self.snakeCaseNote(id: 1), Self.snakeCaseNote(id: 2)],
            ]
        case .jsonAPI:
            return ["data": [Self.resource(id: 1), Self.resource(id: 2)], "included": Self.included]
        }
    }

    /// The class's related models, for comparing whole graphs.
    func related(of model: Model) -> [Model] {
        switch model {
        case let note as Plain.Note: return note[Plain.Note.comments].models
        case let note as Rails.Note: return note[Rails.Note.comments].models
        case let note as DjangoREST.Note: return note[DjangoREST.Note.comments].models
        case let note as API.Note: return note[API.Note.comments].models
        default: return []
        }
    }

    private static func snakeCaseNote(id: Int) -> JSONValue {
        [
            "id": .int(id), "title": "Milk", "due_at": "2026-12-01", "created_at": "2026-11-01T08:00:00Z",
            "comments": [["id": 5, "body_text": "Yes", "created_at": "2026-11-02T08:00:00Z"]],
        ]
    }

    private static func resource(id: Int) -> JSONValue {
        [
            "type": "notes", "id": .string(String(id)), "attributes": ["title": "Milk", "dueAt": "2026-12-01"],
            "relationships": ["comments": ["data": [["type": "comments", "id": "5"]]]],
        ]
    }

    private static let included: JSONValue = [["type": "comments", "id": "5", "attributes": ["bodyText": "Yes"]]]
}

/// A check that runs with a dialect's model class as a generic parameter (for `Collection<M>`).
@MainActor
protocol ModelClassCheck {
    func callAsFunction<M: Model>(_ type: M.Type, _ dialect: ServerDataDialect) async throws
}

extension ServerDataDialect {
    /// The dialect's model class.
    var modelType: Model.Type {
        switch self {
        case .plain: return Plain.Note.self
        case .rails: return Rails.Note.self
        case .djangoREST: return DjangoREST.Note.self
        case .drupal: return Drupal.Article.self
        case .drupal7: return Drupal.Story.self
        case .jsonAPI: return API.Note.self
        }
    }

    /// Runs a check with the dialect's model class.
    @MainActor
    func run(_ check: some ModelClassCheck) async throws {
        switch self {
        case .plain: try await check(Plain.Note.self, self)
        case .rails: try await check(Rails.Note.self, self)
        case .djangoREST: try await check(DjangoREST.Note.self, self)
        case .drupal: try await check(Drupal.Article.self, self)
        case .drupal7: try await check(Drupal.Story.self, self)
        case .jsonAPI: try await check(API.Note.self, self)
        }
    }

    /// A model's attributes followed by its related models'.
    func graph(_ model: Model) -> [Attributes] {
        [model.attributes] + related(of: model).map(\.attributes)
    }
}
