/// Shaping with HarfBuzz: text → glyphs with advances and offsets in pixels (left to right, default features, so
/// kerning and standard ligatures are on).
internal import CHarfBuzz
import KioskCore

/// One shaped glyph, positions in pixels (HarfBuzz's 26.6 fixed point divided by 64).
public struct ShapedGlyph: Sendable, Equatable {
    /// The glyph index in the font.
    public var id: UInt32
    /// The index of the first Unicode scalar of the text this glyph belongs to.
    public var cluster: Int
    /// How far the pen moves right after it.
    public var advance: Double
    /// Shift right from the pen position.
    public var xOffset: Double
    /// Shift up from the baseline.
    public var yOffset: Double
}

/// A shaped piece of text.
public struct ShapedRun: Sendable, Equatable {
    /// The glyphs in visual (left-to-right) order.
    public var glyphs: [ShapedGlyph]
    /// How many Unicode scalars the text had.
    public var scalarCount: Int

    /// The sum of the advances: the run's width in pixels.
    public var advance: Double { glyphs.reduce(0) { $0 + $1.advance } }
}

/// Shapes text with HarfBuzz.
public enum TextShaper {
    /// Shapes `text` left to right with `font`. `features` are HarfBuzz feature strings added to the defaults,
    /// e.g. `-kern` (kerning off) or `-liga` (no ligatures).
    public static func shape(_ text: String, font: Font, features: [String] = []) throws -> ShapedRun {
        let scalars = Array(text.unicodeScalars)
        guard let buffer = hb_buffer_create(), hb_buffer_allocation_successful(buffer) != 0 else {
            throw TextError(call: "hb_buffer_create", reason: "out of memory")
        }
        defer { hb_buffer_destroy(buffer) }
        let codepoints = scalars.map { hb_codepoint_t($0.value) }
        codepoints.withUnsafeBufferPointer { p in
            hb_buffer_add_utf32(buffer, p.baseAddress, Int32(p.count), 0, Int32(p.count))
        }
        hb_buffer_set_direction(buffer, HB_DIRECTION_LTR)
        hb_buffer_guess_segment_properties(buffer)
        var parsed: [hb_feature_t] = []
        for text in features {
            var feature = hb_feature_t()
            guard hb_feature_from_string(text, Int32(text.utf8.count), &feature) != 0 else {
                throw TextError(call: "hb_feature_from_string(\(text))", reason: "not a HarfBuzz feature")
            }
            parsed.append(feature)
        }
        parsed.withUnsafeBufferPointer { hb_shape(font.hbFont, buffer, $0.baseAddress, UInt32($0.count)) }
        guard hb_buffer_allocation_successful(buffer) != 0 else {
            throw TextError(call: "hb_shape(\(font.file.path))", reason: "out of memory")
        }
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else {
            return ShapedRun(glyphs: [], scalarCount: scalars.count)
        }
        var glyphs: [ShapedGlyph] = []
        glyphs.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            let p = positions[i]
            glyphs.append(ShapedGlyph(id: infos[i].codepoint, cluster: Int(infos[i].cluster),
                                      advance: Double(p.x_advance) / 64, xOffset: Double(p.x_offset) / 64,
                                      yOffset: Double(p.y_offset) / 64))
        }
        return ShapedRun(glyphs: glyphs, scalarCount: scalars.count)
    }
}
