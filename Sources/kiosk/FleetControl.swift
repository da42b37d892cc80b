import Foundation
import Glibc
import KioskCore
import KioskFleet
import KioskMedia
import KioskPlayer
import KioskRemote

/// `kiosk play --mqtt HOST[:PORT]`: the fleet's MQTT client, built from the options before the player starts (a bad
/// flag is a usage error, exit 2) and started with it. `load` goes through the same media gate as IPC's loadfile;
/// the `playlist` command and Home Assistant's select offer the schedule's targets.
enum FleetControl {
    /// The client the options ask for, reading `board`; nil without `--mqtt`. With `screen`, the client of that
    /// screen (a screen after the first), on `kiosk/ID/screen/NAME/…`.
    static func client(_ o: ParsedOptions, board: PlayerBoard, reports: PlayReports, screen: String? = nil, log: Log) throws -> FleetClient? {
        let read: (String) -> String? = { path in FileAccess.contents(path).flatMap { String(data: $0, encoding: .utf8) } }
        guard let settings = try FleetSettings.parse(o, hostName: hostName(), readFile: read) else { return nil }
        let gate = try RemoteControl.mediaGate(o, log: log)
        let targets = try o.string("schedule").map { try Self.playlists(ScheduleSetup.read($0)) } ?? []
        let services = FleetServices(
            load: { path throws(FleetRefusal) in
                // A broker is reachable over the network (often without a password), unlike IPC's 0600 socket:
                // MQTT loads only from the folder --media-root names.
                guard gate.root != nil else { throw FleetRefusal("load needs --media-root DIR (the folder MQTT may play from)") }
                do throws(MediaRefusal) { return try gate.localItems(path) } catch { throw FleetRefusal(error.description) }
            },
            playlists: targets, reports: reports, gate: gate)
        return try FleetClient(settings: settings, board: board, services: services, screen: screen, log: log)
    }

    /// The schedule's targets (its rules' folders and playlists, then its fallback), each named by its last path
    /// component without `.m3u`/`.m3u8`; targets whose names clash keep their whole path.
    static func playlists(_ schedule: Schedule) -> [FleetPlaylist] {
        var paths: [String] = []
        for rule in schedule.rules {
            if case .path(let p) = rule.target, !paths.contains(p) { paths.append(p) }
        }
        if let f = schedule.fallback, !paths.contains(f) { paths.append(f) }
        let names = paths.map { path -> String in
            let last = (path as NSString).lastPathComponent
            let ext = (last as NSString).pathExtension.lowercased()
            return ext == "m3u" || ext == "m3u8" ? (last as NSString).deletingPathExtension : last
        }
        return zip(paths, names).map { path, name in
            FleetPlaylist(name: names.filter { $0 == name }.count > 1 ? path : name, path: path)
        }
    }

    /// This machine's host name (the default `--mqtt-id`).
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "kiosk" }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The schedule driver's `choose` (thread-safe: it only records the choice under the driver's lock) for the fleet's
/// thread.
final class ScheduleChoice: @unchecked Sendable {
    private let driver: ScheduleDriver

    /// The choice of `driver`.
    init(_ driver: ScheduleDriver) { self.driver = driver }

    /// Plays the target `path` from the driver's next turn.
    func choose(_ path: String) { driver.choose(path) }
}
