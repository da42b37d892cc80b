import Foundation
import KioskCore
import KioskOutput
import KioskRender

/// What a soak run measured. Every resident size is read while the player is alive.
public struct SoakReport: Sendable {
    /// Item changes shown.
    public var transitions: Int
    /// Wall-clock seconds the run took.
    public var seconds: Double
    /// Resident MiB when the warm-up ended, at the end of the run (the player still alive), and the most seen at an
    /// item change after the warm-up.
    public var rssAfterWarmup: Double, rssEnd: Double, rssPeak: Double
    /// GL objects (textures, programs, framebuffers) before the player existed and after it is gone.
    public var glBefore: (Int, Int, Int), glAfter: (Int, Int, Int)
    /// Most textures alive at an item change after the warm-up.
    public var texturesMost: Int
    /// Programs alive when the warm-up ended and at the end of the run (before the player was released).
    public var programsAfterWarmup: Int, programsEnd: Int

    /// Resident growth from the warm-up to the end, as a fraction of the resident size then.
    public var growth: Double { (rssEnd - rssAfterWarmup) / rssAfterWarmup }
    /// Resident growth from the warm-up to the peak after it, as a fraction of the resident size then.
    public var peakGrowth: Double { (rssPeak - rssAfterWarmup) / rssAfterWarmup }
}

/// Why a soak could not measure what it claims.
public enum SoakError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The resident size could not be read from `path` (missing, or not statm's format).
    case unreadableStatm(path: String, reason: String)
    /// The warm-up must be at least one item change and fewer than the run's.
    case warmupOutOfRange(warmup: Int, transitions: Int)
    /// The player stopped after `shown` item changes, before the `wanted` ones.
    case tooFewTransitions(shown: Int, wanted: Int)

    public var description: String {
        switch self {
        case .unreadableStatm(let path, let reason): return "soak: \(path): cannot read the resident size: \(reason)"
        case .warmupOutOfRange(let warmup, let transitions):
            return "soak: warm-up of \(warmup) item changes must be 1 or more and under the run's \(transitions)"
        case .tooFewTransitions(let shown, let wanted):
            return "soak: the player stopped after \(shown) item changes of \(wanted); nothing was measured past them"
        }
    }
}

/// Many item changes through the real decoders and renderer on a virtual clock (the soak test and
/// `kiosk-bench soak`): the playlist loops until `transitions` items have come on screen.
public enum PlayerSoak {
    /// Resident MiB of this process, from `statm` (its second field, in pages). Throws when it cannot be read, so a
    /// leak check never compares two failed reads.
    public static func residentMiB(statm: String = "/proc/self/statm") throws(SoakError) -> Double {
        let text: String
        do { text = try String(contentsOfFile: statm, encoding: .utf8) } catch {
            throw .unreadableStatm(path: statm, reason: "\(error.localizedDescription)")
        }
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count >= 2, let pages = Double(fields[1]), pages > 0 else {
            throw .unreadableStatm(path: statm, reason: "no resident page count in '\(text.prefix(80))'")
        }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }

    /// Plays `paths` in a loop on `config` (its slideshow forced to loop) until `transitions` item changes, on a
    /// virtual clock at `fps`. `progress` is called at each item change with its number and the resident MiB.
    /// Throws `SoakError` when the warm-up is out of range, the resident size cannot be read, or the player stops
    /// early.
    public static func run(paths: [String], transitions: Int, warmup: Int, config: PlayerConfig, fps: Double = 10,
                           progress: ((Int, Double) -> Void)? = nil) throws -> SoakReport {
        guard warmup >= 1, warmup < transitions else { throw SoakError.warmupOutOfRange(warmup: warmup, transitions: transitions) }
        var c = config
        c.slideshow.loop = true
        let before = GLObjectCount.now
        let start = MonotonicClock.seconds()
        var shown = 0, rssWarm = 0.0, rssPeak = 0.0, rssEnd = 0.0, texturesMost = 0, programsWarm = 0, programsEnd = 0
        var readError: SoakError?
        do {
            let clock = VirtualClock()
            let output = try VirtualTimeOutput(size: c.size, fps: fps, clock: clock, sink: nil)
            let player = try Player(items: paths.map { PlaylistItem(path: $0) }, config: c, output: output, clock: clock,
                                    log: Log(level: .error), waitForDecodes: true)
            player.observe { event in
                guard case .itemStarted = event, readError == nil else { return }
                shown += 1
                let rss: Double
                do throws(SoakError) { rss = try residentMiB() } catch { readError = error; return }
                if shown == warmup { rssWarm = rss; programsWarm = GLObjectCount.now.programs }
                if shown >= warmup { rssPeak = max(rssPeak, rss) }
                if shown > warmup { texturesMost = max(texturesMost, GLObjectCount.now.textures) }
                progress?(shown, rss)
            }
            _ = try player.run(length: Double?.none, shouldStop: { shown > transitions || readError != nil })
            if let readError { throw readError }
            // The end is measured with the player and everything it holds still alive.
            try withExtendedLifetime(player) { () throws(SoakError) in
                rssEnd = try residentMiB()
                rssPeak = max(rssPeak, rssEnd)
                programsEnd = GLObjectCount.now.programs
            }
        }
        guard shown > transitions else { throw SoakError.tooFewTransitions(shown: max(shown - 1, 0), wanted: transitions) }
        let after = GLObjectCount.now
        return SoakReport(transitions: shown - 1, seconds: MonotonicClock.seconds() - start, rssAfterWarmup: rssWarm,
                          rssEnd: rssEnd, rssPeak: rssPeak,
                          glBefore: (before.textures, before.programs, before.framebuffers),
                          glAfter: (after.textures, after.programs, after.framebuffers),
                          texturesMost: texturesMost, programsAfterWarmup: programsWarm, programsEnd: programsEnd)
    }
}
