/// A font face at one pixel size: the FreeType face that rasterises its glyphs and the HarfBuzz font that shapes
/// with it. Wraps FreeType once; nothing above it sees FreeType or HarfBuzz types.
internal import CFreeType
internal import CHarfBuzz
import KioskCore
import Synchronization

/// One glyph's anti-aliased coverage as FreeType rendered it.
struct GlyphBitmap {
    /// Width and height in pixels (0 for a glyph without ink, such as a space).
    var width: Int, height: Int
    /// From the pen position to the bitmap's left edge, pixels right.
    var left: Int
    /// From the baseline to the bitmap's top edge, pixels up.
    var top: Int
    /// `width * height` coverage bytes, rows top-down.
    var pixels: [UInt8]
}

/// A font face at a pixel size. Use one `Font` on one thread at a time (FreeType faces are not thread-safe).
public final class Font {
    /// Unique among the fonts of this process: the glyph atlas keys its glyphs with it.
    public let id: Int
    /// The face it was loaded from.
    public let file: FontFile
    /// The em size in pixels.
    public let pixelSize: Double
    /// From the baseline up to the top of the tallest glyphs, pixels (FreeType's hinted size metrics).
    public let ascender: Double
    /// From the baseline down to the bottom of the lowest glyphs, pixels (positive).
    public let descender: Double
    /// The distance between two baselines: ascender + descender + line gap, pixels.
    public let lineHeight: Double
    /// How many glyphs it rasterised (for tests: the atlas should ask once per glyph and size).
    public private(set) var rasterisedGlyphs = 0

    /// The FreeType library this face belongs to (one per font, so fonts may live on different threads).
    private let library: FT_Library
    /// The FreeType face.
    let face: FT_Face
    /// The HarfBuzz font over the face (holds a reference to it).
    let hbFont: OpaquePointer

    private static let nextID = Atomic<Int>(1)

    /// Loads face `file` at `pixelSize` pixels per em.
    public init(file: FontFile, pixelSize: Double) throws {
        guard pixelSize >= 1, pixelSize <= 2048 else {
            throw TextError(call: "Font(\(file.path))", reason: "pixel size \(pixelSize) is outside 1...2048")
        }
        var library: FT_Library?
        var e = FT_Init_FreeType(&library)
        guard e == 0, let library else { throw TextError(call: "FT_Init_FreeType", reason: Font.errorText(e)) }
        var face: FT_Face?
        e = FT_New_Face(library, file.path, FT_Long(file.faceIndex), &face)
        guard e == 0, let face else {
            FT_Done_FreeType(library)
            throw TextError(call: "FT_New_Face(\(file.path)#\(file.faceIndex))", reason: Font.errorText(e))
        }
        e = FT_Set_Char_Size(face, 0, FT_F26Dot6((pixelSize * 64).rounded()), 72, 72)
        guard e == 0, let hbFont = hb_ft_font_create_referenced(face) else {
            FT_Done_Face(face)
            FT_Done_FreeType(library)
            throw TextError(call: "FT_Set_Char_Size(\(file.path), \(pixelSize) px)", reason: Font.errorText(e))
        }
        self.library = library
        self.face = face
        self.hbFont = hbFont
        self.file = file
        self.pixelSize = pixelSize
        self.id = Font.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        let metrics = face.pointee.size.pointee.metrics
        ascender = Double(metrics.ascender) / 64
        descender = -Double(metrics.descender) / 64
        lineHeight = max(Double(metrics.height) / 64, ascender + descender)
    }

    /// The face fontconfig finds for `family` (see `FontLocator.locate`) at `pixelSize`.
    public convenience init(family: String = FontLocator.defaultFamily, pixelSize: Double, log: Log = .shared) throws {
        try self.init(file: FontLocator.locate(family, log: log), pixelSize: pixelSize)
    }

    deinit {
        hb_font_destroy(hbFont)  // drops its reference to the face
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    /// The family name the face reports.
    public var familyName: String {
        face.pointee.family_name.map { String(cString: $0) } ?? file.family
    }

    /// The glyph for a character (0 when the face has none).
    public func glyph(for scalar: Unicode.Scalar) -> UInt32 {
        FT_Get_Char_Index(face, FT_ULong(scalar.value))
    }

    /// Rasterises glyph `id` anti-aliased (FT_LOAD_DEFAULT, FT_RENDER_MODE_NORMAL).
    func rasterise(glyph id: UInt32) throws -> GlyphBitmap {
        var e = FT_Load_Glyph(face, id, FT_Int32(FT_LOAD_DEFAULT))
        guard e == 0 else { throw TextError(call: "FT_Load_Glyph(\(file.path), glyph \(id))", reason: Font.errorText(e)) }
        guard let slot = face.pointee.glyph else {
            throw TextError(call: "FT_Load_Glyph(\(file.path), glyph \(id))", reason: "no glyph slot")
        }
        e = FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL)
        guard e == 0 else { throw TextError(call: "FT_Render_Glyph(\(file.path), glyph \(id))", reason: Font.errorText(e)) }
        rasterisedGlyphs += 1
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        var pixels = [UInt8](repeating: 0, count: width * height)
        if let buffer = bitmap.buffer, width > 0, height > 0 {
            guard bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) else {
                throw TextError(call: "FT_Render_Glyph(\(file.path), glyph \(id))",
                                reason: "pixel mode \(bitmap.pixel_mode), expected 8-bit grey")
            }
            for row in 0..<height {
                // A negative pitch means rows run bottom-up from the buffer's start.
                let from = pitch >= 0 ? row * pitch : (height - 1 - row) * -pitch
                for x in 0..<width { pixels[row * width + x] = buffer[from + x] }
            }
        }
        return GlyphBitmap(width: width, height: height, left: Int(slot.pointee.bitmap_left),
                           top: Int(slot.pointee.bitmap_top), pixels: pixels)
    }

    /// FreeType's text for an error code, with the code.
    static func errorText(_ code: FT_Error) -> String {
        let hex = "error 0x" + String(UInt32(bitPattern: code), radix: 16)
        guard let text = FT_Error_String(code) else { return hex }
        return "\(hex) (\(String(cString: text)))"
    }
}
