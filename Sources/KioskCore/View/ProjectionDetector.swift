/// Detects an item's projection from its file name: separate tokens, case-insensitive, never parts of words.

/// Reads projection and stereo tokens from file names (`beach_360_sbs.jpg`, `dome-fisheye190.png`).
public enum ProjectionDetector {
    /// What one token says.
    public enum Token: Sendable, Equatable {
        /// A projection with its input field of view.
        case projection(ProjectionKind, Double)
        /// A stereo packing.
        case stereo(StereoLayout)
    }

    /// The token table (lower case). `fisheyeNNN` (NNN in 180...220) is matched separately.
    public static let table: [String: Token] = [
        "360": .projection(.equirect, 360), "360x180": .projection(.equirect, 360),
        "equirect": .projection(.equirect, 360), "equirectangular": .projection(.equirect, 360),
        "180": .projection(.equirect, 180), "180x180": .projection(.equirect, 180),
        "vr180": .projection(.equirect, 180), "hequirect": .projection(.equirect, 180),
        "fisheye": .projection(.fisheye, 180),
        "mono": .stereo(.mono), "2d": .stereo(.mono),
        "sbs": .stereo(.sbs), "lr": .stereo(.sbs), "lrf": .stereo(.sbs), "3dh": .stereo(.sbs),
        "fsbs": .stereo(.sbs), "halfsbs": .stereo(.hsbs),
        "hsbs": .stereo(.hsbs), "hlr": .stereo(.hsbs),
        "tb": .stereo(.tb), "ou": .stereo(.tb), "tab": .stereo(.tb), "3dv": .stereo(.tb), "tbf": .stereo(.tb),
        "ftb": .stereo(.tb),
        "htb": .stereo(.htb), "hou": .stereo(.htb), "htab": .stereo(.htb),
    ]

    /// The lower-case alphanumeric tokens of a file name, without folders and extension.
    public static func tokens(of path: String) -> [String] {
        var name = Substring(path)
        if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = name[..<dot] }
        return name.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) || !$0.isASCII }).map(String.init)
    }

    /// What one token means, if anything.
    public static func meaning(of token: String) -> Token? {
        if let t = table[token] { return t }
        if token.hasPrefix("fisheye"), let fov = Int(token.dropFirst(7)),
           ItemProjection.fisheyeFOVs.contains(Double(fov)) {
            return .projection(.fisheye, Double(fov))
        }
        return nil
    }

    /// The projection a file name asks for, or nil when no token says anything. Stereo without a projection is
    /// the flat crop of one eye. When tokens disagree the last one wins.
    public static func detect(path: String) -> ItemProjection? {
        var kind: ProjectionKind?
        var fov: Double?
        var stereo: StereoLayout?
        for token in tokens(of: path) {
            switch meaning(of: token) {
            case .projection(let k, let f)?: kind = k; fov = f
            case .stereo(let s)?: stereo = s
            case nil: continue
            }
        }
        guard kind != nil || stereo != nil else { return nil }
        return ItemProjection(kind: kind ?? .flat, inputFOV: fov, stereo: stereo ?? .mono)
    }
}
