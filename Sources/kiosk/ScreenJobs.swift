import Foundation
import KioskCore
import KioskMedia
import KioskPlayer

/// `kiosk record` and `kiosk snapshot` of several screens (`--screen`, `[screen NAME]` sections; issue 40): each
/// screen is resolved as `play` resolves it (its own source and options) and made by the command's own code, one
/// file per screen, `OUT-NAME.ext`. A span's and a mirror's outputs each get theirs, `OUT-NAME-CONNECTOR.ext`: a
/// span's parts are cut from its canvas (each output `--size`, the bezel between them hidden), a mirror's are the
/// same picture. `snapshot --side-by-side` writes one picture instead: every output left to right, in `--screen`
/// order, top-aligned on black.
struct ScreenJobs {
    /// The command's own code, with the config's origins and sections.
    let commands: Commands

    /// Whether `args` (or the config's sections) name screens.
    static func namesScreens(_ args: [String], sections: [ScreenSection]) -> Bool {
        !sections.isEmpty || args.contains { ["--screen", "--bezel"].contains($0.prefix { $0 != "=" }) }
    }

    /// `OUT-NAME.ext` for screen `name`, `OUT-NAME-CONNECTOR.ext` for one output of a span or mirror.
    static func path(_ out: String, screen name: String, connector: String? = nil) -> String {
        let ext = (out as NSString).pathExtension
        let stem = ext.isEmpty ? out : String(out.dropLast(ext.count + 1))
        return stem + "-" + name + (connector.map { "-" + $0 } ?? "") + (ext.isEmpty ? "" : "." + ext)
    }

    /// `kiosk snapshot --screen …`.
    func snapshot(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") { return try commands.snapshot(args.filter { $0 != "--screen" }) }
        let plans = try ScreenPlans.resolve(arguments: args, origins: commands.origins, sections: commands.sections,
                                            specs: CommandSpecs.snapshot, command: "snapshot")
        guard let first = plans.first, let out = first.options.string("output") else {
            throw UsageError("snapshot: --output OUT.png is required")
        }
        if first.options.has("grid") { throw UsageError("snapshot: --grid shows one playlist, not --screen") }
        var pictures: [(path: String, image: RGBAImage)] = []
        for plan in plans {
            let size = plan.config.size
            let canvas = plan.connectors.canvas(outputSize: size)
            let image: RGBAImage
            do {
                image = try commands.snapshotImage(plan.options, size: canvas.size)
            } catch let error as UsageError {
                throw UsageError("\(plan.label): \(error.message)")
            }
            let single: Bool = if case .single = plan.connectors { true } else { false }
            for part in canvas.parts {
                pictures.append((Self.path(out, screen: plan.name, connector: single ? nil : part.connector), image.cropped(to: part.rect)))
            }
        }
        if first.options.has("side-by-side") {
            try PNGWriter.write(RGBAImage.sideBySide(pictures.map(\.image)), to: out)
            commands.log.info("snapshot: \(pictures.count) outputs of \(plans.count) screens side by side in \(out)")
        } else {
            for p in pictures { try PNGWriter.write(p.image, to: p.path) }
            commands.log.info("snapshot: " + pictures.map(\.path).joined(separator: ", "))
        }
        return 0
    }

    /// `kiosk record --screen …`: each screen recorded by `record` itself, one after the other, on its own virtual
    /// clock (a recording is exact whatever else runs); a mirror's file is copied for each of its outputs; a span is
    /// recorded once on its whole canvas and each panel's part written to its own file (the bezel left out).
    func record(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") { return try commands.record(args.filter { $0 != "--screen" }) }
        let plans = try ScreenPlans.resolve(arguments: args, origins: commands.origins, sections: commands.sections,
                                            specs: CommandSpecs.record, command: "record")
        guard let out = plans.first?.options.string("output") else { throw UsageError("record: --output OUT.mp4|OUT.y4m is required") }
        for plan in plans {
            if plan.options.string("input-ipc-server") != nil || plan.options.string("mqtt") != nil {
                throw UsageError("\(plan.label): a recording of several screens takes no remote (each screen is recorded in turn)")
            }
        }
        var single = Commands(log: commands.log)  // each screen's arguments are whole: no config, no sections
        single.origins = []
        for plan in plans {
            let names = plan.connectors.names
            let isSingle: Bool = if case .single = plan.connectors { true } else { false }
            let first = Self.path(out, screen: plan.name, connector: isSingle ? nil : names[0])
            if case .span = plan.connectors {
                let canvas = plan.connectors.canvas(outputSize: plan.config.size)
                var panels = single
                panels.recordCuts = canvas.parts.map { RecordingCut(path: Self.path(out, screen: plan.name, connector: $0.connector), rect: $0.rect) }
                _ = try panels.record(Self.replacing(Self.replacingOutput(plan.arguments, with: first), "--size", with: "\(canvas.size)"))
                continue
            }
            _ = try single.record(Self.replacingOutput(plan.arguments, with: first))
            for connector in names.dropFirst() {
                let copy = Self.path(out, screen: plan.name, connector: connector)
                try? FileManager.default.removeItem(atPath: copy)
                try FileManager.default.copyItem(atPath: first, toPath: copy)
            }
        }
        return 0
    }

    /// `args` with the value of `--output` replaced by `path`.
    static func replacingOutput(_ args: [String], with path: String) -> [String] { replacing(args, "--output", with: path) }

    /// `args` with the last value of `flag` replaced by `value` (added when `flag` is not there).
    static func replacing(_ args: [String], _ flag: String, with value: String) -> [String] {
        var out = args
        if let i = out.lastIndex(of: flag), i + 1 < out.count { out[i + 1] = value } else { out += [flag, value] }
        return out
    }
}
