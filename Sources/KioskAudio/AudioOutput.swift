internal import CALSA
import Foundation
import Glibc
import KioskCore

/// Blocking playback on one ALSA PCM (any name: `default`, `hw:0`, a PCM from an asoundrc), with software volume
/// and the count of frames actually heard. Writes come from one thread; `position`, `volume`, `muted` and
/// `underruns` may be read and set from any thread.
public final class AudioOutput: @unchecked Sendable {
    /// The PCM name it was opened with.
    public let device: String
    /// The negotiated format; chunks written must be in it.
    public let format: AudioFormat
    /// Frames per period.
    public let periodFrames: Int
    /// Frames in the device's ring buffer.
    public let bufferFrames: Int
    /// Whether the device pauses in place (else a pause plays out the buffer and stops).
    public let canPause: Bool

    /// Seconds a write may wait for room in the buffer before the device is declared stalled.
    static let stallSeconds = 2.0

    private let lock = NSLock()
    private var pcm: OpaquePointer?
    private var written: Int = 0
    private var _underruns = 0
    private var _volume = 100
    private var _muted = false

    /// Opens the playback PCM `device` and negotiates the format nearest to `wanted`. Throws an
    /// `AudioDeviceError` naming the device when there is no such PCM or no sound card behind it.
    public init(device: String = "default", format wanted: AudioFormat) throws {
        _ = ALSALibrary.quiet
        self.device = device
        ALSALibrary.clearMessage()
        var handle: OpaquePointer?
        let rc = snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, 0)
        guard rc >= 0, let opened = handle else {
            throw AudioDeviceError(device: device, call: "snd_pcm_open", reason: ALSALibrary.errorText(Int(rc)))
        }
        do {
            let setup = try PCMSetup.negotiate(pcm: opened, device: device, wanted: wanted)
            format = setup.format
            periodFrames = setup.periodFrames
            bufferFrames = setup.bufferFrames
            canPause = setup.canPause
        } catch {
            snd_pcm_close(opened)
            throw error
        }
        pcm = opened
    }

    deinit { close() }

    /// Software volume 0...100 applied to chunks written from now on.
    public var volume: Int {
        get { lock.lock(); defer { lock.unlock() }; return _volume }
        set { lock.lock(); _volume = min(100, max(0, newValue)); lock.unlock() }
    }

    /// When set, chunks written from now on are zeros (time goes on as before).
    public var muted: Bool {
        get { lock.lock(); defer { lock.unlock() }; return _muted }
        set { lock.lock(); _muted = newValue; lock.unlock() }
    }

    /// Underruns recovered from so far.
    public var underruns: Int { lock.lock(); defer { lock.unlock() }; return _underruns }

    /// Frames accepted by the device so far (heard or still buffered).
    public var writtenFrames: Int { lock.lock(); defer { lock.unlock() }; return written }

    /// Frames heard so far: frames written minus the device's delay (`snd_pcm_delay`). Before the stream starts
    /// the buffered frames count as not heard; after an underrun, all of them as heard.
    public var playedFrames: Int {
        lock.lock(); defer { lock.unlock() }
        return playedLocked()
    }

    /// Seconds of audio heard so far (`playedFrames / rate`): the audio clock.
    public var position: Double { format.seconds(frames: playedFrames) }

    private func playedLocked() -> Int {
        guard let pcm else { return written }
        var delay: snd_pcm_sframes_t = 0
        let state = snd_pcm_state(pcm)
        if state == SND_PCM_STATE_XRUN || state == SND_PCM_STATE_SETUP || snd_pcm_delay(pcm, &delay) < 0 { delay = 0 }
        return written - min(max(0, delay), written)
    }

    /// Plays `chunk` (scaled by the volume), blocking until the device has taken all of it. Underruns are
    /// recovered (`snd_pcm_recover`) and counted; other failures throw an `AudioDeviceError`.
    public func write(_ chunk: AudioChunk) throws {
        guard chunk.format == format else {
            throw AudioDeviceError(device: device, call: "write", reason: "chunk is \(chunk.format), the device takes \(format)")
        }
        var bytes = chunk.bytes
        let (v, m) = { lock.lock(); defer { lock.unlock() }; return (_volume, _muted) }()
        SoftwareVolume.apply(to: &bytes, sample: format.sample, volume: v, muted: m)
        let frames = bytes.count / format.bytesPerFrame
        var done = 0
        var lastProgress = MonotonicClock.seconds()
        try bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            while done < frames {
                let (rc, call) = try step(base + done * format.bytesPerFrame, frames: frames - done)
                if rc > 0 {
                    done += rc
                    lastProgress = MonotonicClock.seconds()
                } else if rc == 0 {
                    if MonotonicClock.seconds() - lastProgress > Self.stallSeconds {
                        throw AudioDeviceError(device: device, call: "snd_pcm_wait",
                                               reason: "no room in the buffer for \(Int(saturating: Self.stallSeconds, rounding: .towardZero)) s (device stalled)")
                    }
                    try waitForRoom()
                } else {
                    try recover(rc, call: call)
                }
            }
        }
    }

    /// Writes as much of `frames` as the device has room for without blocking; 0 when it has none, negative
    /// for an error of `call`.
    private func step(_ data: UnsafeRawPointer, frames: Int) throws -> (Int, String) {
        lock.lock(); defer { lock.unlock() }
        guard let pcm else { throw AudioDeviceError(device: device, call: "write", reason: "device is closed") }
        ALSALibrary.clearMessage()
        let avail = snd_pcm_avail_update(pcm)
        if avail < 0 { return (avail, "snd_pcm_avail_update") }
        let n = min(avail, frames)
        if n == 0 { return (0, "") }
        let rc = snd_pcm_writei(pcm, data, snd_pcm_uframes_t(n))
        if rc == -Int(EAGAIN) { return (0, "") }
        if rc > 0 { written += rc }
        return (rc, "snd_pcm_writei")
    }

    /// Waits up to 100 ms for room in the buffer.
    private func waitForRoom() throws {
        guard let pcm = lock.withLock({ pcm }) else { throw AudioDeviceError(device: device, call: "write", reason: "device is closed") }
        let rc = snd_pcm_wait(pcm, 100)
        if rc < 0 { try recover(Int(rc), call: "snd_pcm_wait") }
    }

    /// Recovers from an underrun, a suspend or an interrupted call; throws for anything else.
    private func recover(_ code: Int, call: String) throws {
        lock.lock(); defer { lock.unlock() }
        guard let pcm else { throw AudioDeviceError(device: device, call: call, reason: "device is closed") }
        let reason = ALSALibrary.errorText(code)
        guard code == -Int(EPIPE) || code == -Int(ESTRPIPE) || code == -Int(EINTR) else {
            throw AudioDeviceError(device: device, call: call, reason: reason)
        }
        if code == -Int(EPIPE) { _underruns += 1 }
        let rc = snd_pcm_recover(pcm, Int32(code), 1)
        if rc < 0 {
            throw AudioDeviceError(device: device, call: "snd_pcm_recover after \(call) (\(reason))", reason: ALSALibrary.errorText(Int(rc)))
        }
    }

    /// Pauses or resumes. A device that cannot pause plays out its buffer and stops instead, so the clock
    /// runs on by at most the buffer's length; writing again restarts it.
    public func pause(_ paused: Bool) throws {
        guard let pcm = lock.withLock({ pcm }) else { return }
        let state = snd_pcm_state(pcm)
        if canPause {
            if (paused && state == SND_PCM_STATE_RUNNING) || (!paused && state == SND_PCM_STATE_PAUSED) {
                try lock.withLock {
                    ALSALibrary.clearMessage()
                    let rc = snd_pcm_pause(pcm, paused ? 1 : 0)
                    if rc < 0 { throw AudioDeviceError(device: device, call: "snd_pcm_pause", reason: ALSALibrary.errorText(Int(rc))) }
                }
            }
        } else if paused && (state == SND_PCM_STATE_RUNNING || state == SND_PCM_STATE_PREPARED) {
            try drain()
        }
    }

    /// Blocks until everything written has been heard; the device then takes writes again. `position` may be
    /// read meanwhile. Not to be called while another thread writes or closes.
    public func drain() throws {
        guard let pcm = lock.withLock({ pcm }) else { return }
        ALSALibrary.clearMessage()
        if snd_pcm_state(pcm) == SND_PCM_STATE_PAUSED { snd_pcm_pause(pcm, 0) }
        let rc = snd_pcm_drain(pcm)
        if rc < 0 && rc != -EPIPE { throw AudioDeviceError(device: device, call: "snd_pcm_drain", reason: ALSALibrary.errorText(Int(rc))) }
        try lock.withLock {
            let rc = snd_pcm_prepare(pcm)
            if rc < 0 { throw AudioDeviceError(device: device, call: "snd_pcm_prepare", reason: ALSALibrary.errorText(Int(rc))) }
        }
    }

    /// Throws away what is buffered but not yet heard (for a stop or a seek); the clock keeps what was heard.
    public func discard() throws {
        lock.lock(); defer { lock.unlock() }
        guard let pcm else { return }
        written = playedLocked()
        ALSALibrary.clearMessage()
        var rc = snd_pcm_drop(pcm)
        if rc < 0 { throw AudioDeviceError(device: device, call: "snd_pcm_drop", reason: ALSALibrary.errorText(Int(rc))) }
        rc = snd_pcm_prepare(pcm)
        if rc < 0 { throw AudioDeviceError(device: device, call: "snd_pcm_prepare", reason: ALSALibrary.errorText(Int(rc))) }
    }

    /// Closes the PCM without playing what is buffered (call `drain()` first to hear it). Idempotent; later
    /// writes throw. Not to be called while another thread is inside `write` or `drain`.
    public func close() {
        lock.lock(); defer { lock.unlock() }
        guard let pcm else { return }
        written = playedLocked()
        snd_pcm_close(pcm)
        self.pcm = nil
    }
}
