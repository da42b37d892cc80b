import KioskCore

/// Volume applied to samples in software, so it works on every PCM: linear gain `volume / 100`, rounded to the
/// nearest integer sample (half away from zero); mute writes zeros.
enum SoftwareVolume {
    /// Scales the interleaved `bytes` of `sample` type in place.
    static func apply(to bytes: inout [UInt8], sample: AudioFormat.Sample, volume: Int, muted: Bool) {
        if muted || volume <= 0 {
            bytes = [UInt8](repeating: 0, count: bytes.count)
            return
        }
        guard volume < 100 else { return }
        let v = Int64(volume)
        bytes.withUnsafeMutableBytes { raw in
            switch sample {
            case .s16:
                for o in stride(from: 0, to: raw.count - 1, by: 2) {
                    let s = Int64(raw.loadUnaligned(fromByteOffset: o, as: Int16.self))
                    raw.storeBytes(of: Int16(scaled(s, v)), toByteOffset: o, as: Int16.self)
                }
            case .s32:
                for o in stride(from: 0, to: raw.count - 3, by: 4) {
                    let s = Int64(raw.loadUnaligned(fromByteOffset: o, as: Int32.self))
                    raw.storeBytes(of: Int32(scaled(s, v)), toByteOffset: o, as: Int32.self)
                }
            case .float:
                let gain = Float(volume) / 100
                for o in stride(from: 0, to: raw.count - 3, by: 4) {
                    let s = raw.loadUnaligned(fromByteOffset: o, as: Float.self)
                    raw.storeBytes(of: s * gain, toByteOffset: o, as: Float.self)
                }
            }
        }
    }

    /// `s * v / 100` rounded half away from zero (never larger in magnitude than `s`).
    private static func scaled(_ s: Int64, _ v: Int64) -> Int64 {
        let p = s * v
        return p >= 0 ? (p + 50) / 100 : (p - 50) / 100
    }
}
