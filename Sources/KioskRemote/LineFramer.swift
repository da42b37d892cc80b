/// Cuts one client's byte stream into lines: split on "\n", a "\r" before it dropped, each line at most
/// `maxLineBytes` long (without its ending). Once a line passes the limit, everything after it is thrown away.
struct LineFramer {
    /// The longest line accepted, in bytes, without "\r\n".
    let maxLineBytes: Int
    /// Bytes of an unfinished line.
    private var pending: [UInt8] = []
    /// How many bytes at the start of `pending` are known to hold no "\n".
    private var scanned = 0
    /// True once a line passed the limit: nothing more is framed.
    private(set) var isOverlong = false

    /// A framer for lines of at most `maxLineBytes` bytes.
    init(maxLineBytes: Int) {
        self.maxLineBytes = max(1, maxLineBytes)
    }

    /// Adds bytes read from the client; returns the lines they complete, in order, and whether a line passed the
    /// limit (true once: the lines before it are returned, nothing after it ever is).
    mutating func append(_ bytes: UnsafeRawBufferPointer) -> (lines: [[UInt8]], overlong: Bool) {
        guard !isOverlong, !bytes.isEmpty else { return ([], false) }
        pending.append(contentsOf: bytes)
        var lines: [[UInt8]] = []
        var start = 0
        var from = scanned
        while let newline = pending[from...].firstIndex(of: UInt8(ascii: "\n")) {
            var end = newline
            if end > start, pending[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            guard end - start <= maxLineBytes else { return (lines, markOverlong()) }
            lines.append(Array(pending[start..<end]))
            start = newline + 1
            from = start
        }
        let rest = pending.count - start
        // An unfinished line may hold one byte more than the limit when that byte is the "\r" of its "\r\n".
        if rest > maxLineBytes + 1 || (rest == maxLineBytes + 1 && pending.last != UInt8(ascii: "\r")) {
            return (lines, markOverlong())
        }
        if start > 0 { pending.removeFirst(start) }
        scanned = pending.count
        return (lines, false)
    }

    /// Stops framing and frees the unfinished line; returns true.
    private mutating func markOverlong() -> Bool {
        isOverlong = true
        pending = []
        scanned = 0
        return true
    }
}
