/// A failure of the sound device, in one line naming the device, the ALSA call and ALSA's reason.
public struct AudioDeviceError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The ALSA PCM name.
    public var device: String
    /// The call that failed (`snd_pcm_open`, `snd_pcm_writei`, …).
    public var call: String
    /// Why, in one line (snd_strerror text, plus ALSA's own message when it gave one).
    public var reason: String

    /// Creates an error.
    public init(device: String, call: String, reason: String) {
        self.device = device
        self.call = call
        self.reason = reason
    }

    /// `audio device 'NAME': call: reason`.
    public var description: String { "audio device '\(device)': \(call): \(reason)" }
}
