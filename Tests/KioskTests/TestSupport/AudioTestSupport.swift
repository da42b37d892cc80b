import Foundation
import KioskCore
import XCTest

/// A real ALSA PCM for tests that needs no sound card: a `file` plugin writing WAV on top of `null`, defined in
/// an asoundrc that `ALSA_CONFIG_PATH` adds after the system's alsa.conf.
enum ALSATestDevice {
    /// The PCM name defined by the test asoundrc.
    static let name = "kiosktest"

    /// Points ALSA at a config defining `kiosktest` writing to `wav`; returns the PCM name.
    static func install(writingTo wav: String, in dir: TempDir) throws -> String {
        let rc = dir.file("asoundrc")
        let text = "pcm.\(name) { type file; slave.pcm \"null\"; file \"\(wav)\"; format \"wav\" }\n"
        try text.write(toFile: rc, atomically: true, encoding: .utf8)
        let system = "/usr/share/alsa/alsa.conf"
        setenv("ALSA_CONFIG_PATH", FileManager.default.fileExists(atPath: system) ? "\(system):\(rc)" : rc, 1)
        return name
    }

    /// Gives ALSA back its normal configuration (the test asoundrc goes with its temporary folder).
    static func uninstall() {
        unsetenv("ALSA_CONFIG_PATH")
    }
}

/// The sample data of a WAV file and its header's format.
struct WAVFile {
    /// Frames per second from the header.
    var sampleRate: Int
    /// Channels from the header.
    var channels: Int
    /// Bits per sample from the header.
    var bits: Int
    /// The `data` chunk's bytes.
    var data: [UInt8]

    /// Reads the `fmt ` and `data` chunks of `path`.
    init(path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 | Int(bytes[o + 2]) << 16 | Int(bytes[o + 3]) << 24 }
        func u16(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 }
        guard bytes.count >= 12, String(decoding: bytes[0..<4], as: UTF8.self) == "RIFF" else {
            throw FFmpegCLI.Failure(description: "\(path): not a RIFF file")
        }
        var o = 12
        var rate = 0, channels = 0, bits = 0
        var data: [UInt8]?
        while o + 8 <= bytes.count {
            let id = String(decoding: bytes[o..<(o + 4)], as: UTF8.self)
            let size = u32(o + 4)
            if id == "fmt " {
                channels = u16(o + 10); rate = u32(o + 12); bits = u16(o + 22)
            } else if id == "data" {
                data = Array(bytes[(o + 8)..<min(bytes.count, o + 8 + size)])
                break
            }
            o += 8 + size + (size & 1)
        }
        guard let data else { throw FFmpegCLI.Failure(description: "\(path): no data chunk") }
        self.sampleRate = rate
        self.channels = channels
        self.bits = bits
        self.data = data
    }
}

/// Audio comparisons and references for tests.
enum AudioCompare {
    /// ffmpeg's decode of `path` resampled to `format` (`-ar`, `-ac`, raw little-endian samples).
    static func reference(_ path: String, _ format: AudioFormat, seek: Double? = nil) throws -> [UInt8] {
        let raw = ["s16": "s16le", "s32": "s32le", "float": "f32le"][format.sample.rawValue] ?? "s16le"
        var args = ["-v", "error", "-nostdin"]
        if let seek { args += ["-ss", String(seek)] }
        args += ["-i", path, "-ar", String(format.sampleRate), "-ac", String(format.channels), "-f", raw, "-"]
        return [UInt8](try FFmpegCLI.run("ffmpeg", args))
    }

    /// Little-endian s16 samples of `bytes`.
    static func s16(_ bytes: [UInt8]) -> [Int16] {
        stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }

    /// The largest difference between two sample arrays over their common length, in LSB.
    static func maxDifference(_ a: [Int16], _ b: [Int16]) -> Int {
        zip(a, b).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    /// Every chunk of `source` until its end.
    static func readAll(_ source: any AudioSource, maxFrames: Int = 1000) throws -> (bytes: [UInt8], chunks: [AudioChunk]) {
        var bytes: [UInt8] = []
        var chunks: [AudioChunk] = []
        while let c = try source.read(maxFrames: maxFrames) {
            bytes += c.bytes
            chunks.append(c)
        }
        return (bytes, chunks)
    }

    /// A two-tone stereo 48 kHz clip (440 Hz left, 660 Hz right) of `seconds`, in `name`'s container.
    static func twoTone(_ dir: TempDir, _ name: String, seconds: Double = 2, codec: [String] = []) throws -> String {
        let path = dir.file(name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds):sample_rate=48000",
                              "-f", "lavfi", "-i", "sine=frequency=660:duration=\(seconds):sample_rate=48000",
                              "-filter_complex", "[0][1]amerge=inputs=2", "-ac", "2", "-ar", "48000"] + codec + [path])
        return path
    }

    /// A 44.1 kHz mono MP3 tone of `seconds` (forces resampling and upmixing to 48 kHz stereo).
    static func monoMP3(_ dir: TempDir, _ name: String = "mono.mp3", seconds: Double = 2) throws -> String {
        let path = dir.file(name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=523:duration=\(seconds):sample_rate=44100",
                              "-ac", "1", "-c:a", "libmp3lame", "-b:a", "96k", path])
        return path
    }
}
