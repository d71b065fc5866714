#if os(Linux)
    import Foundation

    /// The children of a process, read from `/proc` (Linux), for a test that kills a server
    /// with its workers.
    ///
    ///     let workers = ChildProcesses.of(server)
    ///     for worker in workers { kill(worker, SIGKILL) }
    ///     await ChildProcesses.waitUntilGone(workers)
    enum ChildProcesses {
        /// The processes whose parent is `parent` now.
        static func of(_ parent: pid_t) -> [pid_t] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return entries.compactMap { entry in
                guard let pid = pid_t(entry), let fields = statFields(of: pid), fields.count > 1,
                    pid_t(fields[1]) == parent
                else { return nil }
                return pid
            }
        }

        /// Returns once each process has exited (gone, or a zombie waiting to be reaped), or
        /// after ten seconds.
        static func waitUntilGone(_ pids: [pid_t]) async {
            let deadline = ContinuousClock.now + .seconds(10)
            while pids.contains(where: isRunning), ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(10))
            }
        }

        /// Whether a process exists and has not exited.
        private static func isRunning(_ pid: pid_t) -> Bool {
            guard let state = statFields(of: pid)?.first else { return false }
            return state != "Z" && state != "X"
        }

        /// The fields of `/proc/<pid>/stat` after the command name: state, parent pid, ….
        private static func statFields(of pid: pid_t) -> [Substring]? {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let end = stat.lastIndex(of: ")")
            else { return nil }
            return stat[stat.index(after: end)...].split(separator: " ")
        }
    }
#endif
