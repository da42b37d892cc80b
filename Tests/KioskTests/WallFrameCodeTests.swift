import Foundation
import XCTest
import KioskCore

/// Video walls judged by what the screens show, not by kiosk's own log or its `WallTimeline` (issue 23, test audit
/// item 4). The test clip carries its frame number burned in as a binary code of black and white blocks (ffmpeg's
/// `geq`), and ffmpeg's own decode of the clip must read back frame N as code N. Two synced wall members (one whose
/// clock reads 0.4 s ahead) are asked for `screenshot-to-file` over IPC at known wall times; the code in each
/// screenshot must be the frame a formula written here gives for that time, from the epoch, the slot lengths, the
/// clip's frame rate and the member's clock offset. The same samples judged with an offset one frame off, or the
/// other member's offset, must fail: the check can see a one-frame error.
final class WallFrameCodeTests: XCTestCase {
    /// What a screen shows: the picture of the first slot, or clip frame N.
    enum Shown: Equatable, CustomStringConvertible {
        case picture
        case frame(Int)

        var description: String {
            switch self {
            case .picture: return "picture"
            case .frame(let n): return "frame \(n)"
            }
        }
    }

    /// The clip's frame rate, its frame count and the picture slot's length (`--duration`).
    static let fps = 25.0
    static let clipFrames = 100
    static let pictureLength = 1.0
    /// One code tile: the clip is 320×180 (the wall) and holds four 160×90 tiles, one per viewport.
    static let tile = PixelSize(width: 160, height: 90)

    /// The frame-number code: a white marker bar (tile rows 8–23), then 8 bits, least significant first, each a
    /// 20-pixel-wide block in rows 40–79, white for 1. `N` is geq's frame number.
    static let codeFilter = "color=black:size=320x180:rate=25,format=yuv420p,geq=lum='16+219*("
        + "between(mod(Y,90),8,23)*between(mod(X,160),8,151)"
        + "+between(mod(Y,90),40,79)*mod(floor(N/pow(2,floor(mod(X,160)/20))),2))':cb=128:cr=128"

    /// Reads the shown content of the tile at `origin` in a `width`-wide RGB24 picture: the red picture, a code
    /// whose marker and every bit are clearly black or white, or nil for anything else (a blend, a torn frame).
    static func read(_ rgb: [UInt8], width: Int, origin: (x: Int, y: Int) = (0, 0)) -> Shown? {
        func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int)? {
            let i = ((origin.y + y) * width + origin.x + x) * 3
            guard i >= 0, i + 2 < rgb.count else { return nil }
            return (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
        }
        /// 1 for white, 0 for black, nil for neither (or not grey).
        func level(_ x: Int, _ y: Int) -> Int? {
            guard let p = pixel(x, y), abs(p.r - p.g) < 40, abs(p.g - p.b) < 40 else { return nil }
            if p.g >= 185 { return 1 }
            if p.g <= 70 { return 0 }
            return nil
        }
        if let p = pixel(80, 45), p.r >= 180, p.g <= 70, p.b <= 70 { return .picture }
        guard level(80, 16) == 1, level(80, 32) == 0 else { return nil }
        var n = 0
        for bit in 0..<8 {
            guard let v = level(bit * 20 + 10, 60) else { return nil }
            n |= v << bit
        }
        return .frame(n)
    }

    /// What the wall shows at wall time `wall` on a member whose clock reads `offset` seconds ahead, by hand: the
    /// playlist (picture, then clip) plays in passes from `epoch`; a pass lasts the picture's length plus the
    /// clip's (its frame count over its rate); clip frame N is shown from N/fps to (N+1)/fps into the clip's slot.
    static func expected(atWall wall: Double, epoch: Double, offset: Double) -> Shown {
        let clipLength = Double(clipFrames) / fps
        let pass = pictureLength + clipLength
        let since = wall + offset - epoch
        let into = since - pass * (since / pass).rounded(.down)
        guard into >= pictureLength else { return .picture }
        return .frame(min(clipFrames - 1, Int(((into - pictureLength) * fps).rounded(.down))))
    }

    /// One screenshot: the member, the wall times just before the request and just after its reply, and what it
    /// shows.
    struct Sample {
        var member: Int
        var asked: Double
        var answered: Double
        var seen: Shown?
    }

    /// How samples measure up: on time, late (a decoder behind by at most `lateFrames`), or wrong.
    struct Verdict {
        var onTime = 0
        var late: [String] = []
        var wrong: [String] = []
        /// Late frames allowed, and their share.
        static let lateFrames = 3
        static let lateShare = 0.2

        var passes: Bool {
            let total = onTime + late.count + wrong.count
            return total > 0 && wrong.isEmpty && Double(late.count) <= Self.lateShare * Double(total)
        }
    }

    /// The frame is drawn at the first loop turn after the request arrives; that turn's time may be read just
    /// before it arrives.
    static let turnSlack = 0.005

    /// Judges `samples` against the hand timeline, member `m`'s clock reading `offsets[m]` ahead: a sample is on
    /// time when what it shows is what the wall asks for at some time from its request (less `turnSlack`) to its
    /// reply, late when only up to `lateFrames` earlier, and wrong otherwise (ahead, unreadable, another frame).
    static func judge(_ samples: [Sample], epoch: Double, offsets: [Double]) -> Verdict {
        var verdict = Verdict()
        for s in samples {
            let what = "member \(s.member) asked at \(String(format: "%.3f", s.asked - epoch)) s, answered "
                + String(format: "%.3f", s.answered - epoch) + " s: saw \(s.seen.map(\.description) ?? "nothing readable")"
            func shows(from: Double, to: Double) -> Bool {
                stride(from: from, through: to, by: 0.001).contains {
                    expected(atWall: $0, epoch: epoch, offset: offsets[s.member]) == s.seen
                } || expected(atWall: to, epoch: epoch, offset: offsets[s.member]) == s.seen
            }
            if s.seen != nil, shows(from: s.asked - turnSlack, to: s.answered) {
                verdict.onTime += 1
            } else if s.seen != nil, shows(from: s.asked - turnSlack - Double(Verdict.lateFrames) / fps, to: s.answered) {
                verdict.late.append(what)
            } else {
                verdict.wrong.append(what + ", the wall asked for "
                                     + "\(expected(atWall: s.asked, epoch: epoch, offset: offsets[s.member]))")
            }
        }
        return verdict
    }

    /// A picture in RGB24 of `size`, decoded by ffmpeg from `path` (a PNG, or frames of a clip); throws when the
    /// bytes do not come in whole pictures.
    static func rgbFrames(_ path: String, size: PixelSize) throws -> [[UInt8]] {
        let data = [UInt8](try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-vsync", "passthrough",
                                                       "-pix_fmt", "rgb24", "-f", "rawvideo", "-"]))
        let n = size.width * size.height * 3
        guard !data.isEmpty, data.count % n == 0 else {
            throw FFmpegCLI.Failure(description: "\(path): \(data.count) bytes are not whole \(size) RGB pictures")
        }
        return stride(from: 0, to: data.count, by: n).map { Array(data[$0..<($0 + n)]) }
    }

    /// The coded clip and a red picture; ffmpeg's own decode reads every frame N of the clip, in all four tiles,
    /// as code N.
    private func media(_ dir: TempDir) throws -> (picture: String, clip: String) {
        let picture = dir.file("red.png"), clip = dir.file("coded.mp4")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=red:size=320x180", "-frames:v", "1", picture])
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", Self.codeFilter, "-frames:v", String(Self.clipFrames), "-c:v", "libx264",
                              "-crf", "10", "-g", "25", "-pix_fmt", "yuv420p", clip])
        let frames = try Self.rgbFrames(clip, size: PixelSize(width: 320, height: 180))
        XCTAssertEqual(frames.count, Self.clipFrames, "ffmpeg's frame count of the coded clip")
        for origin in [(0, 0), (160, 0), (0, 90), (160, 90)] {
            let codes = frames.map { Self.read($0, width: 320, origin: origin) }
            XCTAssertEqual(codes, (0..<Self.clipFrames).map { Shown.frame($0) }, "ffmpeg's decode of the codes, tile \(origin)")
        }
        XCTAssertEqual(try XCTUnwrap(Double(FFmpegCLI.probe(clip, "format=duration"))),
                       Double(Self.clipFrames) / Self.fps, accuracy: 0.001, "the clip's length in its header")
        return (picture, clip)
    }

    /// A synced headless member of a 320×180 wall showing `viewport` at 160×90, with a control socket.
    private func member(_ items: [String], epoch: Double, viewport: String, socket: String, length: Double,
                        env: [String]) throws -> LiveProcess {
        try LiveProcess(env + [CLITests.kiosk, "play", "--output", "headless", "--size", "160x90", "--no-state", "--no-watch",
                               "--duration", String(Self.pictureLength), "--transition", "none", "--no-overlays",
                               "--sync-epoch", String(format: "%.6f", epoch), "--wall", "320x180", "--viewport", viewport,
                               "--input-ipc-server", socket, "--length", String(length)] + items,
                        executable: "/usr/bin/env")
    }

    /// A connection to `socket`, waiting (bounded) for the member to open it.
    private func connect(_ socket: String, _ process: LiveProcess) throws -> IPCConnection {
        let deadline = Date(timeIntervalSinceNow: 20)
        while true {
            if let c = try? IPCConnection(path: socket) { return c }
            guard Date() < deadline, process.isRunning else {
                throw SocketTestError(description: "no control socket at \(socket): \(process.stderr.suffix(2000))")
            }
            usleep(20_000)
        }
    }

    /// Two members, the second's clock 0.4 s (10 frames) ahead: about 50 screenshots over 1.5 passes each show the
    /// frame the hand timeline gives for its time; the same samples fail when judged one frame early, one frame
    /// late, or with the members' offsets swapped.
    func testScreensShowTheFramesTheWallClockAsksFor() throws {
        let dir = try TempDir()
        let m = try media(dir)
        let offsets = [0.0, 0.4]
        let epoch = Date().timeIntervalSince1970 + 2
        let sampleEnd = epoch + 7.8
        let length = sampleEnd - Date().timeIntervalSince1970 + 1.5
        var players: [LiveProcess] = []
        var controls: [IPCConnection] = []
        for (i, viewport) in ["0,0,160,90", "160,90,160,90"].enumerated() {
            let socket = dir.file("member\(i).sock")
            let p = try member([m.picture, m.clip], epoch: epoch, viewport: viewport, socket: socket, length: length,
                               env: ["\(RealtimeClock.skewVariable)=\(offsets[i])"])
            players.append(p)
            addTeardownBlock { if p.isRunning { p.send(SIGTERM) }; _ = p.finish(timeout: 10) }
        }
        for (i, p) in players.enumerated() { controls.append(try connect(dir.file("member\(i).sock"), p)) }
        var shots: [(member: Int, asked: Double, answered: Double, path: String)] = []
        var next = epoch + 0.3
        while next < sampleEnd {
            let wait = next - Date().timeIntervalSince1970
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            let i = shots.count % 2
            let path = dir.file("shot\(shots.count).png")
            let asked = Date().timeIntervalSince1970
            let reply = try controls[i].request(#"["screenshot-to-file","\#(path)"]"#)
            let answered = Date().timeIntervalSince1970
            XCTAssertEqual(reply["error"], .string("success"), "member \(i): \(reply.text)")
            shots.append((i, asked, answered, path))
            next += 0.15
        }
        for p in players { XCTAssertEqual(p.finish(timeout: 30).status, 0, p.stderr) }
        let samples = try shots.map { s in
            let seen = try Self.rgbFrames(s.path, size: Self.tile).first.flatMap { Self.read($0, width: Self.tile.width) }
            return Sample(member: s.member, asked: s.asked, answered: s.answered, seen: seen)
        }
        XCTAssertGreaterThan(samples.count, 40, "too few screenshots")
        XCTAssertGreaterThan(samples.filter { if case .frame = $0.seen { return true } else { return false } }.count, 30,
                             "too few clip frames seen")
        let verdict = Self.judge(samples, epoch: epoch, offsets: offsets)
        print("wall frame codes: \(samples.count) screenshots, on time \(verdict.onTime), late \(verdict.late.count), wrong \(verdict.wrong.count)")
        XCTAssertTrue(verdict.passes, "on time \(verdict.onTime), late \(verdict.late), wrong \(verdict.wrong)")
        for (name, wrong) in [("one frame early", offsets.map { $0 - 1 / Self.fps }),
                              ("one frame late", offsets.map { $0 + 1 / Self.fps }),
                              ("the offsets swapped", offsets.reversed())] {
            let v = Self.judge(samples, epoch: epoch, offsets: wrong)
            XCTAssertFalse(v.passes, "judged \(name), the samples still pass")
        }
    }

    /// The code reader itself: each of the 256 codes ffmpeg burns reads back, and a blend of two frames does not.
    func testCodeReadsBackAndABlendDoesNot() throws {
        let dir = try TempDir()
        let clip = dir.file("codes.mkv")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", Self.codeFilter, "-frames:v", "256", "-c:v", "ffv1", "-pix_fmt", "yuv420p", clip])
        let frames = try Self.rgbFrames(clip, size: PixelSize(width: 320, height: 180))
        XCTAssertEqual(frames.count, 256)
        for (n, f) in frames.enumerated() { XCTAssertEqual(Self.read(f, width: 320), .frame(n), "code \(n)") }
        let blend = zip(frames[1], frames[2]).map { UInt8((Int($0) + Int($1)) / 2) }
        XCTAssertNil(Self.read(blend, width: 320), "a blend of frames 1 and 2 reads as a code")
    }
}
