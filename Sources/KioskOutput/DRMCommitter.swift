/// One CRTC of an output and where in the output's framebuffer it scans out from: the output's only head, one
/// panel of a span (its left edge on the span's canvas) or one display of a mirror (at 0).
struct DRMHead {
    /// Connector, CRTC and mode.
    var pipe: DRMPipe
    /// The framebuffer column its scanout starts at.
    var x: UInt32
}

/// One way to put framebuffers on screen: legacy (`DRMLegacyCommitter`) or atomic (`DRMAtomicCommitter`). A
/// committer drives every head of its output from one framebuffer.
protocol DRMCommitter: AnyObject {
    /// `legacy` or `atomic`, for logs.
    var name: String { get }
    /// Whether one flip moves every head at the same vblank (atomic: one commit), rather than each on its own.
    var locksHeads: Bool { get }
    /// Sets the mode of every head and shows `framebuffer`; returns when done.
    func modeset(framebuffer: UInt32) throws
    /// Queues a flip of every head to `framebuffer` at the next vblank; one page-flip event per head follows,
    /// each carrying `userData`.
    func flip(framebuffer: UInt32, userData: UnsafeMutableRawPointer) throws
    /// Frees what the committer allocated on the device (property blobs).
    func release()
}
