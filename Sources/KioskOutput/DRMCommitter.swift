/// One way to put framebuffers on screen: legacy (`DRMLegacyCommitter`) or atomic (`DRMAtomicCommitter`).
protocol DRMCommitter: AnyObject {
    /// `legacy` or `atomic`, for logs.
    var name: String { get }
    /// Sets the mode and shows `framebuffer`; returns when done.
    func modeset(framebuffer: UInt32) throws
    /// Queues a flip to `framebuffer` at the next vblank; a page-flip event carrying `userData` follows.
    func flip(framebuffer: UInt32, userData: UnsafeMutableRawPointer) throws
    /// Frees what the committer allocated on the device (property blobs).
    func release()
}
