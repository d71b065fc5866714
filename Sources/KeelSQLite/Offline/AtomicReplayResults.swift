import Keel

/// The `atomic:results` of an applied batch, paired with its operations, each turned into
/// the answer a request of its own would have had (`{"data": resource}`).
///
/// One result per operation pairs by position; so does one per add and update, since
/// drf-json-api-atomic-operations leaves out the results of removals. Otherwise a result
/// pairs with the add whose `lid` it echoes, or the update of its `type` and `id`.
struct AtomicReplayResults {
    private let response: SyncResponse
    private var paired: [Int: JSONValue] = [:]
    /// Why some results could not be paired, or `nil` when they all could.
    private(set) var problem: String?
    private let batch: AtomicReplayBatch

    init(_ response: SyncResponse, batch: AtomicReplayBatch) {
        self.response = response
        self.batch = batch
        let results = response.body?["atomic:results"]?.arrayValue ?? []
        let operations = batch.operations
        let saves = operations.indices.filter { operations[$0]["op"]?.stringValue != "remove" }
        if results.count == operations.count {
            for index in operations.indices { paired[index] = results[index] }
        } else if results.count == saves.count {
            for (index, result) in zip(saves, results) { paired[index] = result }
        } else {
            problem = "\(results.count) results for \(operations.count) operations"
            for index in saves {
                let sent = operations[index]["data"]
                paired[index] = results.first { result in
                    guard let data = result["data"], data["type"] == sent?["type"] else { return false }
                    if let lid = sent?["lid"] { return data["lid"] == lid }
                    return data["id"] == sent?["id"]
                }
            }
        }
    }

    /// The answer to the operation at `index` as a request of its own: the server's
    /// resource (`nil` body for a removal, or an update the server answered without one);
    /// `nil` when a create got no resource of its type with an id.
    func answer(at index: Int, for change: QueuedChange) -> SyncResponse? {
        var answer = SyncResponse(status: 200, headers: response.headers)
        let data = paired[index]?["data"]
        guard let resource = data?.objectValue, resource["type"]?.stringValue == batch.types[index],
            resource["id"]?.stringValue.map({ !$0.isEmpty }) == true
        else {
            return change.method == .create ? nil : answer
        }
        answer.body = ["data": .object(resource)]
        return answer
    }
}
