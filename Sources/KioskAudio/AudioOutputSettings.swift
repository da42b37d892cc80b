import KioskCore

extension AudioOutput {
    /// Opens `settings.device` with its volume and mute applied and logs what was negotiated; when the device
    /// cannot be opened, logs one warning line naming it and returns nil (play on without sound).
    public static func open(_ settings: AudioSettings, format: AudioFormat = .standard, log: Log) -> AudioOutput? {
        do {
            let output = try AudioOutput(device: settings.device, format: format)
            output.volume = settings.volume
            output.muted = settings.muted
            log.info("audio: \(settings.device) at \(output.format), period \(output.periodFrames), buffer \(output.bufferFrames) frames")
            return output
        } catch {
            log.warn("\(error); playing without sound")
            return nil
        }
    }
}
