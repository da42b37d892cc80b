/// A `begin` that waits on something else (SMIL 3.0 Timing: syncbase and event values), plus an offset:
/// - `id.begin+2s`, `id.end`: when another element begins or ends (each time it does);
/// - `id.beginEvent`, `id.endEvent`: the same, as events;
/// - `id.activateEvent`: a tap or click inside the region where element `id` shows, while it shows;
/// - `accesskey(c)`: the key `c` (a letter or digit, from a keyboard, a remote or IPC `keypress`);
/// - `notify(NAME)`: an outside trigger (IPC `["notify", "NAME"]`, `kiosk ctl notify NAME`, MQTT `cmd/notify`);
/// - a key sequence (a signageOS keyboard `<trigger>`, `data="456"`): its keys one after the other, each as
///   `accesskey()` hears them; it happens at the last.
public struct SMILEventBegin: Sendable, Hashable {
    /// What it waits on.
    public enum Trigger: Sendable, Hashable {
        case begin(String)
        case end(String)
        case activate(String)
        case accessKey(Character)
        case notify(String)
        /// Letters and digits (lower case), typed in this order.
        case keySequence(String)
    }
    public var trigger: Trigger
    /// Seconds after the trigger (negative: before, for a syncbase).
    public var offset: Double

    /// A begin on `trigger`, `offset` seconds after it.
    public init(_ trigger: Trigger, offset: Double = 0) {
        self.trigger = trigger
        self.offset = offset
    }

    /// Whether it happens at run time (a tap, a key, a notify) rather than by the timeline itself.
    public var isOutside: Bool {
        switch trigger {
        case .activate, .accessKey, .notify, .keySequence: return true
        case .begin, .end: return false
        }
    }

    /// Reads `text` as a syncbase or event value; nil when it is none (an offset, a wallclock value); a reason
    /// when it is one but malformed.
    public static func parse(_ text: String) -> Result<SMILEventBegin, BeginValueError>? {
        let t = text.trimmingCharacters(in: .whitespaces)
        /// `+2s`, `- 1.5s` or nothing, after the trigger.
        func offset(_ rest: Substring) -> Double? {
            let r = rest.trimmingCharacters(in: .whitespaces)
            guard let sign = r.first else { return 0 }
            guard sign == "+" || sign == "-", let v = SMILValues.clock(r.dropFirst().trimmingCharacters(in: .whitespaces)) else { return nil }
            return sign == "-" ? -v : v
        }
        for name in ["accesskey", "notify"] where t.hasPrefix(name + "(") {
            guard let close = t.firstIndex(of: ")") else { return .failure(BeginValueError("\(name)( has no )")) }
            let arg = t[t.index(t.startIndex, offsetBy: name.count + 1)..<close].trimmingCharacters(in: .whitespaces)
            guard let shift = offset(t[t.index(after: close)...]) else {
                return .failure(BeginValueError("\(t[t.index(after: close)...]) is not an offset (+2s, -500ms)"))
            }
            if name == "accesskey" {
                guard arg.count == 1, let c = arg.first, c.isLetter || c.isNumber, c.isASCII else {
                    return .failure(BeginValueError("accesskey(\(arg)) is not one letter or digit"))
                }
                return .success(SMILEventBegin(.accessKey(Character(c.lowercased())), offset: shift))
            }
            guard !arg.isEmpty, arg.count <= 64, arg.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
                return .failure(BeginValueError("notify(\(arg)) is not a name of letters, digits, - _ or ."))
            }
            return .success(SMILEventBegin(.notify(arg), offset: shift))
        }
        let events: [(String, (String) -> Trigger)] = [("beginEvent", { .begin($0) }), ("endEvent", { .end($0) }),
                                                       ("activateEvent", { .activate($0) }), ("click", { .activate($0) }),
                                                       ("begin", { .begin($0) }), ("end", { .end($0) })]
        for (name, make) in events {
            var from = t.startIndex
            while let r = t.range(of: "." + name, range: from..<t.endIndex) {
                from = r.upperBound
                let next = r.upperBound < t.endIndex ? t[r.upperBound] : " "
                guard next == " " || next == "+" || next == "-", r.lowerBound > t.startIndex else { continue }
                let id = String(t[..<r.lowerBound])
                guard let shift = offset(t[r.upperBound...]) else {
                    return .failure(BeginValueError("\(t[r.upperBound...]) is not an offset (+2s, -500ms)"))
                }
                return .success(SMILEventBegin(make(id), offset: shift))
            }
        }
        return nil
    }

    /// The trigger's id of another element, if it names one.
    public var elementID: String? {
        switch trigger {
        case .begin(let id), .end(let id), .activate(let id): return id
        case .accessKey, .notify, .keySequence: return nil
        }
    }
}

/// A run-time trigger that happened: at `time` on the layout's clock.
public struct SMILFiredEvent: Sendable, Hashable {
    /// A tap on element `id` (and each container around it), a key, or a notify.
    public enum Trigger: Sendable, Hashable {
        case activate(String)
        case accessKey(Character)
        case notify(String)
    }
    public var trigger: Trigger
    public var time: Double
    /// A trigger at `time`.
    public init(_ trigger: Trigger, at time: Double) {
        self.trigger = trigger
        self.time = time
    }
}
