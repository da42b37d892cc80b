internal import CFFmpeg
import KioskCore

/// The plane path's frames: planes left in the decoder's buffers, held by a reference until the last plane goes.
extension VideoStreamReader {
    /// The frame's planes where the decoder put them (stride kept), referenced with `av_frame_ref` rather than
    /// copied: the decoder's buffer is reused only once the last plane of the frame is gone (uploaded and
    /// dropped). Nil for a layout the planes cannot take (negative strides) or when the reference fails.
    static func referencePlanes(_ frame: UnsafeMutablePointer<AVFrame>, layout: VideoPixelLayout,
                                        size: PixelSize) -> [VideoPlane]? {
        // the reference's own pointers: the same buffers as the decoder's frame (or a copy, were it not counted)
        guard let held = HeldFrame(referencing: frame) else { return nil }
        let f = held.frame.pointee
        let data = [f.data.0, f.data.1, f.data.2]
        let strides = [Int(f.linesize.0), Int(f.linesize.1), Int(f.linesize.2)]
        var spans: [(base: UnsafeMutablePointer<UInt8>, count: Int, stride: Int, rows: Int)] = []
        for i in 0..<layout.planeCount {
            guard let base = data[i], strides[i] > 0 else { return nil }
            let plane = layout.planeSize(i, of: size)
            let rowBytes = plane.width * layout.bytesPerTexel(plane: i)
            guard strides[i] >= rowBytes, strides[i] % layout.bytesPerTexel(plane: i) == 0 else { return nil }
            spans.append((base, strides[i] * (plane.height - 1) + rowBytes, strides[i], plane.height))
        }
        return spans.map { span in
            VideoPlane(memory: PlaneMemory(base: UnsafeRawPointer(span.base), count: span.count, release: { held.keep() }),
                       stride: span.stride, rows: span.rows)
        }
    }
}

/// A reference to a decoded frame's buffers (`av_frame_ref`), dropped (`av_frame_free`) when the last plane
/// holding it goes.
final class HeldFrame: @unchecked Sendable {
    /// The reference: its data pointers are the planes' bytes.
    let frame: UnsafeMutablePointer<AVFrame>

    /// A new reference to `source`'s buffers; nil when ffmpeg cannot make one.
    init?(referencing source: UnsafeMutablePointer<AVFrame>) {
        guard let ref = av_frame_alloc() else { return nil }
        guard av_frame_ref(ref, source) >= 0 else {
            var failed: UnsafeMutablePointer<AVFrame>? = ref
            av_frame_free(&failed)
            return nil
        }
        frame = ref
    }

    deinit {
        var owned: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&owned)
    }

    /// Nothing: a plane's release calls it so that the plane's memory holds this object until it goes.
    func keep() {}
}
