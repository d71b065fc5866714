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

    init(name: String, ops: Int, expectedCheck: Int, keel: Trial, floor: Trial, sameWorkFloor: Trial? = nil) {
        self.name = name
        self.ops = ops
        self.expectedCheck = expectedCheck
        self.keel = keel
        self.floor = floor
        self.sameWorkFloor = sameWorkFloor
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
                floor: FloorTrials.collectionAdd()
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
                floor: FloorTrials.collectionSort()
            ),
            Workload(
                name: "coll_set_merge",
                ops: 100_000,
                expectedCheck: 1_965_091_872,
                keel: KeelTrials.collectionSetMerge(),
                floor: FloorTrials.collectionSetMerge()
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
                floor: FloorTrials.trigger10()
            ),
            Workload(
                name: "listen_stop",
                ops: 100_000,
                expectedCheck: 0,
                keel: KeelTrials.listenStop(),
                floor: FloorTrials.listenStop()
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
                floor: FloorTrials.collectionRemove()
            ),
            Workload(
                name: "nested_merge",
                ops: 10_000,
                expectedCheck: 3_542_305_648,
                keel: KeelTrials.nestedMerge(),
                floor: FloorTrials.nestedMerge()
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
                floor: FloorTrials.storeWriteRead(inMemory: false)
            ),
            Workload(
                name: "store_write_read_memory",
                ops: storeRecords,
                expectedCheck: 2_621_432_098,
                keel: KeelTrials.storeWriteRead(inMemory: true),
                floor: FloorTrials.storeWriteRead(inMemory: true)
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
        ]
    }
}
