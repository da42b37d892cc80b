import Foundation
import KioskCore
import KioskMedia

/// The form the player asks clip decoders for: `--video-convert` settled against the GL renderer once the output is
/// attached. The first item starts decoding before that, so until then `auto` is a guess from the machine: Mesa
/// forced to software, or no DRM render node, means llvmpipe.
public final class VideoFrameChoice: @unchecked Sendable {
    private let lock = NSLock()
    private var conversion: VideoConversion
    private let configured: VideoConversion

    /// The choice for `configured`, guessed from `environment` and the render nodes present until settled.
    public init(_ configured: VideoConversion, environment: [String: String] = ProcessInfo.processInfo.environment,
                renderNodes: () -> Bool = VideoFrameChoice.hasRenderNode) {
        self.configured = configured
        if configured != .auto {
            conversion = configured
        } else {
            let forced = environment["LIBGL_ALWAYS_SOFTWARE"].map { !["", "0", "false"].contains($0.lowercased()) } ?? false
            conversion = forced || !renderNodes() ? .cpu : .gpu
        }
    }

    /// Whether a DRM render node (a GPU Mesa could use) exists.
    public static func hasRenderNode() -> Bool {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []).contains { $0.hasPrefix("renderD") }
    }

    /// Settles `auto` for the renderer the output draws with.
    public func settle(renderer: String) {
        lock.lock()
        conversion = configured.resolved(renderer: renderer)
        lock.unlock()
    }

    /// cpu or gpu, as settled (or guessed).
    public var current: VideoConversion {
        lock.lock()
        defer { lock.unlock() }
        return conversion
    }

    /// The form for a clip shown through `view` on `canvas`: RGBA at the size it is drawn at (a flat clip larger
    /// than its place is shrunk by swscale's area filter; a spherical one keeps its size), or its planes.
    func form(displaySize: PixelSize, view: ItemView, canvas: PixelSize, fit: FitMode) -> VideoFrameForm {
        guard current == .cpu else { return .planes }
        return .rgba(limit: view.decodeSize(picture: displaySize) { FlatView.decodeSize(picture: $0, canvas: canvas, fit: fit) })
    }
}
