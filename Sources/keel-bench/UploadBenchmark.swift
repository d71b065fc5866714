import Foundation
import Keel

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `upload` run: saves a model with a large file (50 MiB by default) to a Django REST
/// framework endpoint that stores it (the test server's `/drf/attachments/`) and reports
/// the peak memory the upload added, which must stay under 20 MiB (issue 14).
///
///     UPLOAD_URL=http://127.0.0.1:8000/drf/attachments/ [UPLOAD_FILE=path] [UPLOAD_BYTES=n] keel-bench
///
/// Prints one JSON object: the file's size, the server's size and SHA-256 of what it
/// stored, the resident memory before the upload (`baseline_kb`, after a small warm-up
/// upload) and its peak during it (`peak_kb`, Linux's `VmHWM` after resetting it through
/// `/proc/self/clear_refs`), their difference (`peak_delta_kb`), and the progress events.
struct UploadBenchmark {
    /// The collection URL to create the record at.
    let url: String
    /// The file to upload, or `nil` to write one of ``generatedBytes`` first.
    let file: URL?
    /// The size of a generated file.
    let generatedBytes: Int

    /// The run the environment asks for, or `nil` without `UPLOAD_URL`.
    init?(environment: [String: String]) {
        guard let url = environment["UPLOAD_URL"], !url.isEmpty else { return nil }
        self.url = url
        file = environment["UPLOAD_FILE"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
        generatedBytes = environment["UPLOAD_BYTES"].flatMap(Int.init) ?? 50 * 1024 * 1024
    }

    /// Runs the upload and prints the report; returns the exit status.
    func runBlocking() -> Int32 {
        let run = self
        do {
            print(try waitFor { try await run.measure().jsonString() })
            return 0
        } catch {
            log("upload FAILED: \(error)")
            return 1
        }
    }

    private func measure() async throws -> JSONValue {
        let source = try file ?? Self.generate(bytes: generatedBytes)
        defer { if file == nil { try? FileManager.default.removeItem(at: source) } }
        let size = try FileManager.default.attributesOfItem(atPath: source.path)[.size] as? Int ?? 0
        let sync = RESTSync(timeout: .seconds(300))
        _ = try await save(.data(Data(repeating: 7, count: 1024), filename: "warm-up.bin"), with: sync)

        ProcessMemory.resetPeak()
        let baseline = ProcessMemory.kilobytes("VmRSS")
        let progress = Lock<[UploadProgress]>([])
        let stored = try await save(.file(source), with: sync) { update in progress.withLock { $0.append(update) } }
        let peak = ProcessMemory.kilobytes("VmHWM")
        let events = progress.withLock { $0 }
        return [
            "bytes": .int(size),
            "server_size": stored["size"] ?? nil,
            "server_sha256": stored["sha256"] ?? nil,
            "baseline_kb": .int(baseline),
            "peak_kb": .int(peak),
            "peak_delta_kb": .int(peak - baseline),
            "progress_events": .int(events.count),
            "progress_last": .int(Int(events.last?.bytesSent ?? 0)),
            "progress_total": .int(Int(events.last?.totalBytes ?? 0)),
        ]
    }

    /// Creates a record with the file through a Django REST framework model.
    private func save(
        _ file: FilePart,
        with sync: RESTSync,
        progress: (@Sendable (UploadProgress) -> Void)? = nil
    ) async throws -> Model {
        final class Attachment: Model {
            override class var wireFormat: WireFormat { .djangoREST }
        }
        let attachment = Attachment(["title": "keel-bench upload"])
        attachment.sync = sync
        var options = SyncOptions(url: url)
        options.onUploadProgress = progress
        try await attachment.save(files: ["file": file], options: options)
        return attachment
    }

    /// Writes a file of pseudo-random bytes in 1 MiB chunks.
    private static func generate(bytes: Int) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "keel-bench-upload-\(UUID().uuidString)"
        )
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var state: UInt64 = 14
        var written = 0
        while written < bytes {
            let count = min(1 << 20, bytes - written)
            let words = (0..<(count + 7) / 8).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return state
            }
            try handle.write(contentsOf: words.withUnsafeBytes { Data($0.prefix(count)) })
            written += count
        }
        return url
    }
}

/// The resident memory of this process, from Linux's `/proc/self/status`.
enum ProcessMemory {
    /// A `/proc/self/status` value in KiB (`VmRSS`, `VmHWM`), or 0 where there is none.
    static func kilobytes(_ field: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("\(field):") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return 0
    }

    /// Resets `VmHWM` to the current resident size (Linux 4.0 and later).
    static func resetPeak() {
        guard let file = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return }
        try? file.write(contentsOf: Data("5".utf8))
        try? file.close()
    }
}
