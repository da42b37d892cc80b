/// A linked GLSL program built from shader files in Shaders/ (embedded at build time), with cached uniforms.
internal import CEGL

/// A vertex + fragment shader program. Create, use and drop it on the render thread only.
public final class Program {
    /// The context the name belongs to.
    let context: GLContext
    /// The GL program name.
    let name: GLuint
    /// The fragment shader's file name, for messages.
    public let fragmentShader: String
    /// Uniform locations by name (-1 for a uniform the linker removed).
    private var locations: [String: GLint] = [:]

    /// Compiles and links `vertexShader` and `fragmentShader` (file names in Shaders/, e.g. `flat.frag`).
    /// The error names the file and carries the driver's info log.
    public convenience init(context: GLContext, vertexShader: String, fragmentShader: String) throws {
        try self.init(context: context,
                      vertex: (vertexShader, try ShaderLibrary.source(named: vertexShader)),
                      fragment: (fragmentShader, try ShaderLibrary.source(named: fragmentShader)))
    }

    /// Compiles and links a layer shader composed of fragment pieces (file names in Shaders/, joined in order);
    /// errors name the pieces, e.g. `prelude.frag+noeffect.frag+flat.frag+main.frag`.
    public convenience init(context: GLContext, vertexShader: String, fragmentPieces: [String]) throws {
        let source = try fragmentPieces.map { try ShaderLibrary.source(named: $0) }.joined(separator: "\n")
        try self.init(context: context,
                      vertex: (vertexShader, try ShaderLibrary.source(named: vertexShader)),
                      fragment: (fragmentPieces.joined(separator: "+"), source))
    }

    /// Compiles and links sources given with the file names used in messages.
    init(context: GLContext, vertex: (file: String, source: String), fragment: (file: String, source: String)) throws {
        let vertexShader = vertex.file, fragmentShader = fragment.file
        let vs = try Program.compile(file: vertex.file, source: vertex.source, type: GL_VERTEX_SHADER)
        defer { glDeleteShader(vs) }
        let fs = try Program.compile(file: fragment.file, source: fragment.source, type: GL_FRAGMENT_SHADER)
        defer { glDeleteShader(fs) }
        let program = glCreateProgram()
        guard program != 0 else { throw RenderError(call: "glCreateProgram", reason: "returned 0") }
        GLObjectCount.add(.program)
        glAttachShader(program, vs)
        glAttachShader(program, fs)
        glLinkProgram(program)
        var ok: GLint = 0
        glGetProgramiv(program, GLenum(GL_LINK_STATUS), &ok)
        guard ok == GL_TRUE else {
            let log = Program.infoLog(program, getLength: glGetProgramiv, getLog: glGetProgramInfoLog)
            glDeleteProgram(program)
            GLObjectCount.add(.program, -1)
            throw RenderError(call: "link \(vertexShader) + \(fragmentShader)", reason: log)
        }
        self.context = context
        self.name = program
        self.fragmentShader = fragmentShader
    }

    deinit {
        context.ensureCurrent()
        glDeleteProgram(name)
        GLObjectCount.add(.program, -1)
    }

    /// Makes this the current program.
    func use() { glUseProgram(name) }

    /// The location of a uniform, cached.
    private func location(_ uniform: String) -> GLint {
        if let cached = locations[uniform] { return cached }
        let found = glGetUniformLocation(name, uniform)
        locations[uniform] = found
        return found
    }

    /// Sets a float uniform (the program must be in use).
    public func set(_ uniform: String, _ x: Double) { glUniform1f(location(uniform), GLfloat(x)) }
    /// Sets a vec2 uniform.
    public func set(_ uniform: String, _ x: Double, _ y: Double) {
        glUniform2f(location(uniform), GLfloat(x), GLfloat(y))
    }
    /// Sets a vec3 uniform.
    public func set(_ uniform: String, _ x: Double, _ y: Double, _ z: Double) {
        glUniform3f(location(uniform), GLfloat(x), GLfloat(y), GLfloat(z))
    }
    /// Sets a vec4 uniform.
    public func set(_ uniform: String, _ x: Double, _ y: Double, _ z: Double, _ w: Double) {
        glUniform4f(location(uniform), GLfloat(x), GLfloat(y), GLfloat(z), GLfloat(w))
    }
    /// Sets an int (or sampler unit) uniform.
    public func set(_ uniform: String, int value: Int) { glUniform1i(location(uniform), GLint(value)) }
    /// Sets a mat3 uniform from 9 values in column-major order.
    public func set(_ uniform: String, mat3 columns: [Double]) {
        let values = columns.map { GLfloat($0) }
        glUniformMatrix3fv(location(uniform), 1, GLboolean(GL_FALSE), values)
    }

    /// Compiles one shader file; the error names the file and carries the info log.
    private static func compile(file: String, source: String, type: Int32) throws -> GLuint {
        let shader = glCreateShader(GLenum(type))
        guard shader != 0 else { throw RenderError(call: "glCreateShader(\(file))", reason: "returned 0") }
        source.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            glShaderSource(shader, 1, &pointer, nil)
        }
        glCompileShader(shader)
        var ok: GLint = 0
        glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &ok)
        guard ok == GL_TRUE else {
            let log = infoLog(shader, getLength: glGetShaderiv, getLog: glGetShaderInfoLog)
            glDeleteShader(shader)
            throw RenderError(call: "compile \(file)", reason: log)
        }
        return shader
    }

    /// Reads a shader's or program's info log.
    private static func infoLog(_ object: GLuint,
                                getLength: (GLuint, GLenum, UnsafeMutablePointer<GLint>?) -> Void,
                                getLog: (GLuint, GLsizei, UnsafeMutablePointer<GLsizei>?,
                                         UnsafeMutablePointer<GLchar>?) -> Void) -> String {
        var length: GLint = 0
        getLength(object, GLenum(GL_INFO_LOG_LENGTH), &length)
        guard length > 1 else { return "no info log" }
        var buffer = [GLchar](repeating: 0, count: Int(length))
        var written: GLsizei = 0
        getLog(object, GLsizei(length), &written, &buffer)
        let bytes = buffer.prefix(Int(written)).map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
