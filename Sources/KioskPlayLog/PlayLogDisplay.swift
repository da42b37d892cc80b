import Foundation
import KioskTrust

/// Whether a showing was seen, by what the display side knew while it was shown (docs/proof-of-play.md, "Proof of
/// display"). From the worst to the best: `displayAbsent`, `screenOff`, `tvStandby`, `unknown`, `seen`.
public enum ShowingVerdict: String, Sendable, CaseIterable, Comparable {
    /// The display was disconnected (its connector said so).
    case displayAbsent = "display-absent"
    /// kiosk had the screen off (DPMS: `screen off`, a schedule's off time).
    case screenOff = "screen-off"
    /// The TV said over HDMI-CEC that it was in standby (or going there).
    case tvStandby = "tv-standby"
    /// Nothing says whether anyone could see it: no display to ask (a headless output draws into memory), or a
    /// connector whose state is unknown.
    case unknown
    /// A display was connected and on (or, without CEC, not known to be off).
    case seen

    /// How bad it is: 0 for the worst.
    private var rank: Int {
        switch self {
        case .displayAbsent: 0
        case .screenOff: 1
        case .tvStandby: 2
        case .unknown: 3
        case .seen: 4
        }
    }

    /// `a < b` when `a` is worse than `b`.
    public static func < (a: ShowingVerdict, b: ShowingVerdict) -> Bool { a.rank < b.rank }

    /// The verdict of one moment: a disconnected display is `displayAbsent`; else a screen kiosk turned off is
    /// `screenOff`; else a TV in standby (or going there) per CEC is `tvStandby`; else a connected display is
    /// `seen`; anything else (`none`: no display, headless; `unknown`) is `unknown`, since nothing was seen.
    public static func judge(displayState: String, screenOff: Bool, cecPower: String) -> ShowingVerdict {
        if displayState == "disconnected" { return .displayAbsent }
        if screenOff { return .screenOff }
        if cecPower == "standby" || cecPower == "to-standby" { return .tvStandby }
        return displayState == "connected" ? .seen : .unknown
    }
}

/// What the display side knew of a showing: the connector's state and the monitor's EDID identity, the TV's power
/// over CEC, the verdict, and the proof thumbnail's hash. At the start of a showing it is that moment's; each change
/// while it shows that makes the verdict worse replaces it, so a row keeps the worst moment and what was known then.
public struct ShowingDisplay: Sendable, Equatable {
    /// `connected`, `disconnected`, `unknown`, or `none` (an output without a display: headless).
    public var state: String
    /// The monitor's EDID identity (`EDIDIdentity.summary`); nil without one.
    public var id: String?
    /// The TV's power over HDMI-CEC (`on`, `standby`, `to-on`, `to-standby`, `unknown`: also without CEC).
    public var cecPower: String
    /// Whether kiosk had the screen off (DPMS, a schedule).
    public var screenOff: Bool
    /// The proof thumbnail's SHA-256 (lower-case hex; its pixels in the `thumbs` table); nil without one. A row
    /// keeps its first `PlayLog.thumbDigits` digits (`thumbs.hash` all 64).
    public var thumb: String?

    /// What was known at one moment.
    public init(state: String, id: String? = nil, cecPower: String = "unknown", screenOff: Bool = false, thumb: String? = nil) {
        self.state = state
        self.id = id
        self.cecPower = cecPower
        self.screenOff = screenOff
        self.thumb = thumb
    }

    /// This moment's verdict (`ShowingVerdict.judge`).
    public var verdict: ShowingVerdict {
        ShowingVerdict.judge(displayState: state, screenOff: screenOff, cecPower: cecPower)
    }

    /// What a showing that knew `self` knows once `now` is seen too: `now` when its verdict is worse (the thumbnail
    /// kept), or when `self` knew nothing (`unknown`: a showing that began before the display's first reading) and
    /// `now` knows; else `self`. Not knowing is no moment of not being seen; once known, the worst moment stays.
    public func worse(_ now: ShowingDisplay) -> ShowingDisplay {
        let learned = verdict == .unknown && now.verdict != .unknown
        guard learned || now.verdict < verdict else { return self }
        var kept = now
        kept.thumb = thumb ?? now.thumb
        return kept
    }
}

/// A proof thumbnail: a small picture of what was on screen when a showing began, RGB, 3 bytes a pixel, rows top
/// down. Its SHA-256 (over `width`, `height` and the bytes, `hash`) names it in `showings.thumb`; the `thumbs` table
/// holds each distinct one once, so a slideshow of a few pictures writes a few thumbnails, not one per showing.
public struct ProofThumbnail: Sendable, Equatable {
    /// Its size in pixels.
    public var width: Int
    public var height: Int
    /// `width * height * 3` bytes.
    public var rgb: [UInt8]

    /// A thumbnail of `width` x `height` pixels.
    public init(width: Int, height: Int, rgb: [UInt8]) {
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// The lower-case hex SHA-256 of `"kiosk-thumb WxH\n"` followed by the bytes.
    public var hash: String { SHA256Sum.hex(Array("kiosk-thumb \(width)x\(height)\n".utf8) + rgb) }

    /// The bytes as lower-case hex (how the `thumbs` table keeps them).
    var hex: String { rgb.map { String(format: "%02x", $0) }.joined() }
}

extension PlayLog {
    /// `display`'s values for `display_state`, `display_id`, `cec_power`, `verdict` and `thumb` (all NULL without one).
    static func values(of display: ShowingDisplay?) -> [SQLiteDatabase.Value] {
        guard let d = display else { return [.null, .null, .null, .null, .null] }
        return [.text(d.state), d.id.map { .text($0) } ?? .null, .text(d.cecPower), .text(d.verdict.rawValue),
                d.thumb.map { .text(String($0.prefix(thumbDigits))) } ?? .null]
    }

    /// How many leading hex digits of its thumbnail's hash a showing keeps (64 bits tell a screen's pictures apart; the
    /// `thumbs` table, once per picture, keeps all 64): 48 bytes fewer a row, on an SD card, 1,800 times an hour.
    public static let thumbDigits = 16

    /// Sets what the display side knew of showing `id` to `display` (at its end: its worst moment).
    static func record(_ db: SQLiteDatabase, _ id: Int64, _ display: ShowingDisplay) throws(SQLiteError) {
        try db.query("""
            UPDATE showings SET display_state = ?2, display_id = ?3, cec_power = ?4, verdict = ?5, thumb = ?6 WHERE id = ?1
            """, [.int(id)] + values(of: display))
    }

    /// Keeps `thumb` in the `thumbs` table unless one of its hash is there already (one small page write per
    /// distinct picture, none for a picture shown before); its hash.
    @discardableResult
    static func store(_ db: SQLiteDatabase, thumb: ProofThumbnail) throws(SQLiteError) -> String {
        let hash = thumb.hash
        try db.query("INSERT OR IGNORE INTO thumbs (hash, width, height, rgb) VALUES (?1, ?2, ?3, ?4)",
                     [.text(hash), .int(Int64(thumb.width)), .int(Int64(thumb.height)), .text(thumb.hex)])
        return hash
    }
}

extension PlayLog {
    /// Keeps `thumb` (`store(_:thumb:)`), throwing what failed (for `PlayLogWriter`).
    func tryStore(thumb: ProofThumbnail) throws(SQLiteError) {
        try writing { db throws(SQLiteError) in _ = try Self.store(db, thumb: thumb) }
    }
}
