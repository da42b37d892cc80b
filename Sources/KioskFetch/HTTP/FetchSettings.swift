import KioskCore

/// How the content fetcher talks to servers: the limits on every transfer and what is trusted.
///
/// The defaults suit a screen on an ordinary network: a medium of up to 2 GiB, a server that sends nothing for
/// 30 s given up on, four transfers at once, no bandwidth cap.
public struct FetchSettings: Sendable, Equatable {
    /// Seconds to wait for a connection (TCP and TLS).
    public var connectTimeout: Double = 15
    /// Seconds one transfer may take in all (a large medium on a slow line needs long).
    public var totalTimeout: Double = 3600
    /// A transfer slower than `lowSpeedBytes` per second for `lowSpeedSeconds` is given up (a stalled server).
    public var lowSpeedBytes: Int = 1024
    /// See `lowSpeedBytes`.
    public var lowSpeedSeconds: Int = 30
    /// The largest medium taken, in bytes.
    public var maxFileBytes: Int64 = 2 << 30
    /// The largest index (SMIL or M3U) taken, in bytes: what the SMIL reader reads at most.
    public var maxIndexBytes: Int64 = 4 << 20
    /// The most all the media of one index may add up to, in bytes.
    public var maxIndexTotalBytes: Int64 = 64 << 30
    /// The most media one index may name.
    public var maxReferences: Int = 10_000
    /// A bandwidth cap per transfer in bytes per second (`--content-rate`); nil: none.
    public var maxBytesPerSecond: Int64?
    /// A CA file (PEM) trusted instead of the system's (`--content-ca`); nil: the system's CAs.
    public var caFile: String?
    /// The most transfers at once.
    public var concurrentTransfers: Int = 4
    /// The most redirects one request follows.
    public var maxRedirects: Int = 5
    /// The User-Agent header.
    public var userAgent: String = "kiosk/\(KioskVersion.number)"

    /// The defaults.
    public init() {}
}
