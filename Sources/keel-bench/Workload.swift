/// One of the benchmark workloads of `Benchmarks/README.md`: the work done through Keel, the
/// same work in plain Swift (the machine floor and, for some, the same-work floor), and the
/// check value each must produce.
struct Workload {
    /// The name used in the output and in `WORKLOADS`, such as `"set_change"`.
    let name: String
    /// How many operations one timed run performs.
    let ops: Int
    /// The value every run's verification must return; it proves the work was done.
    let expectedCheck: Int
    /// The work through Keel's public API.
    let keel: Trial
    /// The machine floor: the same work with values by slot, arrays and closures.
    let floor: Trial
    /// The same-work floor (``SameWorkTrials``): the same work through an API of the same shape
    /// as Keel's; `nil` where none is written yet.
    let sameWorkFloor: Trial?
    /// Further ways to do the same work, measured beside Keel and the floors and reported
    /// under their names (`wire_twitter`'s `Model.decode` path and `JSONSerialization`).
    let comparisons: [Comparison]

    init(
        name: String,
        ops: Int,
        expectedCheck: Int,
        keel: Trial,
        floor: Trial,
        sameWorkFloor: Trial? = nil,
        comparisons: [Comparison] = []
    ) {
        self.name = name
        self.ops = ops
        self.expectedCheck = expectedCheck
        self.keel = keel
        self.floor = floor
        self.sameWorkFloor = sameWorkFloor
        self.comparisons = comparisons
    }
}

/// A further trial of a workload, with the name that prefixes its fields in the report.
///
/// ```swift
/// Comparison(name: "parse_reset", trial: KeelTrials.parseReset(count: 2_000), ops: 2_000, expectedCheck: 42)
/// ```
struct Comparison {
    /// The prefix of its fields, such as `"codable"` for `codable_total_ms`.
    let name: String
    /// The trial.
    let trial: Trial
    /// How many operations one run performs, where it is not the workload's.
    let ops: Int?
    /// The check value it must produce, where it is not the workload's.
    let expectedCheck: Int?

    init(name: String, trial: Trial, ops: Int? = nil, expectedCheck: Int? = nil) {
        self.name = name
        self.trial = trial
        self.ops = ops
        self.expectedCheck = expectedCheck
    }
}

extension Workload {
    /// Every workload, in the order of the specification.
    static var all: [Workload] {
        [
            Workload(
                name: "set_change",
                ops: 1_000_000,
                expectedCheck: 2_000_000,
                keel: KeelTrials.setChange(),
                floor: FloorTrials.setChange(),
                sameWorkFloor: SameWorkTrials.setChange()
            ),
            Workload(
                name: "set_nochange",
                ops: 1_000_000,
                expectedCheck: 0,
                keel: KeelTrials.setNoChange(),
                floor: FloorTrials.setNoChange(),
                sameWorkFloor: SameWorkTrials.setNoChange()
            ),
            Workload(
                name: "construct",
                ops: 200_000,
                expectedCheck: 9_900_000,
                keel: KeelTrials.construct(),
                floor: FloorTrials.construct(),
                sameWorkFloor: SameWorkTrials.construct()
            ),
            Workload(
                name: "coll_add",
                ops: 100_000,
                expectedCheck: 921_457_440,
                keel: KeelTrials.collectionAdd(),
                floor: FloorTrials.collectionAdd(),
                sameWorkFloor: SameWorkTrials.collectionAdd()
            ),
            Workload(
                name: "coll_get",
                ops: 1_000_000,
                expectedCheck: 49_500_000,
                keel: KeelTrials.collectionGet(),
                floor: FloorTrials.collectionGet(),
                sameWorkFloor: SameWorkTrials.collectionGet()
            ),
            Workload(
                name: "coll_sort",
                ops: 5,
                expectedCheck: 688_006_713,
                keel: KeelTrials.collectionSort(),
                floor: FloorTrials.collectionSort(),
                sameWorkFloor: SameWorkTrials.collectionSort()
            ),
            Workload(
                name: "coll_set_merge",
                ops: 100_000,
                expectedCheck: 1_965_091_872,
                keel: KeelTrials.collectionSetMerge(),
                floor: FloorTrials.collectionSetMerge(),
                sameWorkFloor: SameWorkTrials.collectionSetMerge()
            ),
            Workload(
                name: "parse_reset",
                ops: 100_000,
                expectedCheck: 921_457_440,
                keel: KeelTrials.parseReset(),
                floor: FloorTrials.parseReset()
            ),
            Workload(
                name: "trigger_10",
                ops: 1_000_000,
                expectedCheck: 10_000_000,
                keel: KeelTrials.trigger10(),
                floor: FloorTrials.trigger10(),
                sameWorkFloor: SameWorkTrials.trigger10()
            ),
            Workload(
                name: "listen_stop",
                ops: 100_000,
                expectedCheck: 0,
                keel: KeelTrials.listenStop(),
                floor: FloorTrials.listenStop(),
                sameWorkFloor: SameWorkTrials.listenStop()
            ),
            Workload(
                name: "bubble",
                ops: 1_000_000,
                expectedCheck: 1_000_000,
                keel: KeelTrials.bubble(),
                floor: FloorTrials.bubble(),
                sameWorkFloor: SameWorkTrials.bubble()
            ),
            Workload(
                name: "coll_remove",
                ops: 20_000,
                expectedCheck: 2_440_613_143,
                keel: KeelTrials.collectionRemove(),
                floor: FloorTrials.collectionRemove(),
                sameWorkFloor: SameWorkTrials.collectionRemove()
            ),
            Workload(
                name: "nested_merge",
                ops: 10_000,
                expectedCheck: 3_542_305_648,
                keel: KeelTrials.nestedMerge(),
                floor: FloorTrials.nestedMerge(),
                sameWorkFloor: SameWorkTrials.nestedMerge()
            ),
            Workload(
                name: "sync_fetch",
                ops: syncFetchRounds,
                expectedCheck: 33_334_089_000,
                keel: KeelTrials.syncFetch(),
                floor: FloorTrials.syncFetch()
            ),
            Workload(
                name: "store_write_read",
                ops: storeRecords,
                expectedCheck: 2_621_432_098,
                keel: KeelTrials.storeWriteRead(inMemory: false),
                floor: FloorTrials.storeWriteRead(inMemory: false),
                sameWorkFloor: SameWorkTrials.storeWriteRead(inMemory: false)
            ),
            Workload(
                name: "store_write_read_memory",
                ops: storeRecords,
                expectedCheck: 2_621_432_098,
                keel: KeelTrials.storeWriteRead(inMemory: true),
                floor: FloorTrials.storeWriteRead(inMemory: true),
                sameWorkFloor: SameWorkTrials.storeWriteRead(inMemory: true)
            ),
            Workload(
                name: "set_typed_change",
                ops: 1_000_000,
                expectedCheck: 2_000_000,
                keel: KeelTrials.setTypedChange(),
                floor: FloorTrials.setChange(),
                sameWorkFloor: SameWorkTrials.setTypedChange()
            ),
            Workload(
                name: "set_typed_nochange",
                ops: 1_000_000,
                expectedCheck: 0,
                keel: KeelTrials.setTypedNoChange(),
                floor: FloorTrials.setNoChange(),
                sameWorkFloor: SameWorkTrials.setTypedNoChange()
            ),
        ] + anchors + changes
    }

    /// The anchors of issue 33: what users compare Keel with now.
    static var anchors: [Workload] {
        [
            Workload(
                name: "store_fetch_all_10k",
                ops: 10_000,
                expectedCheck: 2_620_937_098,
                keel: KeelTrials.storeFetchAll(records: 10_000),
                floor: FloorTrials.storeFetchAll(records: 10_000)
            ),
            Workload(
                name: "store_fetch_all_100k",
                ops: 100_000,
                expectedCheck: 922_446_330,
                keel: KeelTrials.storeFetchAll(records: 100_000),
                floor: FloorTrials.storeFetchAll(records: 100_000)
            ),
            wire(.twitter, name: "wire_twitter", ops: WireCorpus.statusCount, expectedCheck: 862_390_359),
            wire(.canada, name: "wire_canada", ops: WireCorpus.pointCount, expectedCheck: 421_982_360),
            Workload(
                name: "store_read_by_id",
                ops: storeSingleReads,
                expectedCheck: 10_090_000,
                keel: KeelTrials.storeReadByID(),
                floor: FloorTrials.storeReadByID()
            ),
            Workload(
                name: "store_create",
                ops: storeRecords,
                expectedCheck: 2_670_853_208,
                keel: KeelTrials.storeCreate(),
                floor: FloorTrials.storeCreate()
            ),
            Workload(
                name: "bulk_relations",
                ops: bulkPosts,
                expectedCheck: 971_408_440,
                keel: KeelTrials.bulkRelations(),
                floor: FloorTrials.bulkRelations()
            ),
            Workload(
                name: "jsonapi_compound",
                ops: compoundArticles,
                expectedCheck: 333_833_500,
                keel: KeelTrials.compoundDocument(),
                floor: FloorTrials.compoundDocument(),
                comparisons: [
                    Comparison(
                        name: "parse_reset",
                        trial: KeelTrials.parseReset(count: compoundModels),
                        ops: compoundModels,
                        expectedCheck: 2_666_666_000
                    )
                ]
            ),
            Workload(
                name: "store_save",
                ops: storeRecords,
                expectedCheck: 2_620_997_098,
                keel: KeelTrials.storeSave(),
                floor: FloorTrials.storeSave()
            ),
            Workload(
                name: "store_destroy",
                ops: storeRecords,
                expectedCheck: 2_620_848_208,
                keel: KeelTrials.storeDestroy(),
                floor: FloorTrials.storeDestroy()
            ),
            Workload(
                name: "store_create_inplace",
                ops: storeRecords,
                expectedCheck: 2_670_853_208,
                keel: KeelTrials.storeCreate(writesOnCallingThread: true),
                floor: FloorTrials.storeCreate()
            ),
            Workload(
                name: "store_save_inplace",
                ops: storeRecords,
                expectedCheck: 2_620_997_098,
                keel: KeelTrials.storeSave(writesOnCallingThread: true),
                floor: FloorTrials.storeSave()
            ),
            Workload(
                name: "store_destroy_inplace",
                ops: storeRecords,
                expectedCheck: 2_620_848_208,
                keel: KeelTrials.storeDestroy(writesOnCallingThread: true),
                floor: FloorTrials.storeDestroy()
            ),
        ]
    }

    /// A `wire_*` workload: Keel's parse into models against `JSONDecoder` into structs,
    /// with Keel's `Model.decode` path and `JSONSerialization` beside them.
    private static func wire(_ shape: WireShape, name: String, ops: Int, expectedCheck: Int) -> Workload {
        Workload(
            name: name,
            ops: ops,
            expectedCheck: expectedCheck,
            keel: KeelTrials.wire(shape),
            floor: FloorTrials.wireDecoder(shape),
            comparisons: [
                Comparison(name: "codable", trial: KeelTrials.wireCodable(shape)),
                Comparison(name: "json_serialization", trial: FloorTrials.wireSerialization(shape)),
            ]
        )
    }
}
