/// Limits of the GL implementation that decide what can be uploaded.
internal import CEGL

extension GLContext {
    /// The largest texture side the driver takes (`GL_MAX_TEXTURE_SIZE`; 4096 on some embedded GPUs).
    public var maxTextureSize: Int {
        var value: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &value)
        return Int(value)
    }
}
