import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPCookieStorage {
    /// Deletes the cookies of `host` that a response's `Set-Cookie` header deletes.
    ///
    /// A server deletes a cookie by setting it again with `Max-Age=0` or an `Expires` in the
    /// past, as Django's and Rails' logouts do. Foundation on Linux stores such a cookie as
    /// a session cookie and sends it back as `name=""`; Apple's Foundation drops it.
    /// ``RESTSync`` calls this after each response that sets cookies, so both send nothing.
    ///
    /// ```swift
    /// storage.deleteCookies(deletedBy: "sessionid=\"\"; Max-Age=0; Path=/", host: "127.0.0.1")
    /// ```
    func deleteCookies(deletedBy setCookie: String, host: String, now: Date = Date()) {
        let names = Set(CookieDeletions.names(in: setCookie, now: now))
        guard !names.isEmpty else { return }
        let host = host.lowercased()
        for cookie in cookies ?? [] where names.contains(cookie.name) {
            let domain = cookie.domain.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "."))
            if domain == host || host.hasSuffix("." + domain) { deleteCookie(cookie) }
        }
    }
}
