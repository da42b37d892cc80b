import Foundation
import KioskCore

/// mpv on the same llvmpipe, under a virtual X server: the video peer the benchmark measures kiosk against
/// (`mpv --vo=gpu --gpu-api=opengl --gpu-context=x11egl --untimed --no-audio`), with its peak RSS from GNU time.
/// One Xvfb serves every run; it ends with the peer.
final class MPVPeer {
    private let xvfb: Process
    private let display: String

    /// Starts Xvfb with a screen of `size` (`WxH`); nil (with the reason on stderr) when Xvfb, mpv or GNU time is
    /// missing (`Kiosk/bench.sh` installs them) or the server does not come up within 10 s.
    init?(size: String) {
        let tools = ["/usr/bin/Xvfb", "/usr/bin/mpv", "/usr/bin/time"]
        guard tools.allSatisfy({ FileManager.default.isExecutableFile(atPath: $0) }) else {
            FileHandle.standardError.write(Data("kiosk-bench: no mpv peer (needs \(tools.joined(separator: ", ")))\n".utf8))
            return nil
        }
        let n = 90 + Int(getpid() % 100)
        display = ":\(n)"
        xvfb = Process()
        xvfb.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        xvfb.arguments = [display, "-screen", "0", "\(size)x24", "-nolisten", "tcp"]
        xvfb.standardOutput = FileHandle.nullDevice
        xvfb.standardError = FileHandle.nullDevice
        do { try xvfb.run() } catch { return nil }
        let socket = "/tmp/.X11-unix/X\(n)"
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket) { usleep(100_000) }
        guard FileManager.default.fileExists(atPath: socket) else {
            xvfb.terminate()
            return nil
        }
    }

    deinit {
        xvfb.terminate()
        xvfb.waitUntilExit()
    }

    /// Plays `clip` untimed, full screen, every frame shown; its wall time and peak RSS in MiB.
    func play(_ clip: String, bench: Bench) throws -> (seconds: Double, rssMiB: Double) {
        let r = try bench.run("/usr/bin/time", ["-f", "peak-kib %M", "/usr/bin/mpv", "--no-config", "--vo=gpu", "--gpu-api=opengl",
                                                "--gpu-context=x11egl", "--untimed", "--no-audio", "--framedrop=no", "--fs",
                                                "--really-quiet", clip],
                              env: ["DISPLAY": display, "LIBGL_ALWAYS_SOFTWARE": "1"])
        let kib = r.err.split(separator: "\n").last { $0.hasPrefix("peak-kib ") }.flatMap { Double($0.dropFirst(9)) } ?? -1
        return (r.seconds, kib / 1024)
    }
}
