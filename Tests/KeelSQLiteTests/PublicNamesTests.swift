import Foundation
import Keel
import KeelSQLite
import Observation
import Synchronization
import Testing

/// Every public type of Keel and KeelSQLite can be named without its module next to Foundation.
///
/// Apps import Keel next to Foundation, so no public type may share a name with a type of
/// Foundation or the standard library: the app would have to write `Keel.Name`. This file
/// names every public type without its module, next to those imports, so a clash stops it
/// from compiling. `Collection` is the one deliberate exception, and it resolves to Keel's
/// class, as the README promises.
struct PublicNamesTests {
    /// Every public top-level type, written as an app writes it.
    static let types: KeyValuePairs<String, Any.Type> = [
        "AtomicOperations": AtomicOperations.self,
        "AttributeKey": AttributeKey<String>.self,
        "AttributeRole": AttributeRole.self,
        "AttributeValues": AttributeValues<String>.self,
        "Attributes": Attributes.self,
        "BatchOperation": BatchOperation.self,
        "BatchProgress": BatchProgress.self,
        "BatchResult": BatchResult<Model>.self,
        "BelongsTo": BelongsTo<Model>.self,
        "BodyCodec": (any BodyCodec).self,
        "BodyCodecError": BodyCodecError.self,
        "BodyCodecs": BodyCodecs.self,
        "BodyEncoding": BodyEncoding.self,
        "CachePolicy": CachePolicy.self,
        "CancellableSync": CancellableSync.self,
        "ChangeBatch": ChangeBatch.self,
        "ChangeOptions": ChangeOptions.self,
        "ChangeReceiving": (any ChangeReceiving).self,
        "Collection": Collection<Model>.self,
        "CollectionChanges": CollectionChanges.self,
        "CollectionError": CollectionError.self,
        "ConcurrencyLimitedSync": ConcurrencyLimitedSync.self,
        "ConditionalSync": ConditionalSync.self,
        "CrossOriginRedirectGuard": CrossOriginRedirectGuard.self,
        "DateFormat": DateFormat.self,
        "DateFormatError": DateFormatError.self,
        "DeduplicatingSync": DeduplicatingSync.self,
        "DrupalFields": DrupalFields.self,
        "DrupalFilter": DrupalFilter.self,
        "DrupalSession": DrupalSession.self,
        "Event": Event.self,
        "EventEmitter": EventEmitter.self,
        "EventListener": EventListener.self,
        "EventName": EventName.self,
        "EventStream": EventStream.self,
        "ExternalChangeReporting": (any ExternalChangeReporting).self,
        "FilePart": FilePart.self,
        "Findable": (any Findable).self,
        "FormURLEncodedBodyCodec": FormURLEncodedBodyCodec.self,
        "FormNotation": FormNotation.self,
        "HTTPTransport": (any HTTPTransport).self,
        "HasMany": HasMany<Model>.self,
        "HasOne": HasOne<Model>.self,
        "InMemoryPushSource": InMemoryPushSource.self,
        "InMemorySync": InMemorySync.self,
        "IncrementalPull": IncrementalPull.self,
        "JSONAPIFormat": JSONAPIFormat.self,
        "JSONBodyCodec": JSONBodyCodec.self,
        "JSONArray": JSONArray.self,
        "JSONObject": JSONObject.self,
        "JSONParseError": JSONParseError.self,
        "JSONRepresentable": (any JSONRepresentable).self,
        "JSONValue": JSONValue.self,
        "JSONValueDecoder": JSONValueDecoder.self,
        "JSONValueEncoder": JSONValueEncoder.self,
        "JSONWriteError": JSONWriteError.self,
        "JSONWriteOptions": JSONWriteOptions.self,
        "KeyConvention": KeyConvention.self,
        "KeyMapping": KeyMapping.self,
        "LiveQuery": LiveQuery<Model>.self,
        "LoggingSync": LoggingSync.self,
        "Model": Model.self,
        "ModelCollection": (any ModelCollection).self,
        "ModelComparator": ModelComparator<Model>.self,
        "ModelRegistration": ModelRegistration.self,
        "ModelRegistrationReceiving": (any ModelRegistrationReceiving).self,
        "ModelSnapshot": ModelSnapshot.self,
        "ModelSnapshotError": ModelSnapshotError.self,
        "MultipartForm": MultipartForm.self,
        "PageStyle": PageStyle.self,
        "Paginator": Paginator<Model>.self,
        "PlainTextBodyCodec": PlainTextBodyCodec.self,
        "PullReport": PullReport.self,
        "PushSource": (any PushSource).self,
        "PushedChange": PushedChange.self,
        "QueryFilter": QueryFilter<Model>.self,
        "QuerySection": QuerySection<Model>.self,
        "QuerySnapshots": QuerySnapshots<Model>.self,
        "RESTSync": RESTSync.self,
        "RecordStore": (any RecordStore).self,
        "RecordStoreSync": RecordStoreSync<DictionaryStore>.self,
        "RecordVersion": RecordVersion.self,
        "RelatedModelFactory": RelatedModelFactory.self,
        "Relation": (any Relation).self,
        "RelationEncoding": RelationEncoding.self,
        "RemoteChange": RemoteChange.self,
        "RequestBody": RequestBody.self,
        "RequestLink": RequestLink.self,
        "ResourceSelection": ResourceSelection.self,
        "ResponseContext": ResponseContext.self,
        "ResponseMapping": ResponseMapping.self,
        "ResponseMappings": ResponseMappings.self,
        "RetryingSync": RetryingSync.self,
        "Route": Route.self,
        "Routes": Routes.self,
        "RootWrapping": RootWrapping.self,
        "ServerChangeStore": (any ServerChangeStore).self,
        "ServerSentEvent": ServerSentEvent.self,
        "ServerSentEventSource": ServerSentEventSource.self,
        "StoreRefusal": StoreRefusal.self,
        "Store": Store.self,
        "StoreError": StoreError.self,
        "StoredChanges": StoredChanges.self,
        "Subscription": Subscription.self,
        "Sync": (any Sync).self,
        "SyncError": SyncError.self,
        "SyncDecorator": (any SyncDecorator).self,
        "SyncLogEntry": SyncLogEntry.self,
        "SyncLogRedaction": SyncLogRedaction.self,
        "SyncMethod": SyncMethod.self,
        "SyncOptions": SyncOptions.self,
        "SyncRequest": SyncRequest.self,
        "SyncResponse": SyncResponse.self,
        "SyncState": SyncState.self,
        "SyncStateReporting": (any SyncStateReporting).self,
        "ToManyMode": ToManyMode.self,
        "TokenAuthSync": TokenAuthSync.self,
        "TransactionalSync": (any TransactionalSync).self,
        "UpdateOptions": UpdateOptions.self,
        "UpdateVerb": UpdateVerb.self,
        "UploadProgress": UploadProgress.self,
        "ValidationError": ValidationError.self,
        "WireFormat": WireFormat.self,
        // KeelSQLite
        "CachingSync": CachingSync.self,
        "ConflictPolicy": ConflictPolicy.self,
        "ConflictResolution": ConflictResolution.self,
        "ForeignKey": ForeignKey.self,
        "IdentityMap": IdentityMap.self,
        "IdentityMapError": IdentityMapError.self,
        "OfflineStore": (any OfflineStore).self,
        "QueuedChange": QueuedChange.self,
        "ReadPolicy": ReadPolicy.self,
        "RemoteRecord": RemoteRecord.self,
        "ReplayReport": ReplayReport.self,
        "RewrittenRecord": RewrittenRecord.self,
        "SQLiteDamagedRecord": SQLiteDamagedRecord.self,
        "SQLiteOfflineStore": SQLiteOfflineStore.self,
        "SQLiteStoreError": SQLiteStoreError.self,
        "SQLiteSync": SQLiteSync.self,
        "SQLiteTransaction": SQLiteTransaction.self,
        "SyncConflict": SyncConflict.self,
        "TemporaryID": TemporaryID.self,
        "VersionCheck": VersionCheck.self,
    ]

    @Test func collectionMeansKeelsClassNextToFoundation() {
        let notes = Collection<Model>()
        #expect(notes.count == 0)
        #expect(type(of: notes) == Keel.Collection<Model>.self)
    }

    @Test func comparatorsAreNamedWithoutAModulePrefix() {
        let comparator: ModelComparator<Model> = .attribute("rank")
        let notes = Collection<Model>([["rank": 2], ["rank": 1]], comparator: comparator)
        #expect(notes.map { $0["rank"] } == [1, 2])
    }

    /// A new public type must be added to ``types``, so that this file keeps checking it.
    @Test func everyPublicTypeIsNamedHere() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var declared: Set<String> = []
        for module in ["Keel", "KeelSQLite"] {
            let folder = root.appendingPathComponent("Sources/\(module)", isDirectory: true)
            let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            for case let file as URL in files where file.pathExtension == "swift" {
                let source = try String(contentsOf: file, encoding: .utf8)
                for line in source.split(separator: "\n") {
                    if let name = Self.publicTypeName(declaredBy: line) { declared.insert(name) }
                }
            }
        }
        let named = Set(Self.types.map(\.key))
        #expect(declared.count > 30, "the sources were found and scanned")
        #expect(
            declared.subtracting(named).isEmpty,
            "Add \(declared.subtracting(named).sorted()) to PublicNamesTests.types, unqualified"
        )
        #expect(
            named.subtracting(declared).isEmpty,
            "\(named.subtracting(declared).sorted()) are no longer public types"
        )
    }

    /// The name a top-level (unindented) public declaration of a type gives, such as
    /// `Model` for `open class Model: EventEmitter, Observable {`.
    static func publicTypeName(declaredBy line: Substring) -> String? {
        var words = line.split(separator: " ")[...]
        while let first = words.first, first.hasPrefix("@") || first == "nonisolated" { words.removeFirst() }
        guard line.first?.isWhitespace == false, let access = words.popFirst(), ["public", "open"].contains(access)
        else { return nil }
        while let first = words.first, ["final", "indirect"].contains(first) { words.removeFirst() }
        guard let kind = words.popFirst(),
            ["class", "struct", "enum", "protocol", "typealias", "actor"].contains(kind),
            let declaration = words.first
        else { return nil }
        let name = declaration.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return name.isEmpty ? nil : String(name)
    }
}
