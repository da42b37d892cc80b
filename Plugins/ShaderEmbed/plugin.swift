// Build-tool plugin: embeds every Shaders/*.vert and Shaders/*.frag of the package into the target it is applied
// to, as `let embeddedShaders: [String: String]` (file name -> GLSL source), so the binary needs no shader files.
import Foundation
import PackagePlugin

@main
struct ShaderEmbed: BuildToolPlugin {
    /// One build command: shader-embed OUTPUT.swift SHADER_DIR ; rebuilt whenever a shader file changes.
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let shaderDir = context.package.directoryURL.appending(path: "Shaders")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: shaderDir.path)) ?? []
        let shaders = names.filter { $0.hasSuffix(".vert") || $0.hasSuffix(".frag") }.sorted()
            .map { shaderDir.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedShaders.swift")
        let tool = try context.tool(named: "shader-embed")
        return [.buildCommand(displayName: "Embedding \(shaders.count) shaders from Shaders/",
                              executable: tool.url,
                              arguments: [output.path, shaderDir.path],
                              // The folder too, so adding or removing a shader reruns the tool.
                              inputFiles: [shaderDir] + shaders,
                              outputFiles: [output])]
    }
}
