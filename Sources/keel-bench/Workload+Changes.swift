extension Workload {
    /// The change workloads of issue 31: an incremental pull against a full refetch, and
    /// the apply cost of pushed changes.
    static var changes: [Workload] {
        [
            Workload(
                name: "change_pull",
                ops: changePullChanges,
                expectedCheck: 2_480,
                keel: KeelTrials.changePull(expiringCursors: false),
                floor: FloorTrials.changePull(),
                comparisons: [Comparison(name: "full_refetch", trial: KeelTrials.changePull(expiringCursors: true))]
            ),
            Workload(
                name: "change_push_apply",
                ops: pushedChanges,
                expectedCheck: 247_788,
                keel: KeelTrials.pushApply(),
                floor: FloorTrials.pushApply()
            ),
        ]
    }
}
