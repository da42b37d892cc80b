/// Looks up GLSL sources embedded from Shaders/ at build time (see Plugins/ShaderEmbed).

/// The shader files built into the binary.
public enum ShaderLibrary {
    /// The file names of every embedded shader, sorted.
    public static var names: [String] { embeddedShaders.keys.sorted() }

    /// The source of a shader file, e.g. `flat.frag`.
    public static func source(named file: String) throws -> String {
        guard let source = embeddedShaders[file] else {
            throw RenderError(call: "ShaderLibrary.source(\(file))",
                              reason: "no such shader in Shaders/ (embedded: \(names.joined(separator: ", ")))")
        }
        return source
    }
}
