import KioskCore
import KioskMedia

/// The picture kiosk shows while it has nothing to play (`--idle-image`).
enum IdlePicture {
    /// Decodes `path` to fit `canvas` (bounded by `timeout`); nil without a path, or with one line on `log`
    /// naming the file and the reason when it can't be shown (then the background colour shows).
    /// `what` names it in the one line a failure gives (an alert's picture is not `--idle-image`), `instead` says
    /// what shows without it.
    static func load(_ path: String?, canvas: PixelSize, timeout: Double, log: Log, what: String = "--idle-image",
                     instead: String = "the background colour shows instead") -> RGBAImage? {
        guard let path else { return nil }
        do {
            let decoded = try PlayJob.decodeBounded(path, timeout: timeout) {
                FlatView.decodeSize(picture: $0, canvas: canvas, fit: .contain)
            }
            return SceneComposer.image(of: decoded.picture, frame: 0)
        } catch {
            log.warn("\(what): \(DecodeCache.describe(error, path: path)); \(instead)")
            return nil
        }
    }
}
