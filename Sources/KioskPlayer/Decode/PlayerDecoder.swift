import Foundation
import KioskCore
import KioskMedia

extension Player {
    /// The decoder for a config: pictures are decoded straight to the size they take on the canvas; spherical
    /// items (by name or the item's override) whole, within the texture limit.
    /// Videos open their decoder thread (a one-frame video without sound is held like a still: `HeldFrameClip`) (at the place a long clip was left, from `resume`) and decode their first
    /// frame here, ahead of their slot.
    /// Clips come as planes or RGBA as `frames` says (by default, `--video-convert` guessed for this machine).
    public static func decoder(for config: PlayerConfig, log: Log = Log(level: .error),
                               resume: ResumeBook? = nil, frames: VideoFrameChoice? = nil) -> DecodeCache.Decode {
        decoder(for: config, log: log, resume: resume, frames: frames, layouts: nil)
    }

    /// The decoder for a config, keeping the layout items it reads in `layouts` (the player's, for their slots).
    static func decoder(for config: PlayerConfig, log: Log, resume: ResumeBook?, frames: VideoFrameChoice?,
                        layouts: LayoutItemReads?) -> DecodeCache.Decode {
        let canvas = config.size
        let fit = config.fit
        let maxZoom = config.kenBurns?.maxZoom ?? 1
        let decodeFile = fileDecoder(config: config, canvas: canvas, fit: fit, maxZoom: maxZoom, log: log, resume: resume,
                                     frames: frames ?? VideoFrameChoice(config.videoConversion), layouts: layouts)
        guard config.readsMetadata else { return decodeFile }
        // Captions and the now-playing card show what the file says of itself: read on the decode thread too.
        return { item in
            var decoded = try decodeFile(item)
            if config.readsMetadata(of: decoded.info.kind) { decoded.metadata = MediaMetadataReader.read(item, log: log) }
            return decoded
        }
    }

    /// Decodes one item's file.
    private static func fileDecoder(config: PlayerConfig, canvas: PixelSize, fit: FitMode, maxZoom: Double, log: Log,
                                    resume: ResumeBook?, frames: VideoFrameChoice, layouts: LayoutItemReads?) -> DecodeCache.Decode {
        return { item in
            let path = item.path
            if SMILFile.isSMIL(path) { return try LayoutItem.placeholder(path, limits: config.limits, into: layouts) }
            // A size over --max-pixels is refused here, from the headers, before ffmpeg decodes a frame of it.
            let probed = Self.isPictureName(path) ? nil : try MediaFile.probe(path, limits: config.limits)
            if let sound = probed, sound.kind == .audio {
                let length = min(sound.duration ?? 0, config.videoMax ?? .infinity)
                let look = SoundPicture.Look(overlays: config.overlays)  // the card's picture when overlays show
                return DecodedItem(info: sound, picture: .clip(SoundPicture(path: path, length: length, canvas: canvas,
                                                                            look: look, log: log)))
            }
            if let info = probed, info.kind == .video, Self.isSingleFrame(info) {
                return try HeldFrameClip.open(path, info: info, log: log, timeout: config.decodeTimeout)
            }
            if let info = probed, info.kind == .video {
                let start = info.duration.map { $0 >= ResumeBook.minimumLength ? resume?.start(for: path) ?? 0 : 0 } ?? 0
                let view = ItemView(path: path, metadata: info.projection, itemOverride: item.override, config: config)
                return try MediaFile.openClip(path, info: info, log: log, startAt: start, maxLength: config.videoMax,
                                              timeout: config.decodeTimeout, limits: config.limits) {
                    frames.form(displaySize: $0, view: view, canvas: canvas, fit: fit)
                }
            }
            let view = ItemView.beforeDecode(path: path, itemOverride: item.override, config: config)
            return try MediaFile.decode(path, limits: config.limits, timeout: config.decodeTimeout, targetSize: {
                view.decodeSize(picture: $0) { FlatView.decodeSize(picture: $0, canvas: canvas, fit: fit, maxZoom: maxZoom) }
            })
        }
    }

    /// Whether a video is one picture: one frame and no sound. It is shown like a still, for `--duration`, instead
    /// of as a clip whose slot would last one frame (and, alone in a playlist, be reopened every frame).
    static func isSingleFrame(_ info: MediaInfo) -> Bool {
        info.frames == 1 && !info.streams.contains { $0.type == "audio" }
    }

    /// Whether a file's name says it is a picture (no probe needed to tell it from a clip or a sound file).
    static func isPictureName(_ path: String) -> Bool {
        MediaExtensions.isPicture(path)
    }
}
