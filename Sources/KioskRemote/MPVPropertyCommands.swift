import KioskCore

/// mpv's property commands (`set`, `add`, `cycle`, `multiply`), over the property table. As in mpv, any failure
/// of a property command is "error running command".
enum MPVPropertyCommands {
    static let all: [MPVCommand] = [
        MPVCommand(name: "set", args: [MPVCommandTable.arg("name", "String"), MPVCommandTable.arg("value", "String")],
                   vararg: false) { a, c throws(MPVError) in
            let value = try a.required(1)
            return try commands(try a.required(0), c.status) { p, _ throws(MPVError) in
                try p.set?(.string(value), c.status) ?? []
            }
        },
        MPVCommand(name: "add", args: [MPVCommandTable.arg("name", "String"),
                                       MPVCommandTable.arg("value", "Double", optional: true)], vararg: false) { a, c throws(MPVError) in
            let step = try a.number(1) ?? 1
            return try commands(try a.required(0), c.status) { p, now throws(MPVError) in
                guard p.kind == .number, let n = now.number else { throw .command }
                return try p.set?(.double(stepped(n + step, p, c.status)), c.status) ?? []
            }
        },
        MPVCommand(name: "multiply", args: [MPVCommandTable.arg("name", "String"),
                                            MPVCommandTable.arg("value", "Double")], vararg: false) { a, c throws(MPVError) in
            guard let factor = try a.number(1) else { throw .invalidParameter }
            return try commands(try a.required(0), c.status) { p, now throws(MPVError) in
                guard p.kind == .number, let n = now.number else { throw .command }
                return try p.set?(.double(stepped(n * factor, p, c.status)), c.status) ?? []
            }
        },
        MPVCommand(name: "cycle", args: [MPVCommandTable.arg("name", "String"),
                                         MPVCommandTable.arg("value", "Choice", optional: true)], vararg: false) { a, c throws(MPVError) in
            let down = try a.text(1) == "down"
            return try commands(try a.required(0), c.status) { p, now throws(MPVError) in
                if let own = p.cycle { return own }
                switch (p.kind, now) {
                case (.flag, .bool(let b)): return try p.set?(.bool(!b), c.status) ?? []
                case (.text, _) where p.name == "loop-playlist":
                    return try p.set?(.bool(now == .bool(false)), c.status) ?? []
                case (.number, _):
                    guard let n = now.number else { throw .command }
                    return try p.set?(.double(n + (down ? -1 : 1)), c.status) ?? []
                default: throw .command
                }
            }
        },
    ]

    /// `value` clamped into the property's step range when it has one (mpv clamps `add` and `multiply`).
    private static func stepped(_ value: Double, _ p: MPVProperty, _ s: PlayerStatus) -> Double {
        guard let range = p.stepRange?(s), !value.isNaN else { return value }
        return min(max(value, range.lowerBound), range.upperBound)
    }

    /// Looks `name` up, reads its value, and turns `change` into player commands; every failure is mpv's
    /// "error running command" (a read-only property has no setter, which is one too).
    private static func commands(_ name: String, _ s: PlayerStatus,
                                 _ change: (MPVProperty, JSONValue) throws(MPVError) -> [PlayerCommand]) throws(MPVError) -> MPVAction {
        guard let p = MPVPropertyTable.byName[name], p.set != nil else { throw .command }
        guard let now = p.get(s) else { throw .command }
        do {
            let out = try change(p, now)
            guard !out.isEmpty else { throw MPVError.command }
            return .player(out, failure: .command, data: .null)
        } catch {
            throw .command
        }
    }
}
