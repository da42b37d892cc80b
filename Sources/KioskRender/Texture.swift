/// A GL texture holding one RGBA8 picture; the only owner of its GL name.
import CEGL
import KioskCore

/// An RGBA8 texture (linear filtering, clamped to edge). Create, update and drop it on the render thread only.
public final class Texture {
    /// The context the name belongs to (kept alive while the texture lives).
    let context: GLContext
    /// The GL texture name.
    let name: GLuint
    /// The size of the storage.
    public private(set) var size: PixelSize

    /// A texture holding `image`.
    public convenience init(context: GLContext, image: RGBAImage) throws {
        try self.init(context: context, size: image.size, filter: GL_LINEAR)
        try update(with: image)
    }

    /// An uninitialised texture of `size` with the given min/mag filter (GL_LINEAR or GL_NEAREST).
    init(context: GLContext, size: PixelSize, filter: Int32) throws {
        guard size.width > 0, size.height > 0 else {
            throw RenderError(call: "glTexImage2D", reason: "empty texture size \(size)")
        }
        var name: GLuint = 0
        glGenTextures(1, &name)
        guard name != 0 else { throw RenderError(call: "glGenTextures", reason: "no texture name returned") }
        self.context = context
        self.name = name
        self.size = size
        glBindTexture(GLenum(GL_TEXTURE_2D), name)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), filter)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), filter)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        allocate(size: size, pixels: nil)
        if let error = context.glErrorCheck("glTexImage2D(\(size))") { throw error }
    }

    deinit {
        context.ensureCurrent()
        var n = name
        glDeleteTextures(1, &n)
    }

    /// Replaces the picture; the storage is reused when the size is unchanged.
    public func update(with image: RGBAImage) throws {
        glBindTexture(GLenum(GL_TEXTURE_2D), name)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        image.pixels.withUnsafeBytes { bytes in
            if image.size == size {
                glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(size.width), GLsizei(size.height),
                                GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
            } else {
                allocate(size: image.size, pixels: bytes.baseAddress)
            }
        }
        size = image.size
        if let error = context.glErrorCheck("Texture.update(\(image.size))") { throw error }
    }

    /// (Re)allocates storage of `size`, optionally filled from `pixels` (texture must be bound).
    private func allocate(size: PixelSize, pixels: UnsafeRawPointer?) {
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(size.width), GLsizei(size.height), 0,
                     GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), pixels)
    }

    /// Binds the texture to texture unit `unit`.
    func bind(unit: Int) {
        glActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit)))
        glBindTexture(GLenum(GL_TEXTURE_2D), name)
    }
}
