import Foundation
import KioskCore
@testable import KioskMedia
import KioskPlayer
@testable import KioskRender
import KioskText
import XCTest

/// Text without bounds (issue 23 item 2): one letter under 300,000 combining marks, 900 KB of lines, marks
/// stacked on a caption, a 60 KB EXIF description. Drawn on llvmpipe with the real shaders and read back; the
/// kiosk process is driven over its socket, bounded in time, its standard error read while it runs.
final class TextBoundsTests: RenderTestCase {
    private let canvas = PixelSize(width: 640, height: 360)
    /// One letter and 300,000 acute accents (600,001 bytes of UTF-8).
    private let markPile = "e" + String(repeating: "\u{301}", count: 300_000)

    /// 21,500 numbered lines, over 900 KB (and, sent as JSON, under the 1 MiB line limit of the socket).
    private static func longLines() -> String {
        (0..<21_500).map { "line \($0) of a long message from a remote" }.joined(separator: "\n")
    }

    /// A scene of one text in the overlay area of a 16:9 canvas.
    private func scene(_ text: String, role: OverlayText.Role, anchor: OverlayAnchor = .topLeft,
                       maxLines: Int = 2, size: Double = 0.05) -> OverlayScene {
        OverlayScene(texts: [OverlayText(role: role, text: text, anchor: anchor, area: OverlayFixture.area, sizeFraction: size,
                                         maxLines: maxLines, maxWidthFraction: 0.9, box: true)])
    }

    /// `overlays` drawn over black with `renderer`, read back.
    private func draw(_ overlays: [RenderOverlay], with renderer: Renderer? = nil) throws -> RGBAImage {
        let r = try renderer ?? XCTUnwrap(self.renderer)
        let target = try OffscreenTarget(context: try gl(), size: canvas)
        try r.draw(RenderFrame(background: .black, layers: [], overlays: overlays), into: target)
        return try target.readPixels()
    }

    /// Pixels of `image` inside `rect` (or outside it) brighter than `level` in any channel.
    private func lit(_ image: RGBAImage, inside rect: PixelRect? = nil, outside: PixelRect? = nil, level: UInt8 = 4) -> Int {
        var n = 0
        for y in 0..<image.size.height {
            for x in 0..<image.size.width {
                if let r = rect, !(x >= r.x && x < r.maxX && y >= r.y && y < r.maxY) { continue }
                if let o = outside, x >= o.x && x < o.maxX && y >= o.y && y < o.maxY { continue }
                let i = (y * image.size.width + x) * 4
                if max(image.pixels[i], image.pixels[i + 1], image.pixels[i + 2]) > level { n += 1 }
            }
        }
        return n
    }

    /// The text drawings among `overlays`.
    private func drawings(_ overlays: [RenderOverlay]) -> [TextDrawing] {
        overlays.compactMap { if case .text(let d) = $0.content { return d } else { return nil } }
    }

    func testTheBoundsKeepWholeCharactersAndSayWhatTheyCut() {
        let b = TextBounds(maxCharacters: 5, maxLines: 2, maxMarksPerCharacter: 2)
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"  // one character of five code points, no marks
        XCTAssertEqual(b.apply("a\(family)b").text, "a\(family)b", "within bounds: as it was")
        XCTAssertNil(b.apply("a\(family)b").cut)
        let marked = b.apply("e\u{301}\u{302}\u{303}\u{304}x")
        XCTAssertEqual(marked.text, "e\u{301}\u{302}x")
        XCTAssertEqual(marked.cut?.droppedMarks, 2)
        XCTAssertNil(marked.cut?.reason, "nothing left out but marks: no ellipsis")
        XCTAssertEqual(b.apply("abcdefgh").text, "abcde…")
        XCTAssertEqual(b.apply("abcdefgh").cut?.reason, .characters)
        XCTAssertEqual(b.apply("a\r\nb\nc").text, "a\r\nb…", "CR LF is one line break")
        XCTAssertEqual(b.apply("a\r\nb\nc").cut?.reason, .lines)
        XCTAssertEqual(b.apply("abcd  efg").text, "abcd…", "the ellipsis follows the last word, not spaces")
        XCTAssertEqual(b.apply(String(repeating: "e\u{301}\u{301}\u{301}", count: 3)).cut?.description,
                       "text of 21 bytes cut: 3 combining marks over 2 on one character dropped")
    }

    func testThreeHundredThousandMarksLayOutInBoundedTimeAndAreDrawn() throws {
        let (log, captured) = CapturedLog.make()
        let painter = try OverlayPainter(family: FontLocator.defaultFamily, log: log)
        let start = MonotonicClock.seconds()
        let overlays = try painter.overlays(for: scene(markPile, role: .osd), canvas: canvas)
        let image = try draw(overlays)
        let seconds = MonotonicClock.seconds() - start
        XCTAssertLessThan(seconds, 5, "laid out and drawn in \(seconds) s")
        let box = try XCTUnwrap(drawings(overlays).first).box
        XCTAssertGreaterThan(lit(image, inside: box, level: 200), 20, "the letter is drawn, white")
        XCTAssertEqual(captured.count("overlays: osd text of 600001 bytes cut: 299996 combining marks over 4"), 1,
                       captured.lines.joined(separator: "\n"))
        _ = try painter.overlays(for: scene(markPile, role: .osd), canvas: canvas)
        XCTAssertEqual(captured.count("overlays: osd text"), 1, "said once per text, not per frame")
    }

    func testANineHundredKilobyteTextNeedsNoTextureOverTheLargest() throws {
        let text = Self.longLines()
        XCTAssertGreaterThan(text.utf8.count, 900_000)
        // 18 px lines, and 180 px ones: even the bounded text is then 100 lines, 20,000 px tall, over the largest.
        for size in [0.05, 0.5] {
            let (log, captured) = CapturedLog.make()
            let painter = try OverlayPainter(family: FontLocator.defaultFamily, log: log)
            let r = try Renderer(context: try gl())
            let overlays = try painter.overlays(for: scene(text, role: .osd, maxLines: 100_000, size: size), canvas: canvas)
            let image = try draw(overlays, with: r)
            XCTAssertGreaterThan(r.text.largestTextureSide, 0, "size \(size)")
            XCTAssertLessThanOrEqual(r.text.largestTextureSide, r.text.maxTextureSide, "size \(size): GL_MAX_TEXTURE_SIZE")
            XCTAssertEqual(r.droppedOverlayCount, 0, "size \(size)")
            XCTAssertGreaterThan(lit(image, level: 200), 500, "size \(size): the lines on screen are drawn")
            XCTAssertEqual(captured.count("overlays: osd text of \(text.utf8.count) bytes cut: ends with '…'"), 1,
                           "size \(size): \(captured.lines)")
        }
    }

    func testAnOverlayThatFailsIsLeftOutWithOneLineAndTheFrameGoesOn() throws {
        let (log, captured) = CapturedLog.make()
        let r = try Renderer(context: try gl(), log: log)
        // An atlas wider than GL takes (an embedded GPU's GL_MAX_TEXTURE_SIZE is 4096): that block can't be drawn.
        let side = r.text.maxTextureSide + 1
        let atlas = GlyphAtlasImage(atlasID: -23, generation: 1, size: PixelSize(width: side, height: 1),
                                    pixels: [UInt8](repeating: 255, count: side))
        let glyph = GlyphQuad(source: PixelRect(x: 0, y: 0, width: 8, height: 1), destination: PixelRect(x: 20, y: 20, width: 8, height: 1))
        let bad = TextDrawing(atlas: atlas, quads: [glyph], style: TextStyle.standard.resolved(pixelSize: 20),
                              box: PixelRect(x: 20, y: 20, width: 8, height: 1))
        let square = CanvasRect(x: 300, y: 150, width: 20, height: 20)
        let good = RenderOverlay(.solid(PremultipliedColor(red: 1, green: 1, blue: 1, alpha: 1)), rect: square, z: 2)
        for _ in 0..<2 {
            let image = try draw([RenderOverlay(text: bad), good], with: r)
            XCTAssertEqual(lit(image, inside: PixelRect(x: 300, y: 150, width: 20, height: 20), level: 250), 400,
                           "the overlay after it is drawn")
        }
        XCTAssertEqual(r.droppedOverlayCount, 2)
        XCTAssertEqual(captured.count("render: overlay left out: "), 1, captured.lines.joined(separator: "\n"))
        XCTAssertEqual(captured.count("GL_MAX_TEXTURE_SIZE"), 1, "the line says why")
    }

    func testMarksStackedOnACaptionStayInsideItsBox() throws {
        let (log, captured) = CapturedLog.make()
        let painter = try OverlayPainter(family: FontLocator.defaultFamily, log: log)
        // Marks of different kinds stack (mark-to-mark), above and below the line.
        let above = String(repeating: "\u{301}\u{308}\u{302}\u{30A}", count: 10), below = String(repeating: "\u{323}\u{324}\u{325}\u{32D}", count: 10)
        let text = "Å" + above + " pier " + "g" + below
        for anchor in [OverlayAnchor.bottom, .top] {
            let overlays = try painter.overlays(for: scene(text, role: .caption, anchor: anchor, maxLines: 3), canvas: canvas)
            let box = try XCTUnwrap(drawings(overlays).first).box
            let image = try draw(overlays)
            XCTAssertGreaterThan(lit(image, inside: box, level: 200), 50, "\(anchor): the caption is drawn")
            XCTAssertEqual(lit(image, outside: box), 0, "\(anchor): nothing lit outside the caption's box \(box)")
        }
        XCTAssertEqual(captured.count("overlays: caption text of \(text.utf8.count) bytes cut: 72 combining marks over 4"), 1,
                       "said once for the text (both places share its layout): \(captured.lines)")
    }

    func testASixtyKilobyteEXIFCaptionIsDrawnCutWithAnEllipsisAndSaidOnce() throws {
        let dir = try TempDir()
        let photo = dir.file("long.jpg")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=black:s=640x360", "-frames:v", "1", photo])
        let words = (0..<20_000).map { "harbour\($0)" }.joined(separator: " ")
        let description = String(words.prefix(60_000))
        try description.write(toFile: dir.file("description.txt"), atomically: true, encoding: .utf8)
        try CaptionFixtures.exiftool(photo, ["-EXIF:ImageDescription<=" + dir.file("description.txt")])
        XCTAssertEqual(try FFmpegCLI.run("exiftool", ["-b", "-EXIF:ImageDescription", photo]).count, 60_000,
                       "exiftool, the outside reader, finds all of it")
        let caption = try XCTUnwrap(CaptionFixtures.read(photo).metadata?.caption, "the description is read")
        XCTAssertTrue(description.hasPrefix(caption))
        XCTAssertEqual(caption.count, ItemMetadata.maxFieldLength, "read past EXIFText.maxText, kept to a field's length")
        let layout = try TextLayout(caption, font: Font(pixelSize: 18), maxWidth: 560, maxLines: 3, bounds: .caption)
        XCTAssertEqual(layout.lines.count, 3)
        XCTAssertEqual(layout.lines.last?.text.hasSuffix(TextLayout.ellipsis), true, "\(layout.lines.map(\.text))")
        var shots: [RGBAImage] = []
        var stderr = ""
        for extra in [["--captions"], ["--no-overlays"]] {
            let png = dir.file("shot\(shots.count).png")
            let run = try CLITests.run(["snapshot", photo, "--size", "640x360", "--output", png] + extra, timeout: 60)
            XCTAssertEqual(run.status, 0, run.stderr)
            if shots.isEmpty { stderr = run.stderr }
            shots.append(try OverlayOCR.load(png, size: canvas))
        }
        let bottom = PixelRect(x: 0, y: 180, width: 640, height: 180)
        XCTAssertNotNil(OverlayOCR.drawnBox(shots[0], shots[1], within: bottom), "the caption is drawn")
        let said = stderr.split(separator: "\n").filter { $0.contains("caption text of \(caption.utf8.count) bytes cut") }
        XCTAssertEqual(said.count, 1, stderr)
        XCTAssertTrue(said.first?.contains("ends with '…' after 500 characters") ?? false, stderr)
    }

    /// The `error` of the reply to `command`, or why there was none, without quoting the (huge) command.
    private func reply(_ c: IPCConnection, _ command: String) throws -> String {
        do {
            let r = try c.request(command, timeout: 20)
            if case .string(let error)? = r["error"] { return error }
            return "no error in \(r.text)"
        } catch {
            throw SocketTestError(description: "no reply to a command of \(command.utf8.count) bytes")
        }
    }

    func testAKioskGivenHugeShowTextsAnswersAfterwardsAndStopsOnSIGTERM() throws {
        let dir = try TempDir()
        let picture = dir.file("black.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=black:s=320x240", "-frames:v", "1", picture])
        let sock = dir.file("ipc.sock")
        let p = try LiveProcess(["play", "--output", "headless", "--size", "320x240", "--duration", "60", "--transition", "none",
                                 "--input-ipc-server", sock, "--log-level", "info", picture])
        var ended = false
        defer { if !ended { p.send(SIGKILL); _ = p.finish(timeout: 10) } }
        XCTAssertTrue(p.waitFor("ipc: listening on \(sock)", timeout: 30), p.stderr)
        let c = try IPCConnection(path: sock)
        XCTAssertEqual(try reply(c, #"["show-text","\#(markPile)",20000]"#), "success", "show-text of 300,000 marks")
        XCTAssertTrue(p.waitFor("overlays: osd text of 600001 bytes cut", timeout: 20), p.stderr)
        let shot = dir.file("shot.png")
        XCTAssertEqual(try c.request(#"["screenshot-to-file","\#(shot)"]"#, timeout: 20)["error"], .string("success"))
        let image = try OverlayOCR.load(shot, size: PixelSize(width: 320, height: 240))
        XCTAssertGreaterThan(lit(image, inside: PixelRect(x: 0, y: 0, width: 160, height: 120), level: 200), 10,
                             "the letter shows top left")
        let long = Self.longLines()
        let escaped = long.replacingOccurrences(of: "\n", with: "\\n")
        XCTAssertEqual(try reply(c, #"["show-text","\#(escaped)",20000]"#), "success", "show-text of \(long.utf8.count) bytes")
        XCTAssertTrue(p.waitFor("overlays: osd text of \(long.utf8.count) bytes cut", timeout: 20), p.stderr)
        XCTAssertEqual(try c.get("playlist-count"), .int(1), "it still answers")
        XCTAssertEqual(try c.get("idle-active"), .bool(false))
        p.send(SIGTERM)
        let end = p.finish(timeout: 20)
        ended = true
        XCTAssertEqual(end.status, 0, p.stderr)
        XCTAssertFalse(end.killedBySignal)
        XCTAssertFalse(p.stderr.contains("GL error"), p.stderr)
    }
}
