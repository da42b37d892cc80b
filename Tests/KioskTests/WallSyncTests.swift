import Foundation
import XCTest
@testable import KioskCore

/// Video walls and wall-clock sync with real players: headless `kiosk play` processes with one `--sync-epoch` and
/// different viewports, their debug presentation logs (wall time, slot, item, clip frame) read while they run and
/// compared at common wall times; viewports' snapshots stitched by ffmpeg against the whole wall's. These checks
/// trust kiosk's own log and `WallTimeline`; `WallFrameCodeTests` judges the same walls by the frame numbers burned
/// into the clip, read from the members' screenshots, against a timeline computed by hand.
final class WallSyncTests: XCTestCase {
    /// One presented frame from a player's log.
    struct Presented {
        var wall: Double
        var slot: Int
        var item: Int
        var offset: Double
        var frame: Double?
    }

    static let clipFPS = 25.0
    static let frameTolerance = 1 / clipFPS + 0.002

    /// Counts frames more than one frame late, for the budget below: on this 2-core test machine, shared with other
    /// builds, a decoder can fall behind for a moment (right after a seek most of all). A frame ahead of the wall
    /// clock is never allowed; a late one may be at most `lateLimit` behind, and at most `lateShare` of them.
    final class Lateness {
        var frames = 0
        var late: [String] = []
        static let lateLimit = 3 / WallSyncTests.clipFPS + 0.002
        static let lateShare = 0.03

        func note(_ behind: Double, _ what: @autoclosure () -> String) {
            frames += 1
            guard behind > WallSyncTests.frameTolerance else { return }
            late.append(what())
            XCTAssertLessThanOrEqual(behind, Self.lateLimit, what())
        }

        func check(_ name: String, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertGreaterThan(frames, 0, name, file: file, line: line)
            XCTAssertLessThanOrEqual(Double(late.count), Self.lateShare * Double(frames),
                                     "\(name): \(late.count) of \(frames) frames over one frame apart: \(late)", file: file, line: line)
        }
    }

    /// A picture and a 4-second 25 fps clip made by ffmpeg.
    private func media(_ dir: TempDir) throws -> (picture: String, clip: String) {
        let picture = dir.file("bars.png"), clip = dir.file("clip.mp4")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "smptebars=size=640x360", "-frames:v", "1", picture])
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25", "-t", "4", "-pix_fmt", "yuv420p",
                              "-c:v", "libx264", "-g", "25", clip])
        return (picture, clip)
    }

    /// The presented frames in a player's stderr.
    /// `t` as `--sync-epoch` passes it (`%.6f`): the players' timeline and the test's start at the same instant, so
    /// a frame logged at a slot's edge is judged on the same side of it (the log's wall has all of its digits).
    static func given(_ t: Double) -> Double { (t * 1e6).rounded() / 1e6 }

    static func presented(_ log: String) -> [Presented] {
        log.split(separator: "\n").compactMap { line in
            guard let r = line.range(of: "sync: presented wall ") else { return nil }
            let w = line[r.upperBound...].split(separator: " ")
            guard w.count >= 9, let wall = Double(w[0]), let slot = Int(w[2]), let item = Int(w[4]), let offset = Double(w[6])
            else { return nil }
            return Presented(wall: wall, slot: slot, item: item, offset: offset, frame: Double(w[8]))
        }
    }

    /// A synced headless player of a 320×180 wall showing `viewport` at 160×90, with `env` set.
    private func player(_ items: [String], epoch: Double, viewport: String, length: Double, extra: [String] = [],
                        env: [String] = []) throws -> LiveProcess {
        try LiveProcess(env + [CLITests.kiosk, "play", "--output", "headless", "--size", "160x90", "--no-state", "--no-watch",
                               "--duration", "1.5", "--sync-epoch", String(format: "%.6f", epoch), "--wall", "320x180",
                               "--viewport", viewport, "--log-level", "debug", "--length", String(length)] + extra + items,
                        executable: "/usr/bin/env")
    }

    /// What a player showed at wall time `t`: its last frame presented at or before `t`.
    static func shown(_ log: [Presented], at t: Double) -> Presented? { log.last { $0.wall <= t } }

    /// Whether wall times `a` and `b` fall in one slot: a frame shown just before a slot's start is the slot
    /// before's, so two players' frames either side of an edge must not be compared by slot.
    static func sameSlot(_ timeline: WallTimeline, _ a: Double, _ b: Double) -> Bool {
        timeline.position(at: a).slot == timeline.position(at: b).slot
    }

    /// Three players of one wall: two from the start, one 2 s late whose clock is also 5 s fast until 2.5 s into
    /// its run, when it is stepped right (as NTP would). Every clip frame is the one the wall clock asks for (within a
    /// frame), the players agree on the slot and frame at common wall times, the late one joins in step, and the
    /// stepped one re-aligns within one item.
    func testPlayersAgreeJoinLateAndRealignAfterAClockStep() throws {
        let dir = try TempDir()
        let m = try media(dir)
        let epoch = Self.given(Date().timeIntervalSince1970 + 0.5)
        let length = 8.0
        let began = Date().timeIntervalSince1970
        let a = try player([m.picture, m.clip], epoch: epoch, viewport: "0,0,160,90", length: length)
        let b = try player([m.picture, m.clip], epoch: epoch, viewport: "160,90,160,90", length: length)
        Thread.sleep(forTimeInterval: 2)
        let c = try player([m.picture, m.clip], epoch: epoch, viewport: "0,90,160,90", length: length - 2,
                           env: ["\(RealtimeClock.skewVariable)=5,2.5,0"])
        for p in [a, b, c] { XCTAssertEqual(p.finish(timeout: 60).status, 0, p.stderr) }
        let ended = Date().timeIntervalSince1970
        let logs = [a, b, c].map { Self.presented($0.stderr) }
        // The wall times logged are this machine's CLOCK_REALTIME (the test's own reading brackets them), so the
        // checks against the timeline below test the players' clocks, not only their arithmetic.
        for (i, log) in logs.prefix(2).enumerated() {
            for e in log { XCTAssertTrue(e.wall >= began && e.wall <= ended, "player \(i) logged wall \(e.wall) outside \(began)...\(ended)") }
        }
        for (i, log) in logs.enumerated() { XCTAssertGreaterThan(log.count, 30, "player \(i) presented too little") }
        let timeline = try WallTimeline(epoch: epoch, lengths: [1.5, 4], shuffle: false, seed: 1)

        // Each frame, on every player, is what the timeline says at its wall time (the stepped one's own, wrong
        // clock before the step); clip frames within one frame.
        for (i, log) in logs.enumerated() {
            let lateness = Lateness()
            defer { lateness.check("player \(i) against the wall clock") }
            for e in log {
                let p = timeline.position(at: e.wall)
                XCTAssertEqual(e.slot, p.slot, "player \(i) at \(e.wall)")
                XCTAssertEqual(e.item, p.item, "player \(i) at \(e.wall)")
                XCTAssertEqual(e.offset, p.offset, accuracy: 0.001)
                if let f = e.frame {
                    XCTAssertLessThanOrEqual(f, e.offset + 0.002, "player \(i): a frame ahead of the wall clock at \(e.wall)")
                    lateness.note(e.offset - f, "player \(i): frame \(f) at offset \(e.offset), wall \(e.wall)")
                }
            }
        }
        // The stepped player's wall clock went back about 5 s once (the step) ...
        let stepped = logs[2]
        let drops = zip(stepped, stepped.dropFirst()).enumerated().filter { $0.element.1.wall < $0.element.0.wall - 2 }
        XCTAssertEqual(drops.count, 1, "the step was not seen once")
        let stepIndex = try XCTUnwrap(drops.first?.offset) + 1
        XCTAssertEqual(stepped[stepIndex - 1].wall - stepped[stepIndex].wall, 5, accuracy: 0.5)
        // ... and from its first frame after it, it shows the others' slot and frame at the same wall times.
        let settled = Array(stepped[stepIndex...])
        XCTAssertGreaterThan(settled.count, 10, "the stepped player presented too little after the step")
        var compared = 0
        let apart = Lateness()
        for e in settled {
            for other in [logs[0], logs[1]] {
                guard let o = Self.shown(other, at: e.wall), e.wall - o.wall < 0.02,
                      Self.sameSlot(timeline, o.wall, e.wall) else { continue }
                compared += 1
                XCTAssertEqual(o.slot, e.slot, "at \(e.wall)")
                if let f = e.frame, let g = o.frame, o.slot == e.slot {
                    apart.note(abs(f - g), "frames \(f) and \(g) at \(e.wall)")
                }
            }
        }
        XCTAssertGreaterThan(compared, 10, "too few common wall times")
        // The two players from the start agree at common wall times too.
        apart.check("the stepped player against the others")
        var common = 0
        let together = Lateness()
        for e in logs[0] {
            guard let o = Self.shown(logs[1], at: e.wall), e.wall - o.wall < 0.02, Self.sameSlot(timeline, o.wall, e.wall)
            else { continue }
            common += 1
            XCTAssertEqual(o.slot, e.slot)
            if let f = e.frame, let g = o.frame { together.note(abs(f - g), "frames \(f) and \(g) at \(e.wall)") }
        }
        together.check("the two players from the start")
        XCTAssertGreaterThan(common, 20)
        // The late player's first frame is already in step.
        let first = try XCTUnwrap(stepped.first)
        XCTAssertEqual(first.slot, timeline.position(at: first.wall).slot)
    }

    /// Two players with `--shuffle --seed`: the same order in pass 0 and pass 1, which differ, and are the
    /// timeline's.
    func testShuffledPassesAgree() throws {
        let dir = try TempDir()
        var items: [String] = []
        for (i, colour) in ["red", "green", "blue", "yellow", "white"].enumerated() {
            items.append(dir.file("\(i).png"))
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=\(colour):size=64x36", "-frames:v", "1", items[i]])
        }
        let seed = 11
        let timeline = try WallTimeline(epoch: 0, lengths: Array(repeating: 0.4, count: 5), shuffle: true, seed: UInt64(seed))
        XCTAssertNotEqual(timeline.order(ofPass: 0), timeline.order(ofPass: 1), "pick a seed whose passes differ")
        let epoch = Self.given(Date().timeIntervalSince1970 + 1.5)
        let args = ["play", "--output", "headless", "--size", "64x36", "--no-state", "--no-watch", "--duration", "0.4",
                    "--transition", "none", "--shuffle", "--seed", String(seed), "--sync-epoch", String(format: "%.6f", epoch),
                    "--log-level", "debug", "--length", "6"]
        let players = try [0, 1].map { _ in try LiveProcess(args + items) }
        var orders: [[Int: Int]] = []
        for p in players {
            XCTAssertEqual(p.finish(timeout: 60).status, 0, p.stderr)
            var bySlot: [Int: Int] = [:]
            for e in Self.presented(p.stderr) { bySlot[e.slot] = e.item }
            orders.append(bySlot)
        }
        for pass in 0...1 {
            let slots = (pass * 5)..<(pass * 5 + 5)
            let seen = orders.map { o in slots.map { o[$0] } }
            XCTAssertEqual(seen[0], seen[1], "pass \(pass)")
            XCTAssertEqual(seen[0], timeline.order(ofPass: pass).map { Optional($0) }, "pass \(pass)")
        }
    }

    /// Snapshots of the four viewports of a 2×2 wall, stitched by ffmpeg, are the whole wall's snapshot
    /// (PSNR ≥ 40 dB), for a picture and a video frame.
    func testViewportsStitchIntoTheWall() throws {
        let dir = try TempDir()
        let m = try media(dir)
        for (name, input) in [("picture", m.picture), ("clip", m.clip)] {
            let whole = dir.file("\(name)-wall.png")
            let r = try CLITests.run(["snapshot", input, "--at", "1.5", "--size", "640x360", "--no-overlays", "--output", whole],
                                     timeout: 60)
            XCTAssertEqual(r.status, 0, r.stderr)
            var tiles: [String] = []
            for origin in ["0,0", "320,0", "0,180", "320,180"] {
                let tile = dir.file("\(name)-\(origin).png")
                let t = try CLITests.run(["snapshot", input, "--at", "1.5", "--size", "320x180", "--no-overlays", "--wall", "640x360",
                                          "--viewport", origin + ",320,180", "--output", tile], timeout: 60)
                XCTAssertEqual(t.status, 0, t.stderr)
                tiles.append(tile)
            }
            let stitched = dir.file("\(name)-stitched.png")
            try FFmpegCLI.ffmpeg(tiles.flatMap { ["-i", $0] } + ["-filter_complex", "[0][1]hstack[a];[2][3]hstack[b];[a][b]vstack",
                                                                  stitched])
            try FFmpegCLI.run("ffmpeg", ["-v", "info", "-nostdin", "-i", stitched, "-i", whole, "-lavfi",
                                                      "psnr=stats_file=" + dir.file("\(name).psnr"), "-f", "null", "-"])
            let stats = try String(contentsOfFile: dir.file("\(name).psnr"), encoding: .utf8)
            let value = try XCTUnwrap(stats.components(separatedBy: "psnr_avg:").last?.split(separator: " ").first)
            let psnr = value == "inf" ? Double.infinity : try XCTUnwrap(Double(value), stats)
            XCTAssertGreaterThanOrEqual(psnr, 40, "\(name): \(stats)")
        }
    }

    /// Bad sync and wall flags: exit 2 with one line naming the flag.
    func testBadFlags() throws {
        let cases: [([String], String)] = [
            (["--sync-epoch", "soon"], "--sync-epoch: 'soon' is not a number"),
            (["--sync-epoch", "-5"], "--sync-epoch: -5 is out of range"),
            (["--wall", "640x360", "--viewport", "400,0,320,180"], "--viewport: 400,0,320,180 is not inside the 640x360 wall"),
            (["--wall", "640x360", "--viewport", "0,0,0,180"], "--viewport: 0,0,0,180 must have a positive width and height"),
            (["--viewport", "0,0,320,180"], "--viewport needs --wall"),
            (["--wall", "640x360"], "--wall needs --viewport"),
            (["--sync-epoch", "0", "--sync-audio", "loudest"], "--sync-audio: 'loudest' is not one of leader, all, none"),
            (["--sync-audio", "all"], "--sync-audio goes with --sync-epoch or --wall"),
        ]
        for (args, message) in cases {
            let r = try CLITests.run(["play", "--output", "headless", "--no-state"] + args + ["/nonexistent.png"], timeout: 30)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            let lines = r.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(message), "\(args): \(r.stderr)")
        }
    }
}
