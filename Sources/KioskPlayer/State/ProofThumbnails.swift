import KioskCore
import KioskPlayLog

/// Proof thumbnails (docs/proof-of-play.md): the frame read back small (`FramePresenter.thumbnail`) as a play log's
/// `ProofThumbnail`.
enum ProofThumbnails {
    /// `image`'s pixels as RGB (its alpha left out: the screen shows none).
    static func thumbnail(of image: RGBAImage) -> ProofThumbnail {
        var rgb: [UInt8] = []
        rgb.reserveCapacity(image.size.width * image.size.height * 3)
        var i = 0
        while i + 3 < image.pixels.count {
            rgb += image.pixels[i..<i + 3]
            i += 4
        }
        return ProofThumbnail(width: image.size.width, height: image.size.height, rgb: rgb)
    }
}
