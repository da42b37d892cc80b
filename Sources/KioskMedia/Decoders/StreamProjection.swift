internal import CFFmpeg
import KioskCore

/// Reads what a video stream's side data says about its projection: libavformat's spherical mapping (Google
/// spatial media `sv3d` in MP4, Matroska's Projection) and stereo 3D (MP4 `st3d`, Matroska StereoMode).
enum StreamProjection {
    /// The stream's projection metadata, or nil when it has none.
    static func metadata(_ stream: UnsafeMutablePointer<AVStream>) -> ProjectionMetadata? {
        var m = ProjectionMetadata()
        var size: Int = 0
        if let raw = av_stream_get_side_data(stream, AV_PKT_DATA_SPHERICAL, &size),
           size >= MemoryLayout<AVSphericalMapping>.size {
            let mapping = UnsafeRawPointer(raw).assumingMemoryBound(to: AVSphericalMapping.self).pointee
            switch mapping.projection {
            case AV_SPHERICAL_EQUIRECTANGULAR:
                m.kind = .equirect
                m.inputFOV = 360
            case AV_SPHERICAL_EQUIRECTANGULAR_TILE:
                // Bounds are 0.32 fixed-point fractions cropped off each side; VR180 crops a quarter left and right.
                let cropped = (Double(mapping.bound_left) + Double(mapping.bound_right)) / 4_294_967_296
                m.kind = .equirect
                m.inputFOV = min(max(360 * (1 - cropped), ItemProjection.equirectFOVs.lowerBound), 360)
            case AV_SPHERICAL_CUBEMAP:
                m.unsupported = "cubemap"
            default:
                m.unsupported = av_spherical_projection_name(mapping.projection).map { String(cString: $0) } ?? "unknown"
            }
        }
        if let raw = av_stream_get_side_data(stream, AV_PKT_DATA_STEREO3D, &size),
           size >= MemoryLayout<AVStereo3D>.size {
            let stereo = UnsafeRawPointer(raw).assumingMemoryBound(to: AVStereo3D.self).pointee
            switch stereo.type {
            case AV_STEREO3D_SIDEBYSIDE: m.stereo = .sbs
            case AV_STEREO3D_TOPBOTTOM: m.stereo = .tb
            case AV_STEREO3D_2D: m.stereo = .mono
            default: m.unsupported = m.unsupported ?? av_stereo3d_type_name(UInt32(stereo.type.rawValue)).map { "stereo " + String(cString: $0) }
            }
            m.swappedEyes = stereo.flags & kiosk_stereo3d_flag_invert() != 0
        }
        return m.isEmpty ? nil : m
    }
}
