// kiosk-bench: the benchmark (not a timed test). Prints figures for this machine, each against ffmpeg measured
// in the same run where there is an ffmpeg equivalent. Run through Kiosk/bench.sh (release build).
import Foundation
import KioskCore
import KioskPlayer

let args = Array(CommandLine.arguments.dropFirst())
let bench = Bench()
do {
    switch args.first {
    case "decode":  // child process: one decode, prints ms and peak RSS
        guard args.count >= 3, let size = PixelSize(parsing: args[2]) else { throw BenchError("usage: kiosk-bench decode FILE WxH") }
        try bench.decodeChild(args[1], size: size)
    case "stills":  // child process: stills per second through the headless pipeline
        guard args.count >= 4, let size = PixelSize(parsing: args[2]), let n = Int(args[3]) else {
            throw BenchError("usage: kiosk-bench stills DIR WxH COUNT")
        }
        try bench.stillsChild(args[1], size: size, count: n)
    case "projection":  // child process: equirect view vs flat pass draw time
        guard args.count >= 4, let size = PixelSize(parsing: args[2]), let n = Int(args[3]) else {
            throw BenchError("usage: kiosk-bench projection FILE WxH FRAMES")
        }
        try bench.projectionChild(args[1], size: size, frames: n)
    case "videopass":  // child process: a decoded video frame's upload and draw against the flat pass of a picture
        guard args.count >= 4, let size = PixelSize(parsing: args[2]), let n = Int(args[3]) else {
            throw BenchError("usage: kiosk-bench videopass CLIP WxH FRAMES")
        }
        try VideoPassBench.run(clip: args[1], canvas: size, frames: n)
    case "text":  // kiosk-bench text [FRAMES]: a frame's cost with a caption and a clock, against without
        try TextBench.run(frames: args.count >= 2 ? Int(args[1]) ?? 30 : 30)
    case "minify":  // kiosk-bench minify [FRAMES]: a frame's draw with the minification pre-pass, against 2× without
        try MinifyBench.run(frames: max(1, args.count >= 2 ? Int(args[1]) ?? 10 : 10))
    case "layout":  // kiosk-bench layout [FRAMES]: a 3-region layout with a clock against its clip full screen
        try LayoutBench.run(bench: bench, frames: max(1, args.count >= 2 ? Int(args[1]) ?? 150 : 150))
    case "layout-child":  // child process: kiosk-bench layout-child FILE.smil FRAMES
        guard args.count >= 3, let n = Int(args[2]) else { throw BenchError("usage: kiosk-bench layout-child FILE.smil FRAMES") }
        try LayoutBench.child(args[1], frames: n)
    case "soak":  // kiosk-bench soak [COUNT]: item changes through the real decoders and renderer, virtual clock
        try SoakBench.run(count: args.count >= 2 ? Int(args[1]) ?? 10_000 : 10_000)
    case "ipc":  // only the remote-control step: kiosk-bench ipc KIOSK [COUNT]
        guard args.count >= 2 else { throw BenchError("usage: kiosk-bench ipc KIOSK [COUNT]") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-ipc-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try IPCBench(kiosk: args[1], dir: dir).run(count: args.count >= 3 ? Int(args[2]) ?? 1000 : 1000)
    case "web":  // only the web page's step: kiosk-bench web KIOSK [COUNT] [CLIENTS] [SECONDS]
        guard args.count >= 2 else { throw BenchError("usage: kiosk-bench web KIOSK [COUNT] [CLIENTS] [SECONDS]") }
        let number = { (i: Int, fallback: Int) in args.count > i ? Int(args[i]) ?? fallback : fallback }
        try WebBench.run(kiosk: args[1], count: max(1, number(2, 1000)), clients: max(1, number(3, 16)), seconds: Double(max(1, number(4, 10))))
    case "state-saver":  // hidden: the state file's kill test (StateStoreTests) runs it
        guard args.count >= 3, let first = Int(args[2]) else { throw BenchError("usage: kiosk-bench state-saver DIR FIRST [SECONDS]") }
        try StateSaver.run(directory: args[1], first: first, seconds: args.count >= 4 ? Double(args[3]) ?? 20 : 20)
    case "folder":  // kiosk-bench folder [COUNT]: a watched folder's initial scan (child process) and one change
        try FolderBench.run(count: args.count >= 2 ? Int(args[1]) ?? 100_000 : 100_000)
    case "folder-child":  // child process: kiosk-bench folder-child DIR COUNT
        guard args.count >= 3, let n = Int(args[2]) else { throw BenchError("usage: kiosk-bench folder-child DIR COUNT") }
        try FolderBench.child(args[1], count: n)
    case "grid":  // kiosk-bench grid KIOSK [COUNT]: the grid of COUNT items opened twice, decoding then from the disk cache
        guard args.count >= 2 else { throw BenchError("usage: kiosk-bench grid KIOSK [COUNT]") }
        try GridBench.run(kiosk: args[1], count: args.count >= 3 ? Int(args[2]) ?? 10_000 : 10_000)
    case "playlog":  // kiosk-bench playlog KIOSK [ROWS]: the play log's report by day over ROWS showings against sqlite3
        guard args.count >= 2 else { throw BenchError("usage: kiosk-bench playlog KIOSK [ROWS]") }
        try PlayLogBench.run(bench: bench, kiosk: args[1], rows: max(1, args.count >= 3 ? Int(args[2]) ?? 1_000_000 : 1_000_000))
    case "content":  // kiosk-bench content KIOSK [FETCHERS]: kiosk play URL cold and warm, an unchanged check, a fleet of fetchers
        guard args.count >= 2 else { throw BenchError("usage: kiosk-bench content KIOSK [FETCHERS]") }
        try ContentBench.run(kiosk: args[1], fetchers: max(1, args.count >= 3 ? Int(args[2]) ?? 50 : 50))
    case "screens":  // kiosk-bench screens KIOSK [DIR]: two 1080p screens each with a 1080p30 clip against one (issue 40)
        guard args.count >= 2 else { throw BenchError("usage: kiosk-bench screens KIOSK [DIR]") }
        try ScreensBench.run(bench: bench, kiosk: args[1], directory: args.count >= 3 ? args[2] : nil)
    case "sdwrites":  // kiosk-bench sdwrites KIOSK [MINUTES] [DIR]: bytes written an hour at 1,800 showings an hour (issue 41)
        guard args.count >= 2 else { throw BenchError("usage: kiosk-bench sdwrites KIOSK [MINUTES] [DIR]") }
        try SDWritesBench.run(kiosk: args[1], minutes: max(0.5, args.count >= 3 ? Double(args[2]) ?? 12 : 12),
                              directory: args.count >= 4 ? args[3] : nil)
    case "health":  // kiosk-bench health KIOSK: CPU with health and proof of display on against off (issue 41)
        guard args.count >= 2 else { throw BenchError("usage: kiosk-bench health KIOSK") }
        try HealthBench.run(bench: bench, kiosk: args[1])
    case "jpeg":  // only the JPEG step: kiosk-bench jpeg
        try bench.jpeg()
    case "video":  // only the video step: kiosk-bench video KIOSK [DIR] (DIR keeps the clips made, for a rerun)
        guard args.count >= 2 else { throw BenchError("usage: kiosk-bench video KIOSK [DIR]") }
        try bench.video(kiosk: args[1], in: args.count >= 3 ? URL(fileURLWithPath: args[2]) : nil)
    default:
        try bench.all(kiosk: args.first)
    }
} catch {
    FileHandle.standardError.write(Data("kiosk-bench: \(error)\n".utf8))
    exit(1)
}
