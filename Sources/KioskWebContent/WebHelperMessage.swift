/// One message between `kiosk-web-helper` and its parent, as it travels on their `SOCK_SEQPACKET` socket: a fixed
/// 36-byte little-endian header (magic `KWEB`, kind, width, height, stride, format, loaded, frame number), then for
/// the text kinds the text in UTF-8. A frame's pixels are not in the message: they are in the memfd sent with it.
public enum WebHelperMessage: Equatable, Sendable {
    /// A painted frame in the attached memfd: `height` rows `stride` bytes apart in wl_shm `format` (0 ARGB8888,
    /// 1 XRGB8888: B, G, R, A bytes, premultiplied). `loaded`: the frame shows the loaded page (the first such is the
    /// one painted after its load event, never the blank page before; a frame sent before it is known is sent again,
    /// marked). `number` counts the frames the helper was given, from 1.
    case frame(WebFrameHeader)
    /// The page and its resources finished loading.
    case loaded
    /// The page could not be loaded (the text: "URI: reason").
    case loadFailed(String)
    /// The web process ended (crashed, over its memory limit).
    case webProcessEnded(String)
    /// A navigation away from the page's folder was refused (the text: the URI it asked for).
    case navigationRefused(String)
    /// The helper could not show the page at all (the text: why); it exits after sending this.
    case helperFailed(String)
    /// The page called `kiosk.done()`.
    case done

    /// The header's size in bytes.
    public static let headerSize = 36
    /// The largest message either side sends or accepts (a header and up to 4 KiB of text).
    public static let maximumSize = headerSize + 4096
    private static let magic: UInt32 = 0x4B57_4542  // "KWEB"

    private var kind: UInt32 {
        switch self {
        case .frame: 1
        case .loaded: 2
        case .loadFailed: 3
        case .webProcessEnded: 4
        case .navigationRefused: 5
        case .helperFailed: 6
        case .done: 7
        }
    }

    /// The message's bytes (text cut to fit `maximumSize`).
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Self.headerSize)
        func put32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        let frame: WebFrameHeader = if case .frame(let f) = self { f } else { WebFrameHeader(width: 0, height: 0, stride: 0, format: 0, loaded: false, number: 0) }
        put32(Self.magic)
        put32(kind)
        put32(frame.width)
        put32(frame.height)
        put32(frame.stride)
        put32(frame.format)
        put32(frame.loaded ? 1 : 0)
        withUnsafeBytes(of: frame.number.littleEndian) { out.append(contentsOf: $0) }
        switch self {
        case .loadFailed(let text), .webProcessEnded(let text), .navigationRefused(let text), .helperFailed(let text):
            out.append(contentsOf: Array(text.utf8).prefix(Self.maximumSize - Self.headerSize))
        case .frame, .loaded, .done:
            break
        }
        return out
    }

    /// Reads a message; nil for bytes that are not one (short, another magic, an unknown kind).
    public init?(bytes: [UInt8]) {
        guard bytes.count >= Self.headerSize, bytes.count <= Self.maximumSize else { return nil }
        func get32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        guard get32(0) == Self.magic else { return nil }
        let number = UInt64(get32(28)) | UInt64(get32(32)) << 32
        let text = String(decoding: bytes[Self.headerSize...], as: UTF8.self)
        switch get32(4) {
        case 1:
            self = .frame(WebFrameHeader(width: get32(8), height: get32(12), stride: get32(16), format: get32(20),
                                         loaded: get32(24) != 0, number: number))
        case 2: self = .loaded
        case 3: self = .loadFailed(text)
        case 4: self = .webProcessEnded(text)
        case 5: self = .navigationRefused(text)
        case 6: self = .helperFailed(text)
        case 7: self = .done
        default: return nil
        }
    }
}

/// What a frame message says about the pixels in its memfd.
public struct WebFrameHeader: Equatable, Sendable {
    /// Width in device pixels.
    public var width: UInt32
    /// Height in device pixels.
    public var height: UInt32
    /// Bytes from one row to the next (at least `width * 4`).
    public var stride: UInt32
    /// The wl_shm format: 0 ARGB8888 (premultiplied alpha), 1 XRGB8888 (opaque).
    public var format: UInt32
    /// Whether the frame shows the loaded page (see `WebHelperMessage.frame`).
    public var loaded: Bool
    /// The frame's number in the helper, from 1.
    public var number: UInt64

    /// Describes a frame.
    public init(width: UInt32, height: UInt32, stride: UInt32, format: UInt32, loaded: Bool, number: UInt64) {
        self.width = width
        self.height = height
        self.stride = stride
        self.format = format
        self.loaded = loaded
        self.number = number
    }

    /// The bytes its memfd must hold at least: `stride * height`.
    public var byteCount: Int { Int(stride) * Int(height) }
}
