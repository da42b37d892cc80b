import Foundation
import KioskCore

/// The camera entity's pictures: a JPEG of the screen as presented (the player's screenshot command, as IPC's
/// `screenshot-to-file`) written into a folder only this user can read, then published and removed. At most one
/// every `interval` seconds, so a controller cannot make the player encode pictures without pause.
final class FleetCamera {
    /// The least time between two pictures, in seconds.
    static let interval = 10.0
    /// A picture the player has not answered for this long no longer blocks the next one.
    static let givenUpAfter = 30.0

    private let folder: String
    private var lastTaken: Double?
    private var pendingSince: Double?
    /// Numbers each picture's file, so a late answer to a request given up on cannot take a newer one's file.
    private var pictures = 0

    /// A camera with a new private folder under the temporary folder.
    init() throws(FleetError) {
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("kiosk-camera-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buf in buf.baseAddress.flatMap { mkdtemp($0) } }
        guard let made else { throw FleetError("mkdtemp (camera folder): \(String(cString: strerror(errno)))") }
        folder = String(cString: made)
    }

    /// The file the player should write the next picture to, or why not now.
    func take(now: Double) throws(FleetRefusal) -> String {
        if let since = pendingSince, now - since < Self.givenUpAfter { throw FleetRefusal("a snapshot is already being taken") }
        if let last = lastTaken, now - last < Self.interval {
            throw FleetRefusal(String(format: "at most one snapshot every %.0f s (the next in %.1f s)", Self.interval,
                                      Self.interval - (now - last)))
        }
        lastTaken = now
        pendingSince = now
        pictures += 1
        return folder + "/screen-\(pictures).jpg"
    }

    /// The picture's bytes once the player answered for the file at `path` (which is gone again afterwards); the
    /// error when it failed. Only the newest request's answer frees the camera for the next one.
    func taken(_ reply: CommandReply, path: String) throws(FleetError) -> [UInt8] {
        if path == folder + "/screen-\(pictures).jpg" { pendingSince = nil }
        defer { unlink(path) }
        if case .failed(let why) = reply { throw FleetError("snapshot: \(why)") }
        guard let data = FileManager.default.contents(atPath: path) else { throw FleetError("snapshot: cannot read \(path)") }
        return [UInt8](data)
    }

    /// Removes the folder.
    func remove() {
        if let names = try? FileManager.default.contentsOfDirectory(atPath: folder) {
            for name in names where name.hasPrefix("screen-") { unlink(folder + "/" + name) }
        }
        rmdir(folder)
    }

}
