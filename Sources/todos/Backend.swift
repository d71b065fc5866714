import Foundation

/// Where the todos live: the embedded SQLite store, or a REST server.
enum Backend: Equatable {
    /// A SQLite database file.
    case store(URL)
    /// A REST server; the todos are at `<URL>/todos`.
    case server(URL)

    /// Picks the backend from the options and the environment.
    ///
    /// Options win over environment variables; `TODOS_SERVER` wins over `TODOS_STORE`; with
    /// neither, the todos live in ``defaultStoreURL(environment:)``. Empty values count as
    /// unset in the environment and as mistakes on the command line.
    ///
    /// - Parameters:
    ///   - store: The value of `--store`.
    ///   - server: The value of `--server`.
    ///   - environment: The process environment.
    ///   - currentDirectory: What a relative `--store` path is relative to.
    /// - Returns: The store file or the server URL to use.
    /// - Throws: ``UsageError`` for both options at once, an empty value, a server URL that
    ///   is not `http` or `https`, or a store in a folder that does not exist (other than the
    ///   default store's).
    static func resolve(
        store: String?,
        server: String?,
        environment: [String: String],
        currentDirectory: URL
    ) throws(UsageError) -> Backend {
        if store != nil && server != nil {
            throw UsageError("use either --store or --server, not both")
        }
        if let server { return .server(try serverURL(server, source: "--server")) }
        if let store {
            return .store(try storeURL(store, source: "--store", environment: environment, in: currentDirectory))
        }
        if let server = environment["TODOS_SERVER"], !server.isEmpty {
            return .server(try serverURL(server, source: "TODOS_SERVER"))
        }
        if let store = environment["TODOS_STORE"], !store.isEmpty {
            return .store(try storeURL(store, source: "TODOS_STORE", environment: environment, in: currentDirectory))
        }
        return .store(defaultStoreURL(environment: environment))
    }

    /// The store used when neither an option nor the environment names one.
    ///
    /// On macOS `~/Library/Application Support/keel-todos/todos.sqlite`; elsewhere
    /// `$XDG_DATA_HOME/keel-todos/todos.sqlite`, or `~/.local/share/keel-todos/todos.sqlite`
    /// when `XDG_DATA_HOME` is unset or not absolute (the XDG Base Directory rule).
    static func defaultStoreURL(environment: [String: String]) -> URL {
        let home =
            environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        #if os(macOS)
            let dataHome = home.appendingPathComponent("Library/Application Support", isDirectory: true)
        #else
            let dataHome: URL
            if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
                dataHome = URL(fileURLWithPath: xdg, isDirectory: true)
            } else {
                dataHome = home.appendingPathComponent(".local/share", isDirectory: true)
            }
        #endif
        return dataHome.appendingPathComponent("keel-todos/todos.sqlite", isDirectory: false)
    }

    /// The local copy of a server's todos and the queue of changes waiting for it: one file
    /// per server, next to the default store (`…/keel-todos/servers/127.0.0.1-8000.sqlite`).
    ///
    /// - Parameters:
    ///   - server: The server's URL.
    ///   - environment: The process environment (`HOME`, `XDG_DATA_HOME`).
    /// - Returns: The file's URL.
    static func cacheURL(for server: URL, environment: [String: String]) -> URL {
        let host = server.host ?? "server"
        let port = server.port.map { "-\($0)" } ?? ""
        let path = server.path.split(separator: "/").joined(separator: "_")
        let name = (host + port + (path.isEmpty ? "" : "-" + path)).map {
            $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_"
        }
        return defaultStoreURL(environment: environment).deletingLastPathComponent()
            .appendingPathComponent("servers/\(String(name)).sqlite", isDirectory: false)
    }

    private static func storeURL(
        _ path: String,
        source: String,
        environment: [String: String],
        in currentDirectory: URL
    ) throws(UsageError) -> URL {
        guard !path.isEmpty else { throw UsageError("\(source) needs a file path") }
        var path = path
        // The shell does not expand `~` in `--store=~/todos.sqlite`, so do it here.
        if path == "~" || path.hasPrefix("~/"), let home = environment["HOME"], !home.isEmpty {
            path = home + path.dropFirst()
        }
        let url =
            path.hasPrefix("/")
            ? URL(fileURLWithPath: path, isDirectory: false)
            : currentDirectory.appendingPathComponent(path, isDirectory: false)
        guard !path.hasSuffix("/") else {
            throw UsageError("\(source) must name a file, not a directory: \(path)")
        }
        let file = url.standardizedFileURL
        // A typo in the folder would otherwise start a new, empty store; only the default
        // location's folder is created.
        let folder = file.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard file != defaultStoreURL(environment: environment).standardizedFileURL,
            !FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) || !isDirectory.boolValue
        else { return file }
        if FileManager.default.fileExists(atPath: folder.path) {
            throw UsageError("\(source) names a store inside a file, not a folder: \(folder.path)")
        }
        throw UsageError(
            "the folder of the store given by \(source) does not exist: \(folder.path)",
            hint: "Check the path for a typo, or create the folder first: mkdir -p '\(folder.path)'"
        )
    }

    private static func serverURL(_ text: String, source: String) throws(UsageError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty
        else {
            throw UsageError(
                "\(source) must be an http or https URL, such as http://127.0.0.1:8000 (got '\(text)')"
            )
        }
        return url
    }
}
