/// A SMIL 3.0 presentation as kiosk plays it: the layout (`head/layout`), the transitions (`head/transition`) and
/// the timed body. Pure values: `SMILReader` makes one from a parsed markup tree, `SMILTimeline` says what is on
/// screen at a time. Sources are kept as written (`src` relative to the SMIL file); the loader resolves them.

/// Where a thing was written, for errors that name FILE:LINE.
public struct SourceLine: Sendable, Hashable, CustomStringConvertible {
    /// The file as the user named it.
    public var file: String
    /// 1-based line.
    public var line: Int
    /// Creates a place.
    public init(file: String, line: Int) { self.file = file; self.line = line }
    /// `FILE:LINE`.
    public var description: String { "\(file):\(line)" }
}

/// A length in a layout: pixels, or a percentage of the root layout's width or height.
public enum LayoutLength: Sendable, Hashable {
    case pixels(Double)
    case percent(Double)

    /// The length in pixels, in a parent `whole` pixels long.
    public func pixels(in whole: Double) -> Double {
        switch self {
        case .pixels(let p): return p
        case .percent(let p): return p / 100 * whole
        }
    }
}

/// An sRGB colour with alpha, each 0...1.
public struct LayoutColor: Sendable, Hashable {
    public var red: Double, green: Double, blue: Double, alpha: Double
    /// Creates a colour.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    /// Opaque black, the root layout's default.
    public static let black = LayoutColor(red: 0, green: 0, blue: 0)
    /// Nothing: a region without a background shows what is under it.
    public static let transparent = LayoutColor(red: 0, green: 0, blue: 0, alpha: 0)
}

/// How a medium fills its region (SMIL's `fit`).
public enum SMILFit: String, Sendable, Hashable, CaseIterable {
    /// Stretched to the region, aspect ratio lost.
    case fill
    /// Whole, aspect kept, letterboxed.
    case meet
    /// As `meet`, but never scaled up past its own size.
    case meetBest
    /// Covers the region, aspect kept, the overflow cut.
    case slice
    /// Its own size at the region's top-left, cut at the region's edge (SMIL's default).
    case hidden
}

/// `root-layout`: the canvas the regions are placed on, scaled to the screen keeping its aspect ratio.
public struct SMILRootLayout: Sendable, Hashable {
    public var width: Double
    public var height: Double
    public var backgroundColor: LayoutColor
    /// Creates a root layout.
    public init(width: Double, height: Double, backgroundColor: LayoutColor = .black) {
        self.width = width; self.height = height; self.backgroundColor = backgroundColor
    }
}

/// A `region`: a rectangle of the root layout where media play.
public struct SMILRegion: Sendable, Hashable {
    /// `regionName`, else `xml:id` (media name it in their `region` attribute).
    public var name: String
    public var left: LayoutLength?, top: LayoutLength?, width: LayoutLength?, height: LayoutLength?
    public var right: LayoutLength?, bottom: LayoutLength?
    /// Higher is in front; equal ones stack in document order.
    public var zIndex: Int
    /// nil: transparent.
    public var backgroundColor: LayoutColor?
    /// The fit of media that name none.
    public var fit: SMILFit
    /// `mediaAlign`: where media that do not fill it sit (SMIL's default `topLeft`).
    public var mediaAlign: MediaAlign = .topLeft
    /// 0...1.
    public var opacity: Double
    /// Where it was written.
    public var source: SourceLine

    /// Creates a region.
    public init(name: String, left: LayoutLength? = nil, top: LayoutLength? = nil, width: LayoutLength? = nil,
                height: LayoutLength? = nil, right: LayoutLength? = nil, bottom: LayoutLength? = nil, zIndex: Int = 0,
                backgroundColor: LayoutColor? = nil, fit: SMILFit = .hidden, opacity: Double = 1, source: SourceLine) {
        self.name = name; self.left = left; self.top = top; self.width = width; self.height = height
        self.right = right; self.bottom = bottom; self.zIndex = zIndex; self.backgroundColor = backgroundColor
        self.fit = fit; self.opacity = opacity; self.source = source
    }
}

/// A `transition` in `head`, named by media's `transIn`/`transOut`.
public struct SMILTransition: Sendable, Hashable {
    /// Its `xml:id` (or `id`).
    public var id: String
    /// `type`: `fade`, `barWipe`, `pushWipe`, … (others fall back to a crossfade).
    public var type: String
    /// `subtype`, if given (`crossfade`, `fadeToColor`, `leftToRight`, `fromLeft`, …).
    public var subtype: String?
    /// Seconds (SMIL's default is 1 s).
    public var duration: Double
    /// `fadeColor` for `fadeToColor`.
    public var fadeColor: LayoutColor
    /// `direction="reverse"`: the wipe or push runs the other way.
    public var reversed: Bool
    public var source: SourceLine
    /// Creates a transition.
    public init(id: String, type: String, subtype: String? = nil, duration: Double = 1, fadeColor: LayoutColor = .black,
                reversed: Bool = false, source: SourceLine) {
        self.id = id; self.type = type; self.subtype = subtype; self.duration = duration; self.fadeColor = fadeColor
        self.reversed = reversed; self.source = source
    }
}

/// A duration attribute's value (`dur`, `repeatDur`).
public enum SMILDuration: Sendable, Hashable {
    /// A clock value, in seconds.
    case seconds(Double)
    /// `indefinite`.
    case indefinite
    /// `media`: the medium's own length.
    case media
}

/// `repeatCount`.
public enum SMILRepeatCount: Sendable, Hashable {
    /// A count, possibly fractional (`2.5` plays two and a half times).
    case count(Double)
    case indefinite
}

/// `fill`: what an element shows after its active end.
public enum SMILFill: String, Sendable, Hashable {
    /// SMIL's default: `freeze` when the element has none of `dur`, `end`, `repeatCount`, `repeatDur`; else `remove`.
    case auto
    /// Its last frame stays until its parent's time ends (or, in a `seq`, until the next sibling begins).
    case freeze
    /// Gone at its active end.
    case remove
    /// Its last frame stays until the parent's parent ends.
    case hold
}

/// `endsync` of a `par` or `excl`: which children's ends end it.
public enum SMILEndSync: Sendable, Hashable {
    /// The first child to end.
    case first
    /// The last child to end (the default).
    case last
    /// Every child, indefinite ones too.
    case all
    /// The child with this id.
    case id(String)
}

/// The timing attributes every element of the body may carry. `begin` and `end` are lists of offsets,
/// `wallclock()` times and syncbase or event values; the timeline turns the last two kinds into offsets.
public struct SMILTiming: Sendable, Hashable {
    /// `begin`: seconds after the parent's begin (in a `seq`, after the previous sibling's end). Default 0.
    public var begin: Double
    /// `dur`; nil: not given (a medium's implicit duration, a container's from its children).
    public var duration: SMILDuration?
    /// The `end` list's offsets from the parent's begin, sorted (once the timeline has placed them, its
    /// wallclock, syncbase and event values too). Each begin ends at the first of them not before it.
    public var ends: [Double] = []
    /// Whether `end` was written (an element with an `end` and no `dur` lasts until its end, and fills `remove`).
    public var hasEnd = false
    /// `wallclock()` times of the `end` list, placed by the timeline as `wallclockBegins` are.
    public var wallclockEnds: [SMILWallclock] = []
    /// Syncbase and event values of the `end` list (`notify(stop)`, `intro.end`), placed by the timeline.
    public var eventEnds: [SMILEventBegin] = []
    /// Whether the `end` list holds `indefinite`: when no other end is left, none comes.
    public var endIndefinite = false

    /// The first `end` offset; setting it makes it the only one.
    public var end: Double? {
        get { ends.first }
        set { ends = newValue.map { [$0] } ?? []; hasEnd = newValue != nil }
    }

    /// Where an activation begun at `begin` ends by the `end` list: its first time not before `begin`; nil when
    /// none cuts it (no `end`, or only syncbase and event values that have not happened yet: SMIL's unresolved
    /// end); `begin` itself when every end came before it and nothing more can come (it does not play).
    public func endCut(after begin: Double) -> Double? {
        guard hasEnd else { return nil }
        if let e = ends.first(where: { $0 >= begin }) { return e }
        return eventEnds.isEmpty && wallclockEnds.isEmpty && !endIndefinite ? begin : nil
    }
    public var repeatCount: SMILRepeatCount?
    public var repeatDuration: SMILDuration?
    public var fill: SMILFill
    /// Whether `begin` was written. A child of an `excl` without one never begins on its own (SMIL's default
    /// begin there is `indefinite`: events begin it, which come with interrupts).
    public var hasBegin: Bool
    /// Every time of a `begin` list (`begin="0s; 20min; 40min"`), in the order written: in an `excl` each is a
    /// begin of the child (interrupts); elsewhere the first is used. Empty when no begin was written.
    public var begins: [Double]
    /// `wallclock()` times of the `begin` list; the timeline turns them into `begins` once it knows where the
    /// layout stands on the wall clock (`SMILTimeline.WallAnchor`).
    public var wallclockBegins: [SMILWallclock] = []
    /// Syncbase and event values of the `begin` list (`intro.end+2s`, `notify(fire)`), placed by the timeline.
    public var eventBegins: [SMILEventBegin] = []
    /// Creates timing; every attribute optional.
    public init(begin: Double? = nil, duration: SMILDuration? = nil, end: Double? = nil, repeatCount: SMILRepeatCount? = nil,
                repeatDuration: SMILDuration? = nil, fill: SMILFill = .auto) {
        self.begin = begin ?? 0; self.hasBegin = begin != nil; self.begins = begin.map { [$0] } ?? []
        self.duration = duration; ends = end.map { [$0] } ?? []; hasEnd = end != nil
        self.repeatCount = repeatCount; self.repeatDuration = repeatDuration; self.fill = fill
    }
}

/// What a media element is.
public enum SMILMediaKind: String, Sendable, Hashable {
    case image = "img"
    case video
    case audio
    /// `ref`: the kind comes from `type` or the file.
    case ref
    /// `brush`: a solid colour (its `color`) over its region, for its duration; no file.
    case brush
    /// Text: `smilText` (the text is the element's) or a `text/plain` file (`text`, or a `ref` of that type).
    case text
}

/// A media element: `img`, `video`, `audio` or `ref`.
public struct SMILMedia: Sendable, Hashable {
    /// Its index in document order among all media of the document: a stable key for decodes and logs.
    public var index: Int
    /// `xml:id` (or `id`), if any.
    public var id: String?
    public var kind: SMILMediaKind
    /// `src` as written.
    public var src: String
    /// `type` (a MIME type), if given.
    public var type: String?
    /// The region's name; nil: the document's first region (or the whole root layout when there is none).
    public var region: String?
    /// nil: the region's fit.
    public var fit: SMILFit?
    /// `mediaAlign`; nil: the region's.
    public var mediaAlign: MediaAlign? = nil
    /// `soundLevel` as a fraction (`100%` is 1, `0%` silent). Default 1.
    public var soundLevel: Double
    /// Transition ids.
    public var transIn: String?
    public var transOut: String?
    /// `param` children for kiosk's settings (`projection`, `ken-burns`, `caption`), by name, in document order.
    public var params: [String: String]

    /// Whether `<param name="ken-burns" value="on">` (or true, yes, 1) asks for the slow zoom and pan on this still.
    public var kenBurns: Bool { params["ken-burns"].map { ["on", "true", "yes", "1"].contains($0.lowercased()) } ?? false }
    public var timing: SMILTiming
    /// A `brush`'s colour.
    public var color: LayoutColor? = nil
    /// A `smilText`'s own text (a text file's is read by the player).
    public var text: String? = nil
    /// How a text medium is shown.
    public var textStyle: SMILTextStyle? = nil
    public var source: SourceLine

    /// Creates a media element.
    public init(index: Int, id: String? = nil, kind: SMILMediaKind, src: String, type: String? = nil, region: String? = nil,
                fit: SMILFit? = nil, soundLevel: Double = 1, transIn: String? = nil, transOut: String? = nil,
                params: [String: String] = [:], timing: SMILTiming = SMILTiming(), source: SourceLine) {
        self.index = index; self.id = id; self.kind = kind; self.src = src; self.type = type; self.region = region
        self.fit = fit; self.soundLevel = soundLevel; self.transIn = transIn; self.transOut = transOut
        self.params = params; self.timing = timing; self.source = source
    }
}

/// A time container: `seq` (children one after another), `par` (all at once), `excl` (one at a time).
public struct SMILContainer: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable { case seq, par, excl }
    public var kind: Kind
    public var id: String?
    public var timing: SMILTiming
    /// For `par` and `excl`; ignored on `seq`.
    public var endSync: SMILEndSync
    public var children: [SMILNode]
    public var source: SourceLine
    /// An `excl`'s `priorityClass` elements, highest first (empty: no classes, every child a peer that stops the
    /// one playing). Their children are the excl's `children`, in document order.
    public var priorityClasses: [SMILPriorityClass] = []
    /// With `priorityClasses`: the class of each child (an index into them), child by child.
    public var childClasses: [Int] = []
    /// Creates a container.
    public init(kind: Kind, id: String? = nil, timing: SMILTiming = SMILTiming(), endSync: SMILEndSync = .last,
                children: [SMILNode] = [], source: SourceLine) {
        self.kind = kind; self.id = id; self.timing = timing; self.endSync = endSync; self.children = children
        self.source = source
    }
}

/// One timed element of the body.
public indirect enum SMILNode: Sendable, Hashable {
    case media(SMILMedia)
    case container(SMILContainer)
}

/// A whole presentation.
public struct SMILDocument: Sendable, Hashable {
    /// The file as the user named it (errors and relative `src` start from it).
    public var file: String
    public var rootLayout: SMILRootLayout
    /// In document order (z-order ties break by it).
    public var regions: [SMILRegion]
    /// By id.
    public var transitions: [String: SMILTransition]
    /// `body`, which times its children as a `seq`.
    public var body: SMILContainer
    /// Warn lines for what was skipped (unknown elements and attributes, `text/html` refs), at most 10.
    public var warnings: [String]

    /// Creates a document.
    public init(file: String, rootLayout: SMILRootLayout, regions: [SMILRegion], transitions: [String: SMILTransition] = [:],
                body: SMILContainer, warnings: [String] = []) {
        self.file = file; self.rootLayout = rootLayout; self.regions = regions; self.transitions = transitions
        self.body = body; self.warnings = warnings
    }
}
