import Foundation
import KioskCore
import XCTest

/// Runs the ffmpeg and ffprobe command-line tools to make test files and reference decodes.
enum FFmpegCLI {
    /// Error for a failed tool run.
    struct Failure: Error, CustomStringConvertible {
        /// What ran and what it said.
        let description: String
    }

    /// Runs `tool` (a name in /usr/bin, or a path) with `arguments`; returns standard output, throws on a non-zero exit
    /// or after 300 s. Both outputs are read while it runs.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        let r = try BoundedProcess.run(tool.hasPrefix("/") ? tool : "/usr/bin/\(tool)", arguments, timeout: 300)
        guard r.status == 0, !r.timedOut else {
            throw Failure(description: "\(tool) \(arguments.joined(separator: " ")): \(String(decoding: r.stderr, as: UTF8.self))")
        }
        return r.stdout
    }

    /// `ffmpeg -y -v error` with `arguments`.
    static func ffmpeg(_ arguments: [String]) throws {
        try run("ffmpeg", ["-y", "-v", "error", "-nostdin"] + arguments)
    }

    /// ffmpeg's own decode of `path` (first frame), optionally through `filter`, as RGBA of `size`.
    static func referenceRGBA(_ path: String, size: PixelSize, filter: String? = nil) throws -> RGBAImage {
        var vf = "scale=\(size.width):\(size.height):flags=bicubic"
        if let filter { vf = filter + "," + vf }
        let data = try run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-frames:v", "1", "-vf", vf,
                                      "-pix_fmt", "rgba", "-f", "rawvideo", "-"])
        return RGBAImage(size: size, pixels: [UInt8](data))
    }

    /// All frames of `path` decoded by ffmpeg as RGBA of `size`.
    static func referenceFrames(_ path: String, size: PixelSize) throws -> [RGBAImage] {
        let data = [UInt8](try run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-vf",
                                              "scale=\(size.width):\(size.height):flags=bicubic",
                                              "-vsync", "passthrough", "-pix_fmt", "rgba", "-f", "rawvideo", "-"]))
        let n = size.width * size.height * 4
        return stride(from: 0, to: data.count - n + 1, by: n).map { RGBAImage(size: size, pixels: Array(data[$0..<($0 + n)])) }
    }

    /// One `-show_entries` value from ffprobe for the first video stream (`stream=width`) or the format.
    static func probe(_ path: String, _ entry: String, countFrames: Bool = false) throws -> String {
        var args = ["-v", "error", "-select_streams", "v:0"]
        if countFrames { args.append("-count_frames") }
        args += ["-show_entries", entry, "-of", "default=noprint_wrappers=1:nokey=1", path]
        let text = String(decoding: try run("ffprobe", args), as: UTF8.self)
        return text.split(separator: "\n").first.map(String.init) ?? ""
    }
}

/// A temporary folder removed when the test ends.
final class TempDir {
    /// The folder's path.
    let path: String

    /// Creates a fresh folder under the system temp dir.
    init() throws {
        path = NSTemporaryDirectory() + "kiosk-media-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A path inside the folder.
    func file(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
