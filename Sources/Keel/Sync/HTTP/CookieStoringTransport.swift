import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that keeps the cookies servers set in an `HTTPCookieStorage` and sends them
/// back, as `URLSession` does; ``DrupalSession/logout()`` removes its session's cookies there.
protocol CookieStoringTransport {
    /// Where the transport keeps cookies, or `nil` when it keeps none.
    var cookieStorage: HTTPCookieStorage? { get }
}

extension URLSession: CookieStoringTransport {
    var cookieStorage: HTTPCookieStorage? { configuration.httpCookieStorage }
}

extension OwnedURLSession: CookieStoringTransport {
    var cookieStorage: HTTPCookieStorage? { session.configuration.httpCookieStorage }
}
