import Foundation
import KioskCore
import KioskOutput
import KioskRender

/// What a soak run measured.
public struct SoakReport: Sendable {
    /// Item changes shown.
    public var transitions: Int
    /// Wall-clock seconds the run took.
    public var seconds: Double
    /// Resident MiB when the warm-up ended, at the end, and the most seen (sampled at every item change).
    public var rssAfterWarmup: Double, rssEnd: Double, rssPeak: Double
    /// GL objects (textures, programs, framebuffers) before the player existed, after it is gone, and the most
    /// textures alive at any item change.
    public var glBefore: (Int, Int, Int), glAfter: (Int, Int, Int)
    /// Most textures alive at an item change after the warm-up.
    public var texturesMost: Int
    /// Programs alive when the warm-up ended and at the end of the run (before the player was released).
    public var programsAfterWarmup: Int, programsEnd: Int

    /// Resident growth after the warm-up, as a fraction of the resident size then.
    public var growth: Double { rssAfterWarmup > 0 ? (rssEnd - rssAfterWarmup) / rssAfterWarmup : 0 }
}

/// Many item changes through the real decoders and renderer on a virtual clock (the soak test and
/// `kiosk-bench soak`): the playlist loops until `transitions` items have come on screen.
public enum PlayerSoak {
    /// Resident MiB of this process (from /proc/self/statm).
    public static func residentMiB() -> Double {
        guard let s = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
              let pages = s.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else { return -1 }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }

    /// Plays `paths` in a loop on `config` (its slideshow forced to loop) until `transitions` item changes, on a
    /// virtual clock at `fps`. `progress` is called at each item change with its number and the resident MiB.
    public static func run(paths: [String], transitions: Int, warmup: Int, config: PlayerConfig, fps: Double = 10,
                           progress: ((Int, Double) -> Void)? = nil) throws -> SoakReport {
        var c = config
        c.slideshow.loop = true
        let before = GLObjectCount.now
        let start = MonotonicClock.seconds()
        var shown = 0, rssWarm = 0.0, rssPeak = 0.0, texturesMost = 0, programsWarm = 0, programsEnd = 0
        do {
            let clock = VirtualClock()
            let output = try VirtualTimeOutput(size: c.size, fps: fps, clock: clock, sink: nil)
            let player = try Player(items: paths.map { PlaylistItem(path: $0) }, config: c, output: output, clock: clock,
                                    log: Log(level: .error), waitForDecodes: true)
            player.observe { event in
                guard case .itemStarted = event else { return }
                shown += 1
                let rss = residentMiB()
                rssPeak = max(rssPeak, rss)
                if shown == warmup { rssWarm = rss; programsWarm = GLObjectCount.now.programs }
                if shown > warmup { texturesMost = max(texturesMost, GLObjectCount.now.textures) }
                progress?(shown, rss)
            }
            _ = try player.run(length: Double?.none, shouldStop: { shown > transitions })
            programsEnd = GLObjectCount.now.programs
        }
        let after = GLObjectCount.now
        return SoakReport(transitions: shown - 1, seconds: MonotonicClock.seconds() - start, rssAfterWarmup: rssWarm,
                          rssEnd: residentMiB(), rssPeak: rssPeak,
                          glBefore: (before.textures, before.programs, before.framebuffers),
                          glAfter: (after.textures, after.programs, after.framebuffers),
                          texturesMost: texturesMost, programsAfterWarmup: programsWarm, programsEnd: programsEnd)
    }
}
