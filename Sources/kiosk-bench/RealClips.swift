import Foundation

/// Clips like users' own, made now from real photos (Debian's lomiri-wallpapers): each 10 s at 30 fps, a slow
/// pan across four photos, encoded as cameras and encoders make them (x264 `medium` with B-frames and CABAC,
/// x265 Main 10, a phone's rotated 4K with AAC sound) rather than `testsrc2` with `ultrafast`, which has no
/// B-frames and holds few frames in the decoder.
struct RealClip {
    /// The label in the benchmark's lines.
    let label: String
    /// What the encode is, for the lines.
    let kind: String
    /// The coded size.
    let width: Int, height: Int
    /// The encoder's arguments (after the picture and sound inputs).
    let encode: [String]
    /// Extra filters after the pan (camera-like grain).
    var grain = ""
    /// Whether the clip carries stereo AAC sound.
    var sound = false

    /// The benchmark's clips.
    static let all: [RealClip] = [
        RealClip(label: "1080p30", kind: "H.264 x264 medium crf 19, B-frames", width: 1920, height: 1080,
                 encode: ["-c:v", "libx264", "-preset", "medium", "-crf", "19", "-pix_fmt", "yuv420p"]),
        RealClip(label: "2160p30", kind: "H.264 x264 medium crf 21, B-frames, grain", width: 3840, height: 2160,
                 encode: ["-c:v", "libx264", "-preset", "medium", "-crf", "21", "-pix_fmt", "yuv420p"],
                 grain: ",noise=alls=3:allf=t"),
        RealClip(label: "1080p30 HEVC", kind: "HEVC Main 10 x265 medium crf 20", width: 1920, height: 1080,
                 encode: ["-c:v", "libx265", "-x265-params", "log-level=error", "-preset", "medium", "-crf", "20",
                          "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1"]),
        RealClip(label: "phone 2160p30", kind: "phone-like H.264 High, 3840x2160 rotated 90, AAC", width: 3840, height: 2160,
                 encode: ["-c:v", "libx264", "-preset", "medium", "-profile:v", "high", "-crf", "21", "-g", "30",
                          "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k", "-ac", "2", "-metadata:s:v:0", "rotate=90"],
                 grain: ",noise=alls=2:allf=t", sound: true),
    ]

    /// The photos panned across.
    static let photos = ["Bridge_by_Sander_Klootwijk.jpg", "sunset_by_Aitzol_Berasategi.jpg",
                         "picosdeeuropa_by_Aitzol_Berasategi.jpg", "seeding_by_Clements_Engelhardt.jpg"]
        .map { "/usr/share/backgrounds/" + $0 }

    /// Makes the clip at `path` with ffmpeg (minutes at 2160p on two cores).
    func make(_ path: String, bench: Bench) throws {
        for photo in Self.photos where !FileManager.default.fileExists(atPath: photo) {
            throw BenchError("\(photo) is missing: install lomiri-wallpapers-16.04 (Kiosk/setup.sh does)")
        }
        var args = ["-v", "error", "-y"]
        var filters: [String] = []
        for (i, photo) in Self.photos.enumerated() {
            args += ["-loop", "1", "-framerate", "30", "-t", "2.5", "-i", photo]
            // scaled to cover 5/4 of the frame, then a crop that moves across it: a camera's slow pan
            filters.append("[\(i):v]scale=\(width * 5 / 4):\(height * 5 / 4):force_original_aspect_ratio=increase,"
                           + "crop=\(width):\(height):x='(iw-\(width))*t/2.5':y='(ih-\(height))*t/5',setsar=1,format=yuv420p[v\(i)]")
        }
        if sound { args += ["-f", "lavfi", "-t", "10", "-i", "sine=frequency=440:sample_rate=48000"] }
        let chain = filters.joined(separator: ";") + ";[v0][v1][v2][v3]concat=n=4:v=1:a=0\(grain)[v]"
        args += ["-filter_complex", chain, "-map", "[v]"]
        if sound { args += ["-map", "\(Self.photos.count):a"] }
        // made under another name and renamed, so a run cut short never leaves a clip a rerun would take as made
        let partial = path + ".part.mp4"
        try bench.run("/usr/bin/ffmpeg", args + encode + [partial])
        guard rename(partial, path) == 0 else { throw BenchError("\(path): cannot rename the clip made") }
    }
}
