internal import CKioskWebShim
import Glibc
import KioskCore
import KioskWebContent

/// The web helper (the `kiosk-web-helper` program): shows one page in WPE WebKit offscreen and sends what it paints and
/// what happens to its parent over the socket it was given. Runs until the parent closes its end (or sends `q`).
public enum WebHelper {
    /// Shows the page at `uri` (navigations outside `allowedPrefix` refused) at `size` device pixels, talking on
    /// `socket`; returns the exit status (0 when the parent ended it, 1 when the page could not be shown at all).
    public static func run(uri: String, allowedPrefix: String, size: PixelSize, socket: Int32) -> Int32 {
        setenv("NO_AT_BRIDGE", "1", 1)  // no accessibility bus on a player: WebKit would complain on stderr
        let sender = WebHelperSender(channel: WebHelperChannel(socket: socket))
        let context = Unmanaged.passRetained(sender)
        defer { context.release() }
        var error = [CChar](repeating: 0, count: 512)
        let status = kiosk_web_run(uri, allowedPrefix, UInt32(size.width), UInt32(size.height), socket,
                                   { context, pixels, width, height, stride, format in
                                       guard let context, let pixels else { return }
                                       Unmanaged<WebHelperSender>.fromOpaque(context).takeUnretainedValue()
                                           .frame(pixels, width: width, height: height, stride: stride, format: format)
                                   },
                                   { context, event, text in
                                       guard let context else { return }
                                       let words = text.map { String(cString: $0) } ?? ""
                                       Unmanaged<WebHelperSender>.fromOpaque(context).takeUnretainedValue().event(event, words)
                                   },
                                   context.toOpaque(), &error, error.count)
        guard status == 0 else {
            let why = error.withUnsafeBufferPointer { String(decoding: $0.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            sender.send(.helperFailed(why))
            return 1
        }
        return 0
    }
}

/// Turns the shim's callbacks into messages: each frame copied into a new sealed memfd and sent with it. Frames are
/// marked `loaded` from the one that shows the loaded page (the shim's painted event) on; the latest frame's memfd is
/// kept, so when that event names a frame already sent, it is sent again, marked. A frame the parent has no room for
/// (its socket full) is dropped, not queued: the parent always gets the newest.
final class WebHelperSender {
    private let channel: WebHelperChannel
    private var loaded = false
    private var frames: UInt64 = 0
    private var latest: (fd: Int32, header: WebFrameHeader)?

    init(channel: WebHelperChannel) {
        self.channel = channel
    }

    deinit {
        if let latest { close(latest.fd) }
    }

    /// Sends `message` (with `fd` attached unless -1); false when it could not go (the socket full or closed).
    @discardableResult
    func send(_ message: WebHelperMessage, fd: Int32 = -1) -> Bool { channel.send(message, fd: fd) }

    func frame(_ pixels: UnsafePointer<UInt8>, width: UInt32, height: UInt32, stride: UInt32, format: UInt32) {
        frames += 1
        let header = WebFrameHeader(width: width, height: height, stride: stride, format: format, loaded: loaded, number: frames)
        guard let fd = WebHelperChannel.sealedCopy(of: pixels, count: header.byteCount) else { return }
        send(.frame(header), fd: fd)
        if let latest { close(latest.fd) }
        latest = (fd, header)
    }

    func event(_ event: Int32, _ text: String) {
        switch event {
        case Int32(KIOSK_WEB_EVENT_LOADED.rawValue): send(.loaded)
        case Int32(KIOSK_WEB_EVENT_DONE.rawValue): send(.done)
        case Int32(KIOSK_WEB_EVENT_PAINTED.rawValue):
            loaded = true
            if let latest, !latest.header.loaded {
                var again = latest.header
                again.loaded = true
                send(.frame(again), fd: latest.fd)
                self.latest = (latest.fd, again)
            }
        case Int32(KIOSK_WEB_EVENT_LOAD_FAILED.rawValue): send(.loadFailed(text))
        case Int32(KIOSK_WEB_EVENT_WEB_PROCESS_ENDED.rawValue): send(.webProcessEnded(text))
        case Int32(KIOSK_WEB_EVENT_NAVIGATION_REFUSED.rawValue): send(.navigationRefused(text))
        default: break
        }
    }
}
