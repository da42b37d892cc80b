internal import CALSA
internal import CKioskALSAShim
import KioskCore

/// Process-wide facts about alsa-lib: its own stderr chatter is captured (never printed), and error codes become text.
public enum ALSALibrary {
    /// Installs the capturing handler once, before the first PCM is opened: ALSA's messages are kept per thread
    /// (to complete our one-line errors) and otherwise dropped.
    static let quiet: Void = { kiosk_alsa_set_message_hook(nil, nil) }()

    /// Sends each ALSA message to `log` at debug level as one line (`alsa: function: text`); nil drops them again.
    /// The log is kept for the life of the process.
    public static func routeMessages(to log: Log?) {
        guard let log else { kiosk_alsa_set_message_hook(nil, nil); return }
        let context = Unmanaged.passRetained(log).toOpaque()
        kiosk_alsa_set_message_hook({ context, line in
            guard let context, let line else { return }
            let log = Unmanaged<Log>.fromOpaque(context).takeUnretainedValue()
            log.debug("alsa: \(String(cString: line))")
        }, context)
    }

    /// The text of a negative ALSA error code, with the calling thread's latest ALSA message when there is one.
    static func errorText(_ code: Int) -> String {
        var text = snd_strerror(Int32(clamping: code)).map { String(cString: $0) } ?? "error \(code)"
        if let message = kiosk_alsa_last_message() {
            let m = String(cString: message)
            if !m.isEmpty { text += " (\(m))" }
        }
        return text
    }

    /// Forgets the calling thread's latest ALSA message, before a call whose failure will be reported.
    static func clearMessage() { kiosk_alsa_clear_last_message() }
}
