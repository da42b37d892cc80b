/// Several screens from one box (issue 40): `kiosk play`'s arguments (with `--screen`) and the config's
/// `[screen NAME]` sections resolved into one `ScreenPlan` per screen. Each screen's options are the global ones
/// (config lines above the first section, then the command line) with its section's on top, made a config the
/// way `kiosk play` makes its own (`ParsedOptions.parse` against `CommandSpecs.play`, then `CommandSpecs.config`).
public enum ScreenPlans {
    /// The screens `arguments` (a `kiosk play` command line with each `--config FILE` expanded, `origins` saying
    /// where each came from) and `sections` describe; empty when there is no `--screen`. Throws the first problem
    /// as one line naming the flag, screen or `FILE:LINE`. `specs` and `command`: the command's own options
    /// (`kiosk record` and `snapshot` resolve screens too).
    public static func resolve(arguments: [String], origins: [String?], sections: [ScreenSection],
                               specs: [OptionSpec] = CommandSpecs.play, command: String = "play") throws(UsageError) -> [ScreenPlan] {
        let result = check(arguments: arguments, origins: origins, sections: sections, specs: specs, command: command)
        if let first = result.problems.first { throw first }
        return result.plans
    }

    /// As `resolve`, with every problem found (for `kiosk check-config`) and the screens that resolved.
    public static func check(arguments: [String], origins: [String?], sections: [ScreenSection],
                             specs: [OptionSpec] = CommandSpecs.play, command: String = "play")
        -> (plans: [ScreenPlan], problems: [UsageError]) {
        var resolver = ScreenResolver(arguments: arguments, origins: origins, specs: specs, command: command)
        let plans = resolver.plans(sections: sections)
        return (plans, resolver.problems)
    }
}

/// The work of `ScreenPlans.check`: the problems found so far and the global options.
struct ScreenResolver {
    /// The expanded command line.
    let arguments: [String]
    /// Each argument's `FILE:LINE`, nil for the command line's own.
    let origins: [String?]
    /// The command's options (`CommandSpecs.play`, `.record`, `.snapshot`) and its name.
    let specs: [OptionSpec]
    let command: String
    /// What was found wrong, in the order found.
    var problems: [UsageError] = []

    /// A resolver of `arguments` of `command` (its options `specs`), each from `origins`' `FILE:LINE` (nil: the
    /// command line).
    init(arguments: [String], origins: [String?], specs: [OptionSpec] = CommandSpecs.play, command: String = "play") {
        self.arguments = arguments
        self.origins = origins
        self.specs = specs
        self.command = command
    }

    /// Adds `error`, located at the config line that set the flag it names (`ConfigFile.locate`).
    private mutating func problem(_ error: UsageError, args: [String]? = nil, origins: [String?]? = nil) {
        problems.append(ConfigFile.locate(error, args: args ?? arguments, origins: origins ?? self.origins))
    }

    /// `message` after `FILE:LINE: ` when there is an origin.
    private static func at(_ origin: String?, _ message: String) -> UsageError {
        UsageError((origin.map { "\($0): " } ?? "") + message)
    }

    /// The `FILE:LINE` of the last global argument that set `--name` (nil: the command line or nowhere).
    private func globalOrigin(of name: String) -> String? {
        let flag = "--\(name)"
        guard let i = arguments.lastIndex(where: { $0 == flag || $0.hasPrefix(flag + "=") }), i < origins.count else { return nil }
        return origins[i]
    }

    /// Each `--screen` value with the `FILE:LINE` that gave it, in order.
    private func screenValues(_ values: [String]) -> [(text: String, origin: String?)] {
        var from = 0
        return values.map { value in
            let i = arguments[from...].firstIndex(where: { $0 == value || $0 == "--screen=" + value }) ?? from
            from = min(i + 1, arguments.count)
            return (value, i < origins.count ? origins[i] : nil)
        }
    }

    /// The screens the arguments name, with `sections`; each problem found is added to `problems`.
    mutating func plans(sections: [ScreenSection]) -> [ScreenPlan] {
        let global: ParsedOptions
        do {
            global = try ParsedOptions.parse(arguments, specs: specs, command: command)
            _ = try CommandSpecs.config(from: global)
        } catch {
            problem(ScreenResolver.usage(error))
            return []
        }
        let values = screenValues(global.all("screen"))
        guard !values.isEmpty else {
            for section in sections {
                problems.append(Self.at(section.origin, "[screen \(section.name)]: no --screen or 'screen =' line names screen '\(section.name)'"))
            }
            if global.has("bezel") { problem(UsageError("--bezel goes with --screen NAME:A+B:SOURCE (a span)")) }
            return []
        }
        if global.has("drm-connector") {
            problem(UsageError("--drm-connector and --screen do not go together: use one or the other"))
        }
        for path in global.positional {
            let i = arguments.lastIndex(of: path)
            problems.append(Self.at(i.flatMap { $0 < origins.count ? origins[$0] : nil },
                                    "'\(ErrorQuote.cut(path))' plays on no screen: with --screen, a screen's content is its SOURCE "
                                    + "or its [screen NAME] section's path lines"))
        }
        var specs: [(spec: ScreenSpec, origin: String?)] = []
        for (text, origin) in values {
            do throws(UsageError) {
                let spec = try ScreenSpec.parse(text)
                if specs.contains(where: { $0.spec.name == spec.name }) {
                    throw UsageError("--screen \(spec.name): a second screen named \(spec.name)")
                }
                for name in spec.connectors.names {
                    if let other = specs.first(where: { $0.spec.connectors.names.contains(name) }) {
                        throw UsageError("--screen \(spec.name): connector \(name) is screen \(other.spec.name)'s already")
                    }
                }
                specs.append((spec, origin))
            } catch {
                problems.append(Self.at(origin, error.message))
            }
        }
        var byName: [String: ScreenSection] = [:]
        for section in sections {
            if let first = byName[section.name] {
                problems.append(Self.at(section.origin, "a second [screen \(section.name)] section (the first is at \(first.origin))"))
            } else if !specs.contains(where: { $0.spec.name == section.name }) {
                problems.append(Self.at(section.origin, "[screen \(section.name)]: no --screen or 'screen =' line names screen '\(section.name)'"))
            } else {
                byName[section.name] = section
            }
        }
        if global.has("bezel"), !specs.contains(where: { if case .span = $0.spec.connectors { true } else { false } }) {
            problem(UsageError("--bezel: no screen is a span (A+B); it is a span's gap between panels"))
        }
        return specs.compactMap { plan($0.spec, origin: $0.origin, section: byName[$0.spec.name], global: global) }
    }

    /// One screen: the global options with its section's on top.
    private mutating func plan(_ spec: ScreenSpec, origin: String?, section: ScreenSection?, global: ParsedOptions) -> ScreenPlan? {
        let label = (origin.map { "\($0): " } ?? "") + "--screen \(spec.name)"
        var merged = global.values
        for name in ["screen", "bezel", "drm-connector"] { merged[name] = nil }
        var setHere: [String: String] = [:]  // option name: the section line that set it
        var paths: [(path: String, origin: String)] = []
        var bezel: (value: Int?, origin: String)?
        for entry in section?.entries ?? [] {
            switch entry.line {
            case .path(let p): paths.append((p, entry.origin))
            case .option("bezel", let value): bezel = (Int(value), entry.origin)
            case .flag("bezel", on: _): bezel = (nil, entry.origin)
            case .option(let name, let value):
                let repeatable = specs.first { $0.name == name }?.repeatable ?? false
                merged[name] = (repeatable && setHere[name] != nil ? merged[name] ?? [] : []) + [value]
                setHere[name] = entry.origin
            case .flag(let name, let on):
                merged[name] = on ? [""] : nil
                setHere[name] = entry.origin
                if let opposite = ScreenOptions.opposites[name] {
                    // `loop = false` means no loop; either one on drops the other
                    merged[opposite] = !on && name == "loop" ? [""] : nil
                    setHere[opposite] = entry.origin
                }
            case .blank, .screenSection: continue
            }
        }
        var connectors = spec.connectors
        if case .span(let names, _) = spec.connectors {
            connectors = .span(names, bezel: bezel.map { $0.value ?? 0 } ?? global.integer("bezel") ?? 0)
        } else if let bezel, bezel.value != nil {
            problems.append(Self.at(bezel.origin, "--screen \(spec.name): bezel is for a span (A+B); \(spec.name) is \(spec.connectors)"))
        }
        var sources: [(path: String, origin: String?)] = paths.map { ($0.path, $0.origin) }
        if let source = spec.source {
            if let first = paths.first {
                problems.append(Self.at(first.origin, "--screen \(spec.name) gives SOURCE '\(ErrorQuote.cut(source))' and its section "
                                        + "path lines too: give one or the other"))
            }
            sources = [(source, origin)]
        } else if paths.isEmpty, merged["schedule"] == nil {
            problems.append(UsageError("\(label): no SOURCE, and no 'path =' lines in a [screen \(spec.name)] section (nor a schedule): nothing to play"))
        }
        var args: [String] = [], argOrigins: [String?] = []
        for option in specs {
            guard let values = merged[option.name] else { continue }
            let from = setHere[option.name] ?? globalOrigin(of: option.name)
            if case .flag = option.kind {
                args.append("--\(option.name)")
                argOrigins.append(from)
            } else {
                for value in values {
                    args += ["--\(option.name)", value]
                    argOrigins += [from, from]
                }
            }
        }
        args.append("--")
        argOrigins.append(nil)
        args += sources.map(\.path)
        argOrigins += sources.map(\.origin)
        let options: ParsedOptions, config: PlayerConfig
        do {
            options = try ParsedOptions.parse(args, specs: specs, command: command)
            config = try CommandSpecs.config(from: options)
        } catch {
            problem(Self.usage(error), args: args, origins: argOrigins)
            return nil
        }
        let changes = ScreenOptions.perScreen.compactMap { name -> ScreenOptionChange? in
            guard name != "bezel", merged[name] != global.values[name] else { return nil }
            return ScreenOptionChange(name: name, values: merged[name], global: global.values[name], origin: setHere[name])
        }
        return ScreenPlan(name: spec.name, connectors: connectors, sources: sources.map(\.path), arguments: args, origins: argOrigins,
                          options: options, config: config, origin: origin, section: section?.origin, changes: changes)
    }

    /// `error` as a usage error (the option code throws nothing else; anything else is said as it is).
    static func usage(_ error: any Error) -> UsageError {
        (error as? UsageError) ?? UsageError("\(error)")
    }
}
