import Foundation
import KioskCore

/// What the remotes' content tests share (IPC, `kiosk ctl`, MQTT, the web page): two SMIL layouts served by nginx,
/// told apart by their sources, and the index requests nginx logged.
enum ContentRemoteFixtures {
    /// The first layout's sources (`index.smil`) and the second's (`other.smil`).
    static let first = ["a.png", "b.png"], second = ["c.png", "d.png"]

    /// Writes `index.smil` (a red then a blue picture) and `other.smil` (green, then yellow) into nginx's folder, each
    /// picture `seconds` long, each index asking to be checked every `refresh` seconds (an hour: only the checks a
    /// test asks for happen while it runs).
    static func serve(_ nginx: NginxServer, seconds: Int = 2, refresh: Int = 3600) throws {
        for (name, colour) in zip(first + second, ["red", "blue", "green", "yellow"]) {
            try FFmpegCLI.ffmpeg(["-y", "-f", "lavfi", "-i", "color=\(colour):s=64x48", "-frames:v", "1", nginx.file(name)])
        }
        for (index, sources) in [("index.smil", first), ("other.smil", second)] {
            let items = sources.map { "<img src=\"\($0)\" dur=\"\(seconds)s\" region=\"main\"/>" }.joined()
            let smil = """
            <smil><head><meta http-equiv="Refresh" content="\(refresh)"/>
            <layout><root-layout width="640" height="360"/><region regionName="main" width="640" height="360"/></layout></head>
            <body><seq repeatCount="indefinite">\(items)</seq></body></smil>
            """
            try smil.write(toFile: nginx.file(index), atomically: true, encoding: .utf8)
        }
    }

    /// How many times nginx was asked for the index `name` (`index.smil`).
    static func indexRequests(_ nginx: NginxServer, _ name: String = "index.smil") -> Int {
        nginx.requests().filter { $0.hasPrefix("GET /\(name) ") }.count
    }

    /// Whether `regions` (a status's `regions` array, IPC's or MQTT's) show one of `sources`.
    static func shows(_ regions: JSONValue?, oneOf sources: [String]) -> Bool {
        guard case .array(let list)? = regions else { return false }
        return list.contains { region in region["src"]?.string.map(sources.contains) ?? false }
    }
}
