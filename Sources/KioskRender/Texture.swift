/// A GL texture holding one RGBA8 picture; the only owner of its GL name.
internal import CEGL
import KioskCore

/// An RGBA8 texture (linear filtering, clamped to edge), stored with premultiplied alpha so that filtering never
/// bleeds the colour of transparent pixels. Create, update and drop it on the render thread only.
public final class Texture {
    /// The context the name belongs to (kept alive while the texture lives).
    let context: GLContext
    /// The GL texture name.
    let name: GLuint
    /// The size of the storage.
    public private(set) var size: PixelSize
    /// How many pictures were uploaded into it (0: it is drawn into, its content unknown): a copy made from it is
    /// still good while this stays the same.
    public private(set) var contentVersion = 0
    /// Whether rows are stored bottom-up, GL's order (a picture layer's still: a plain copy then writes it
    /// unflipped); the RGBA sampling stages turn it back (`u_pictureFlip`).
    let rowsBottomUp: Bool
    /// Whether every pixel of the uploaded picture is opaque (false once drawn into: its content is then unknown).
    private(set) var isOpaque = false
    /// A framebuffer with the texture attached, made on the first plain copy (0: none yet).
    private var readFramebuffer: GLuint = 0

    /// A texture holding `image` (straight alpha, as decoded).
    public convenience init(context: GLContext, image: RGBAImage) throws {
        try self.init(context: context, size: image.size, filter: GL_LINEAR, image: image)
    }

    /// A picture layer's texture holding `image`, its rows stored bottom-up: drawn 1:1 and opaque, a still is
    /// copied into the framebuffer (`PlainCopy`) instead of drawn by the layer shader. Its later pictures (an
    /// animation's frames) are stored the same way.
    public convenience init(context: GLContext, layerImage image: RGBAImage) throws {
        try self.init(context: context, size: image.size, filter: GL_LINEAR, image: image, rowsBottomUp: true)
    }

    /// A texture of `size` with the given min/mag filter (GL_LINEAR or GL_NEAREST), filled from `image` when given
    /// (its size must then be `size`), else uninitialised.
    init(context: GLContext, size: PixelSize, filter: Int32, image: RGBAImage? = nil, rowsBottomUp: Bool = false) throws {
        let name = try Self.makeName(size: size, filter: filter, what: "glTexImage2D")
        self.context = context
        self.name = name
        self.size = size
        self.rowsBottomUp = rowsBottomUp
        if let image, image.size == size {
            try upload(image, allocating: true)
        } else {
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(size.width), GLsizei(size.height), 0,
                         GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
            if let error = context.glErrorCheck("glTexImage2D(\(size))") { throw error }
        }
    }

    deinit {
        context.ensureCurrent()
        var n = name
        glDeleteTextures(1, &n)
        GLObjectCount.add(.texture, -1)
        PlainCopy.deleteReadFramebuffer(readFramebuffer)
    }

    /// Replaces the picture (straight alpha, as decoded); the storage is reused when the size is unchanged.
    public func update(with image: RGBAImage) throws {
        glBindTexture(GLenum(GL_TEXTURE_2D), name)
        try upload(image, allocating: image.size != size)
    }

    /// Uploads `image` premultiplied into the bound texture: a new allocation, or into the existing storage.
    private func upload(_ image: RGBAImage, allocating: Bool) throws {
        contentVersion += 1
        let w = GLsizei(image.size.width), h = GLsizei(image.size.height)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        let (pixels, opaque) = Texture.premultiplying(image.pixels)
        isOpaque = opaque
        pixels.withUnsafeBytes { bytes in
            if rowsBottomUp {
                // one row at a time, last first: no flipped copy of the picture is made
                if allocating {
                    glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, w, h, 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
                }
                guard let base = bytes.baseAddress else { return }
                let rowBytes = Int(w) * 4
                for row in 0..<Int(h) {
                    glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, GLint(row), w, 1, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE),
                                    base + (Int(h) - 1 - row) * rowBytes)
                }
            } else if allocating {
                glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, w, h, 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE),
                             bytes.baseAddress)
            } else {
                glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, 0, w, h, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE),
                                bytes.baseAddress)
            }
        }
        size = image.size
        if let error = context.glErrorCheck("Texture upload \(image.size)") { throw error }
    }

    /// RGBA with colour multiplied by alpha, and whether every pixel was opaque (the same array then, no copy).
    static func premultiplying(_ pixels: [UInt8]) -> (pixels: [UInt8], opaque: Bool) {
        let opaque = pixels.withUnsafeBufferPointer { bytes in
            // Alpha is the highest byte of each little-endian 32-bit pixel: AND them all together.
            bytes.withMemoryRebound(to: UInt32.self) { words in
                var all: UInt32 = 0xFF00_0000
                for v in words { all &= v }
                return all & 0xFF00_0000 == 0xFF00_0000
            }
        }
        if opaque { return (pixels, true) }
        var out = pixels
        out.withUnsafeMutableBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 4) {
                let a = UInt32(p[i + 3])
                if a == 255 { continue }
                for c in 0..<3 { p[i + c] = UInt8((UInt32(p[i + c]) * a + 127) / 255) }
            }
        }
        return (out, false)
    }

    /// Binds the texture to texture unit `unit`.
    func bind(unit: Int) {
        glActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit)))
        glBindTexture(GLenum(GL_TEXTURE_2D), name)
    }
}

extension Texture {
    /// A new texture name of the kind every texture here is (clamped to edge, min/mag `filter`), counted and left
    /// bound; its storage is the caller's to allocate. `what` names the caller's allocation in errors.
    static func makeName(size: PixelSize, filter: Int32, what: String) throws -> GLuint {
        guard size.width > 0, size.height > 0 else {
            throw RenderError(call: what, reason: "empty texture size \(size)")
        }
        var name: GLuint = 0
        glGenTextures(1, &name)
        guard name != 0 else { throw RenderError(call: "glGenTextures", reason: "no texture name returned") }
        GLObjectCount.add(.texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), name)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), filter)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), filter)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        return name
    }
}

extension Texture {
    /// What a plain copy reads: an uploaded, fully opaque picture stored bottom-up (a copy does not blend or flip).
    func plainCopySource() -> PlainCopy.Source? {
        guard rowsBottomUp, isOpaque else { return nil }
        guard let fbo = PlainCopy.readFramebuffer(readFramebuffer, texture: name) else { return nil }
        readFramebuffer = fbo
        return PlainCopy.Source(framebuffer: fbo, size: size)
    }
}
