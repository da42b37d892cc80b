import Foundation
import KioskCore
@testable import KioskPlayer
import XCTest

/// The state file (issue 12, part 3): bad files are ignored with one warn line, a save never leaves a torn or
/// mixed file (a saving process SIGKILLed at random moments, 200 times), the folder rules, and the pure rules
/// that turn the player's status into a state and decide when to save.
final class StateStoreTests: XCTestCase {
    private func store(_ dir: TempDir, _ lines: LockedLines) -> StateStore {
        StateStore(directory: dir.path, log: Log(level: .debug, sink: { lines.append($0) }))
    }

    private func sample() -> PlayerState {
        var s = PlayerState()
        s.path = "/media/clips/long.mp4"
        s.position = 203.5
        s.duration = 480
        s.volume = 30
        s.muted = true
        s.paused = true
        s.resume = ["/media/other.mp4": 61]
        s.saved = 1_700_000_000.25
        return s
    }

    func testSaveLoadsBackAndLeavesOnlyTheStateFile() throws {
        let dir = try TempDir()
        let lines = LockedLines()
        let nested = StateStore(directory: dir.file("a/b/kiosk"), log: Log(level: .debug, sink: { lines.append($0) }))
        try nested.prepare()
        var st = stat()
        XCTAssertEqual(stat(dir.file("a/b/kiosk"), &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o700, "the folders it makes are the user's alone")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: nested.directory), [], "the write probe leaves nothing")
        XCTAssertNil(nested.load(), "no file yet")
        var state = sample()
        state.path = FileName.decode([0x2F, 0x6D, 0xFF, 0x2E, 0x6D, 0x70, 0x34])  // "/m\xff.mp4": not UTF-8
        try nested.save(state)
        XCTAssertEqual(nested.load(), state)
        state.volume = 0
        try nested.save(state)
        XCTAssertEqual(nested.load(), state)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: nested.directory), ["state.json"])
        XCTAssertEqual(stat(nested.file, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        XCTAssertEqual(lines.all, [], "nothing to say")
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: nested.file)), as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("{") && text.contains("\"kiosk-state\":1"), text)
    }

    /// Each bad file: nil and exactly one warn line naming the file and why; never a crash.
    func testBadFilesAreIgnoredWithOneWarnLine() throws {
        let valid = try sample().encoded()
        let cases: [(String, Data, String)] = [
            ("garbage", Data([0x00, 0xFF, 0x13, 0x37] + Array("not json at all {{{".utf8)), "not valid JSON"),
            ("truncated", valid.prefix(valid.count / 2), "not valid JSON"),
            ("foreign", Data(#"{"volume": 30, "path": "/x.mp4"}"#.utf8), "no \"kiosk-state\" marker"),
            ("an array", Data("[1, 2, 3]".utf8), "not a JSON object"),
            ("empty", Data(), "empty"),
            ("newer", Data(#"{"kiosk-state": 2, "volume": 30}"#.utf8), "state format 2"),
            ("a marker that is not a number", Data(#"{"kiosk-state": "yes"}"#.utf8), "not a format number"),
            ("a wrong type", Data(#"{"kiosk-state": 1, "volume": "loud"}"#.utf8), "\"volume\""),
            ("out of range", Data(String(decoding: valid, as: UTF8.self).replacingOccurrences(of: #""volume":30"#, with: #""volume":300"#).utf8),
             "volume 300"),
            ("a missing field", Data(#"{"kiosk-state": 1, "volume": 30}"#.utf8), "missing \""),
        ]
        for (name, bytes, reason) in cases {
            let dir = try TempDir()
            let lines = LockedLines()
            let s = store(dir, lines)
            try bytes.write(to: URL(fileURLWithPath: s.file))
            XCTAssertNil(s.load(), name)
            XCTAssertEqual(lines.all.count, 1, "\(name): \(lines.all)")
            let line = lines.all.first ?? ""
            XCTAssertTrue(line.hasPrefix("kiosk: warn: state: ignoring \(s.file): "), "\(name): \(line)")
            XCTAssertTrue(line.contains(reason), "\(name): \(line)")
        }
        // A folder named state.json: not read, and a save over it fails in one line, leaving nothing behind.
        let dir = try TempDir()
        let lines = LockedLines()
        let s = store(dir, lines)
        try FileManager.default.createDirectory(atPath: s.file, withIntermediateDirectories: false)
        XCTAssertNil(s.load())
        XCTAssertEqual(lines.all, ["kiosk: warn: state: ignoring \(s.file): not a regular file"])
        XCTAssertThrowsError(try s.save(sample())) { error in
            XCTAssertTrue("\(error)".contains("rename to \(s.file)"), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["state.json"], "no temporary file left")
    }

    /// What a crash can leave (a temporary file, whole or cut) is never read, and the next save reuses it.
    func testALeftoverTemporaryFileIsIgnoredAndReused() throws {
        let dir = try TempDir()
        let lines = LockedLines()
        let s = store(dir, lines)
        try s.save(sample())
        try Data(#"{"kiosk-state": 1, "vol"#.utf8).write(to: URL(fileURLWithPath: dir.file(StateStore.temporaryName)))
        XCTAssertEqual(s.load(), sample())
        var next = sample()
        next.path = "/media/b.jpg"
        try s.save(next)
        XCTAssertEqual(s.load(), next)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["state.json"])
        XCTAssertEqual(lines.all, [])
    }

    /// A folder that cannot be made or written: one warn line, no keeper (the player runs without saving).
    func testAnUnusableFolderIsOneWarnLine() throws {
        let dir = try TempDir()
        try Data("a file".utf8).write(to: URL(fileURLWithPath: dir.file("file")))
        let lines = LockedLines()
        let keeper = StateKeeper.open(directory: dir.file("file/kiosk"), environment: [:],
                                      log: Log(level: .debug, sink: { lines.append($0) }))
        XCTAssertNil(keeper)
        XCTAssertEqual(lines.all.count, 1, "\(lines.all)")
        XCTAssertTrue(lines.all.first?.hasPrefix("kiosk: warn: state: mkdir \(dir.file("file/kiosk")): ") ?? false, "\(lines.all)")
        XCTAssertTrue(lines.all.first?.hasSuffix("playing without saving where it is") ?? false, "\(lines.all)")
    }

    func testStandardFolder() {
        let none: (String) -> Bool = { _ in false }
        XCTAssertEqual(StateDirectory.standard(environment: ["STATE_DIRECTORY": "/var/lib/kiosk:/var/lib/other", "HOME": "/h"],
                                               canWrite: none), "/var/lib/kiosk")
        XCTAssertEqual(StateDirectory.standard(environment: ["HOME": "/h"], canWrite: { $0 == "/var/lib/kiosk" }), "/var/lib/kiosk")
        XCTAssertEqual(StateDirectory.standard(environment: ["XDG_STATE_HOME": "/x/state/", "HOME": "/h"], canWrite: none),
                       "/x/state/kiosk")
        XCTAssertEqual(StateDirectory.standard(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"], canWrite: none),
                       "/h/.local/state/kiosk", "a relative XDG_STATE_HOME is ignored")
        XCTAssertNil(StateDirectory.standard(environment: [:], canWrite: none))
    }

    /// The state follows the status: the item and a clip's place while something shows (kept while nothing does);
    /// the user's and the remote's pause count, the others not. Saves: on changes, every 10 s of a long clip only.
    func testStateFollowsTheStatusAndSavesOnlyWhatMatters() {
        var status = PlayerStatus()
        status.playlist = [PlayerStatus.Entry(id: ItemID(0), path: "/m/long.mp4"), PlayerStatus.Entry(id: ItemID(1), path: "/m/a.jpg"),
                           PlayerStatus.Entry(id: ItemID(2), path: "/m/other.mp4")]
        status.volume = 40
        status.pauseReasons = [.zoomed, .interaction]
        let start = PlayerState().following(status, resume: [:], savedAt: 1)
        XCTAssertNil(start.path)
        XCTAssertFalse(start.paused, "a zoom or a finger down is not kept")
        XCTAssertEqual(start.volume, 40)
        status.currentID = ItemID(0)
        status.itemKind = "video"
        status.timePosition = 100
        status.duration = 480
        let clip = start.following(status, resume: ["/m/long.mp4": 5, "/m/other.mp4": 7, "/m/gone.mp4": 9], savedAt: 2)
        XCTAssertEqual(clip.path, "/m/long.mp4")
        XCTAssertEqual(clip.position, 100)
        XCTAssertEqual(clip.duration, 480)
        XCTAssertEqual(clip.resume, ["/m/other.mp4": 7], "the item on screen is its own position; clips not in the playlist go")
        XCTAssertTrue(clip.needsSaving(since: start, period: 10, longClip: 420))
        status.timePosition = 109.9
        let later = clip.following(status, resume: ["/m/other.mp4": 7], savedAt: 3)
        XCTAssertFalse(later.needsSaving(since: clip, period: 10, longClip: 420))
        XCTAssertTrue(later.differs(from: clip), "at exit, any move is written")
        status.timePosition = 110
        XCTAssertTrue(clip.following(status, resume: ["/m/other.mp4": 7], savedAt: 4).needsSaving(since: clip, period: 10, longClip: 420))
        status.duration = 30
        let short = clip.following(status, resume: ["/m/other.mp4": 7], savedAt: 5)
        var shortThen = short
        shortThen.position = 0
        XCTAssertFalse(short.needsSaving(since: shortThen, period: 10, longClip: 420), "a short clip's place alone is not worth a save")
        status.pauseReasons = [.remote]
        XCTAssertTrue(short.following(status, resume: ["/m/other.mp4": 7], savedAt: 6).paused)
        status.pauseReasons = [.user]
        let paused = short.following(status, resume: ["/m/other.mp4": 7], savedAt: 6)
        XCTAssertTrue(paused.paused)
        XCTAssertTrue(paused.needsSaving(since: short, period: 10, longClip: 420))
        status.currentID = ItemID(1)
        status.itemKind = "image"
        let still = paused.following(status, resume: ["/m/other.mp4": 7], savedAt: 7)
        XCTAssertEqual(still.path, "/m/a.jpg")
        XCTAssertNil(still.position, "a still has no place to keep")
        status.currentID = nil
        let idle = still.following(status, resume: [:], savedAt: 8)
        XCTAssertEqual(idle.path, "/m/a.jpg", "nothing on screen: the last item is kept")
    }
}
