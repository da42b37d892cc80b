/// A video frame on the GPU: one texture per plane (R8, RG8 or RGBA8), converted to RGB by the layout's sampling stage (`yuv.frag` + `sample_*.frag`).
internal import CEGL
import KioskCore

/// The planes of the frame being shown; `update(with:)` uploads the next frame into the same storage.
/// 16-bit samples go up as byte pairs (RG8 / RGBA8) and are recombined in the shader, which works on every
/// GLES 3.0 driver (no EXT_texture_norm16 needed). Create, update and drop it on the render thread only.
public final class VideoTexture: LayerPicture {
    /// The context the names belong to.
    let context: GLContext
    private var names: [GLuint] = []
    private var planeSizes: [PixelSize] = []
    private var planeFormats: [Int32] = []
    /// The frame's stored size.
    public private(set) var storedSize = PixelSize(width: 0, height: 0)
    /// The displayed size (sample aspect and rotation applied).
    public private(set) var size = PixelSize(width: 0, height: 0)
    /// The time of the frame shown.
    public private(set) var pts = 0.0
    /// How many frames were uploaded (a copy made from it is still good while this stays the same).
    public private(set) var contentVersion = 0
    private var conversion = YUVConversion(layout: .yuv420p, matrix: .bt601, range: .limited)
    private var chromaShift = (0.0, 0.0)
    /// How the stored frame is turned to be shown (`.downMirrored`: RGBA rows stored bottom-up, GL's order).
    private(set) var orientation = Orientation.up
    /// A framebuffer with plane 0 attached, made on the first plain copy (0: none yet).
    private var readFramebuffer: GLuint = 0

    /// The sampling stage for the frame's layout.
    public private(set) var samplerPieces: [String] = PassRegistry.videoSampler(.yuv420p)

    /// Textures holding `frame`.
    public init(context: GLContext, frame: VideoFrame) throws {
        self.context = context
        try update(with: frame)
    }

    deinit {
        context.ensureCurrent()
        if !names.isEmpty { glDeleteTextures(GLsizei(names.count), names) }
        GLObjectCount.add(.texture, -names.count)
        PlainCopy.deleteReadFramebuffer(readFramebuffer)
    }

    /// Uploads `frame`, reusing the storage while plane sizes and formats stay the same.
    public func update(with frame: VideoFrame) throws {
        contentVersion += 1
        let layout = frame.layout
        guard frame.planes.count == layout.planeCount, frame.size.width > 0, frame.size.height > 0 else {
            throw RenderError(call: "VideoTexture.update", reason: "frame \(frame.size) \(layout.rawValue) has \(frame.planes.count) planes")
        }
        while names.count < layout.planeCount {
            var n: GLuint = 0
            glGenTextures(1, &n)
            guard n != 0 else { throw RenderError(call: "glGenTextures", reason: "no texture name returned") }
            GLObjectCount.add(.texture)
            names.append(n)
            planeSizes.append(PixelSize(width: 0, height: 0))
            planeFormats.append(0)
        }
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        defer { glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), 0) }
        for i in 0..<layout.planeCount {
            let plane = frame.planes[i]
            let dims = layout.planeSize(i, of: frame.size)
            let bpt = layout.bytesPerTexel(plane: i)
            guard plane.stride % bpt == 0, plane.stride >= dims.width * bpt,
                  plane.byteCount >= plane.stride * (dims.height - 1) + dims.width * bpt else {
                throw RenderError(call: "VideoTexture.update", reason: "plane \(i) of \(frame.size) \(layout.rawValue) is too small")
            }
            let (internalFormat, format): (Int32, Int32) = bpt == 1 ? (GL_R8, GL_RED) : bpt == 2 ? (GL_RG8, GL_RG) : (GL_RGBA8, GL_RGBA)
            glBindTexture(GLenum(GL_TEXTURE_2D), names[i])
            glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), GLint(plane.stride / bpt))
            let allocate = planeSizes[i] != dims || planeFormats[i] != internalFormat
            if allocate {
                let filter = layout.bitDepth > 8 ? GL_NEAREST : GL_LINEAR
                glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), filter)
                glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), filter)
                glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
                glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
            }
            plane.withBytes { bytes in
                if allocate {
                    glTexImage2D(GLenum(GL_TEXTURE_2D), 0, internalFormat, GLsizei(dims.width), GLsizei(dims.height), 0,
                                 GLenum(format), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
                } else {
                    glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(dims.width), GLsizei(dims.height),
                                    GLenum(format), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
                }
            }
            planeSizes[i] = dims
            planeFormats[i] = internalFormat
        }
        if let error = context.glErrorCheck("VideoTexture upload \(frame.size) \(layout.rawValue)") { throw error }
        storedSize = frame.size
        size = frame.displaySize
        pts = frame.pts
        conversion = YUVConversion(layout: layout, matrix: frame.matrix, range: frame.range)
        samplerPieces = PassRegistry.videoSampler(layout)
        orientation = frame.orientation
        chromaShift = YUVConversion.chromaShift(frame)
    }

    /// Binds plane i to unit i as `u_plane<i>` and sets the conversion.
    public func bind(to program: Program) {
        for i in 0..<3 {
            glActiveTexture(GLenum(GL_TEXTURE0 + Int32(i)))
            glBindTexture(GLenum(GL_TEXTURE_2D), names[min(i, names.count - 1)])
            program.set("u_plane\(i)", int: i)
        }
        glActiveTexture(GLenum(GL_TEXTURE0))
        program.set("u_yuvMatrix", mat3: conversion.matrix)
        program.set("u_yuvOffset", conversion.offset.0, conversion.offset.1, conversion.offset.2)
        program.set("u_codeScale", conversion.codeScale)
        program.set("u_chromaShift", chromaShift.0, chromaShift.1)
        program.set("u_orient", mat3: YUVConversion.orientationMatrix(orientation))
    }

    /// What a plain copy reads: the one RGBA texture of a frame stored for copying, bottom-up and opaque
    /// (`VideoStreamReader.rgbaRows`), with square pixels. Nil for any other frame (a copy does not blend).
    func plainCopySource() -> PlainCopy.Source? {
        guard samplerPieces == PassRegistry.videoSampler(.rgba), storedSize == size, orientation == .downMirrored,
              let plane = names.first else { return nil }
        guard let fbo = PlainCopy.readFramebuffer(readFramebuffer, texture: plane) else { return nil }
        readFramebuffer = fbo
        return PlainCopy.Source(framebuffer: fbo, size: storedSize)
    }
}
