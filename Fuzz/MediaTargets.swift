import KioskCore
import KioskMedia

/// Targets over the media front door and each picture decoder. Inputs go through a scratch file (the decoders
/// take paths); a decode runs only when the probe says the result is small, so one header claiming 16384×16384
/// can't turn a run into a test of the machine's memory.
enum MediaTargets {
    /// Most pixels (width × height × frames) a target decodes; larger files are only probed.
    static let maxDecodedPixels = 1 << 22
    /// The size stills are decoded to (the screen of a tiny kiosk).
    static let screen = PixelSize(width: 64, height: 48)

    static let all: [FuzzTarget] = [
        // Format sniffing and probe: every decoder family's probe, libavformat's demuxers, JPEG/PNG/XMP parsing.
        FuzzTarget(name: "sniff") { bytes in
            let path = FuzzFile.write(bytes)
            guard let info = try? MediaFile.probe(path) else { return }
            checkInfo(info)
            let decision = ProjectionResolver.decide(path: path, metadata: info.projection, override: nil)
            check(decision.projection.inputFOV.isFinite, "non-finite input FOV \(decision)")
        },
        // JPEG, PNG, BMP, TIFF, APNG through libavformat/libavcodec, scaled to a small screen.
        FuzzTarget(name: "image") { bytes in
            decodeSmall(bytes, probe: { try FFmpegImageDecoder.probe(path: $0) }) { path in
                let item = try FFmpegImageDecoder.decode(path: path, targetSize: { _ in screen })
                for image in images(item.picture) {
                    check(image.size.width <= screen.width && image.size.height <= screen.height,
                          "decoded \(image.size) for a \(screen) screen")
                }
                return item
            }
        },
        // GIF stills and animations through giflib (seeded with stills / with animations).
        FuzzTarget(name: "gif") { decodeSmall($0, probe: { try GifDecoder.probe(path: $0) }, decode: { try GifDecoder.decode(path: $0) }) },
        FuzzTarget(name: "gif-anim") { decodeSmall($0, probe: { try GifDecoder.probe(path: $0) }, decode: { try GifDecoder.decode(path: $0) }) },
        // WebP stills and animations through libwebp's demuxer and animation decoder.
        FuzzTarget(name: "webp") { decodeSmall($0, probe: { try WebPDecoder.probe(path: $0) }, decode: { try WebPDecoder.decode(path: $0) }) },
        FuzzTarget(name: "webp-anim") { decodeSmall($0, probe: { try WebPDecoder.probe(path: $0) }, decode: { try WebPDecoder.decode(path: $0) }) },
    ]

    /// Probes the input; when it is small enough, decodes it and checks that the decode agrees with the probe.
    static func decodeSmall(_ bytes: UnsafeBufferPointer<UInt8>, probe: (String) throws -> MediaInfo,
                            decode: (String) throws -> DecodedItem) {
        let path = FuzzFile.write(bytes)
        guard let info = try? probe(path) else { return }
        checkInfo(info)
        guard info.width * info.height * max(1, info.frames) <= maxDecodedPixels else { return }
        guard let item = try? decode(path) else { return }
        let found = images(item.picture)
        for image in found {
            check(image.size.width > 0 && image.size.height > 0, "empty picture \(image.size)")
            check(image.pixels.count == image.size.width * image.size.height * 4,
                  "\(image.pixels.count) bytes for \(image.size) RGBA")
        }
        if case .animation(let frames, let loops) = item.picture {
            check(loops >= 0, "loops \(loops)")
            check(!frames.isEmpty, "an animation without frames")
            check(frames.allSatisfy { $0.duration.isFinite && $0.duration > 0 }, "a frame duration not > 0")
            check(item.info.kind != .animation || frames.count == info.frames,
                  "probe says \(info.frames) frames, decode gives \(frames.count)")
        }
    }

    /// What every probe must say: sizes, frames and times that make sense.
    static func checkInfo(_ info: MediaInfo) {
        check(info.width >= 0 && info.height >= 0, "size \(info.width)x\(info.height)")
        check(info.frames >= 0 && info.loops >= 0, "frames \(info.frames), loops \(info.loops)")
        check(info.duration.map { $0.isFinite && $0 >= 0 } ?? true, "duration \(String(describing: info.duration))")
    }

    /// The pictures of a decoded item (none for a clip).
    static func images(_ picture: DecodedPicture) -> [RGBAImage] {
        switch picture {
        case .still(let image): return [image]
        case .animation(let frames, _): return frames.map(\.image)
        case .clip: return []
        }
    }
}
