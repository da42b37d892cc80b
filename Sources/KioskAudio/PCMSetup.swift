internal import CALSA
import KioskCore

/// The hardware and software parameters negotiated for an opened playback PCM.
struct PCMSetup {
    /// The format the device accepted: the nearest it supports to the one asked for.
    var format: AudioFormat
    /// Frames per period (the device's wake-up unit).
    var periodFrames: Int
    /// Frames the ring buffer holds.
    var bufferFrames: Int
    /// Whether `snd_pcm_pause` works on this PCM.
    var canPause: Bool

    /// Period and buffer lengths asked for, in microseconds (about 20 ms and 100 ms).
    static let periodMicroseconds: UInt32 = 20_000
    static let bufferMicroseconds: UInt32 = 100_000

    /// The ALSA format of a sample type.
    static func alsaFormat(_ sample: AudioFormat.Sample) -> snd_pcm_format_t {
        switch sample {
        case .s16: return SND_PCM_FORMAT_S16_LE
        case .s32: return SND_PCM_FORMAT_S32_LE
        case .float: return SND_PCM_FORMAT_FLOAT_LE
        }
    }

    /// Sample types to try for `wanted`, nearest first.
    static func candidates(for wanted: AudioFormat.Sample) -> [AudioFormat.Sample] {
        switch wanted {
        case .s16: return [.s16, .s32, .float]
        case .s32: return [.s32, .float, .s16]
        case .float: return [.float, .s32, .s16]
        }
    }

    /// Negotiates interleaved read/write access, the nearest format, rate and channels, and a period of about
    /// 20 ms in a buffer of about 100 ms; playback starts once the buffer is full.
    static func negotiate(pcm: OpaquePointer, device: String, wanted: AudioFormat) throws -> PCMSetup {
        func check(_ rc: Int32, _ call: String) throws {
            if rc < 0 { throw AudioDeviceError(device: device, call: call, reason: ALSALibrary.errorText(Int(rc))) }
        }
        var hwOut: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&hwOut), "snd_pcm_hw_params_malloc")
        guard let hw = hwOut else { throw AudioDeviceError(device: device, call: "snd_pcm_hw_params_malloc", reason: "no memory") }
        defer { snd_pcm_hw_params_free(hw) }
        try check(snd_pcm_hw_params_any(pcm, hw), "snd_pcm_hw_params_any")
        try check(snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED), "snd_pcm_hw_params_set_access")
        guard let sample = candidates(for: wanted.sample).first(where: { snd_pcm_hw_params_test_format(pcm, hw, alsaFormat($0)) == 0 }) else {
            throw AudioDeviceError(device: device, call: "snd_pcm_hw_params_test_format", reason: "none of s16, s32, float is supported")
        }
        try check(snd_pcm_hw_params_set_format(pcm, hw, alsaFormat(sample)), "snd_pcm_hw_params_set_format")
        var channels = UInt32(max(1, wanted.channels))
        try check(snd_pcm_hw_params_set_channels_near(pcm, hw, &channels), "snd_pcm_hw_params_set_channels_near")
        var rate = UInt32(max(1, wanted.sampleRate))
        var dir: Int32 = 0
        try check(snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, &dir), "snd_pcm_hw_params_set_rate_near")
        var bufferTime = bufferMicroseconds
        dir = 0
        try check(snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &bufferTime, &dir), "snd_pcm_hw_params_set_buffer_time_near")
        var periodTime = periodMicroseconds
        dir = 0
        try check(snd_pcm_hw_params_set_period_time_near(pcm, hw, &periodTime, &dir), "snd_pcm_hw_params_set_period_time_near")
        try check(snd_pcm_hw_params(pcm, hw), "snd_pcm_hw_params")
        var period: snd_pcm_uframes_t = 0
        dir = 0
        try check(snd_pcm_hw_params_get_period_size(hw, &period, &dir), "snd_pcm_hw_params_get_period_size")
        var buffer: snd_pcm_uframes_t = 0
        try check(snd_pcm_hw_params_get_buffer_size(hw, &buffer), "snd_pcm_hw_params_get_buffer_size")
        let canPause = snd_pcm_hw_params_can_pause(hw) != 0

        var swOut: OpaquePointer?
        try check(snd_pcm_sw_params_malloc(&swOut), "snd_pcm_sw_params_malloc")
        guard let sw = swOut else { throw AudioDeviceError(device: device, call: "snd_pcm_sw_params_malloc", reason: "no memory") }
        defer { snd_pcm_sw_params_free(sw) }
        try check(snd_pcm_sw_params_current(pcm, sw), "snd_pcm_sw_params_current")
        try check(snd_pcm_sw_params_set_start_threshold(pcm, sw, buffer), "snd_pcm_sw_params_set_start_threshold")
        try check(snd_pcm_sw_params_set_avail_min(pcm, sw, period), "snd_pcm_sw_params_set_avail_min")
        try check(snd_pcm_sw_params(pcm, sw), "snd_pcm_sw_params")
        return PCMSetup(format: AudioFormat(sampleRate: Int(rate), channels: Int(channels), sample: sample),
                        periodFrames: Int(period), bufferFrames: Int(buffer), canPause: canPause)
    }
}
