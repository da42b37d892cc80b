/// What one region of a playing layout shows, as remote clients read it (`kiosk-regions` over IPC, the MQTT
/// state): its name, the medium's file and `src`, and how far into it the region is.
public struct RegionStatus: Sendable, Equatable {
    /// The region's name.
    public var name: String
    /// The medium's `src` as the SMIL file gives it, nil while the region shows nothing (its background).
    public var src: String?
    /// The medium's local file, nil while the region shows nothing or the medium has no file.
    public var path: String?
    /// Seconds into the medium (its current repeat).
    public var timePosition: Double
    /// Whether it is past its end and held on its last frame.
    public var frozen: Bool
    /// What the region shows next (its `src`), as far as the timeline says without events; nil: nothing known.
    public var next: String?

    /// A region's status.
    public init(name: String, src: String? = nil, path: String? = nil, timePosition: Double = 0, frozen: Bool = false) {
        self.name = name
        self.src = src
        self.path = path
        self.timePosition = timePosition
        self.frozen = frozen
    }

    /// Every region of `document`, in its order, with what `shown` (by region name) says it shows; `path` gives a
    /// medium's file.
    public static func all(_ document: SMILDocument, shown: [String: SMILActive], path: (SMILMedia) -> String?) -> [RegionStatus] {
        all(document, shown: shown, next: [:], path: path)
    }

    /// The same, with what each region shows next (by region name).
    public static func all(_ document: SMILDocument, shown: [String: SMILActive], next: [String: String],
                           path: (SMILMedia) -> String?) -> [RegionStatus] {
        document.regions.map { region in
            guard let a = shown[region.name] else { var r = RegionStatus(name: region.name); r.next = next[region.name]; return r }
            var r = RegionStatus(name: region.name, src: a.media.src, path: path(a.media), timePosition: a.offset, frozen: a.frozen)
            r.next = next[region.name]
            return r
        }
    }
}
