// A layout's sound: one loudspeaker, so the first region (in the layout's order) showing a medium with sound
// and a soundLevel above 0 is heard, at that level, through real ALSA (a `file` PCM over `null`).
import Foundation
import KioskAudio
import KioskCore
import KioskMedia
@testable import KioskPlayer
import XCTest

final class LayoutSoundTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }
    override func tearDown() { ALSATestDevice.uninstall() }

    /// A 1 s clip, 160x120 at 25 fps, with a sine of `frequency` Hz as PCM in mkv (so its sound is exactly 1 s).
    private func clip(_ dir: TempDir, _ name: String, frequency: Int) throws -> String {
        let path = dir.file(name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=1", "-f", "lavfi",
                              "-i", "sine=f=\(frequency):d=1:sample_rate=48000", "-c:v", "libx264", "-preset", "ultrafast",
                              "-pix_fmt", "yuv420p", "-c:a", "pcm_s16le", "-ac", "2", path])
        return path
    }

    /// main: 440 Hz at soundLevel 0%; side: 880 Hz at 50%; a 1 s body.
    private func layout(_ dir: TempDir) throws -> (smil: String, high: String) {
        _ = try clip(dir, "low.mkv", frequency: 440)
        let high = try clip(dir, "high.mkv", frequency: 880)
        let smil = dir.file("sound.smil")
        try """
            <smil><head><layout><root-layout width="320" height="180"/>
            <region regionName="main" left="0" top="0" width="160" height="180"/>
            <region regionName="side" left="160" top="0" width="160" height="180"/>
            </layout></head><body><par>
            <video src="low.mkv" region="main" soundLevel="0%"/>
            <video src="high.mkv" region="side" soundLevel="50%"/>
            </par></body></smil>
            """.write(toFile: smil, atomically: true, encoding: .utf8)
        return (smil, high)
    }

    func testTheFirstRegionWithSoundIsHeardAtItsSoundLevel() throws {
        let dir = try TempDir()
        let (smil, high) = try layout(dir)
        let wav = dir.file("out.wav")
        var config = PlayerConfig()
        config.size = PixelSize(width: 320, height: 180)
        config.slideshow.loop = false
        config.audio.device = try ALSATestDevice.install(writingTo: wav, in: dir)
        let lines = LineBox()
        _ = try PlayJob.play(items: [], layout: try SMILFile.load(smil), config: config, length: 10,
                             log: Log(level: .info, sink: { lines.append($0) }), shouldStop: { false }, onFirstFrame: nil)
        XCTAssertEqual(lines.all.filter { $0.contains("layout: sound from region side: \(high) at soundLevel 50%") }.count, 1,
                       "\(lines.all)")
        // main is silent (soundLevel 0%): what was heard is side's 880 Hz, sample for sample at half the volume
        let heard = AudioCompare.s16(try WAVFile(path: wav).data)
        let reference = AudioCompare.s16(try AudioCompare.reference(high, .standard))
        XCTAssertEqual(Double(heard.count) / 2 / 48_000, 1.0, accuracy: 0.05, "the clip's whole second")
        var off = 0
        for (h, r) in zip(heard, reference) where abs(2 * Int(h) - Int(r)) > 1 { off += 1 }
        XCTAssertEqual(off, 0, "every sample is side's at half volume (\(off) of \(min(heard.count, reference.count)) differ)")
    }

    /// `record` mixes the region heard into the file: side's 880 Hz at half its level (AAC, so by its level and
    /// its zero crossings, not sample for sample).
    func testRecordMixesTheRegionHeard() throws {
        let dir = try TempDir()
        let (smil, high) = try layout(dir)
        let out = dir.file("rec.mp4")
        let r = try CLITests.run(["record", smil, "--output", out, "--size", "320x180", "--fps", "10"], timeout: 120)
        XCTAssertEqual(r.status, 0, r.stderr)
        let pcm = [UInt8](try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", out, "-map", "0:a:0", "-ac", "1", "-ar", "48000",
                                                       "-f", "s16le", "-"]))
        let reference = [UInt8](try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", high, "-map", "0:a:0", "-ac", "1",
                                                             "-ar", "48000", "-f", "s16le", "-"]))
        func samples(_ b: [UInt8]) -> [Double] {
            stride(from: 0, to: b.count - 1, by: 2).map { Double(Int16(bitPattern: UInt16(b[$0]) | UInt16(b[$0 + 1]) << 8)) }
        }
        // the middle of the second, clear of the encoder's start and end
        let got = Array(samples(pcm).dropFirst(9600).prefix(28800)), want = Array(samples(reference).dropFirst(9600).prefix(28800))
        func rms(_ x: [Double]) -> Double { (x.reduce(0) { $0 + $1 * $1 } / Double(max(1, x.count))).squareRoot() }
        let ratio = 20 * log10(rms(got) / max(rms(want), 1))
        XCTAssertEqual(ratio, -6.02, accuracy: 1, "half the level: \(ratio) dB")
        let crossings = zip(got, got.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        XCTAssertEqual(Double(crossings) / 0.6, 1760, accuracy: 60, "880 Hz: \(crossings) crossings in 0.6 s")
    }
}
