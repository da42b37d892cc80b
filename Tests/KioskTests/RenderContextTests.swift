// The headless context comes up on llvmpipe, and every shader compiles with the driver and with glslangValidator.
import Foundation
import KioskCore
@testable import KioskRender
import XCTest

final class RenderContextTests: RenderTestCase {
    func testHeadlessContextIsLlvmpipeGLES3() throws {
        let gl = try gl()
        XCTAssertTrue(gl.renderer.contains("llvmpipe"), gl.renderer)
        XCTAssertTrue(gl.version.hasPrefix("OpenGL ES 3"), gl.version)
        XCTAssertFalse(gl.vendor.isEmpty)
    }

    func testEveryRegisteredShaderCompilesWithTheDriver() throws {
        let gl = try gl()
        XCTAssertNoThrow(try Program(context: gl, vertexShader: PassRegistry.vertexShader,
                                     fragmentShader: PassRegistry.finalShader))
        // Every projection with every effect, composed from the pieces.
        for pass in PassRegistry.all {
            for effect in PassRegistry.effects {
                for sampler in PassRegistry.samplers {
                    let pieces = PassRegistry.pieces(pass: pass, effect: effect, sampler: sampler)
                    XCTAssertNoThrow(try Program(context: gl, vertexShader: PassRegistry.vertexShader, fragmentPieces: pieces),
                                     pieces.joined(separator: "+"))
                }
            }
        }
        // Every transition with every projection; the overlays.
        for transition in PassRegistry.transitions {
            for pass in PassRegistry.all {
                let pieces = PassRegistry.pieces(pass: pass, effect: MosaicEffect.self, transition: transition)
                XCTAssertNoThrow(try Program(context: gl, vertexShader: PassRegistry.vertexShader, fragmentPieces: pieces),
                                 pieces.joined(separator: "+"))
            }
        }
        // The minification pre-pass through every sampling stage.
        for sampler in PassRegistry.samplers {
            let pieces = PassRegistry.minifyPieces(sampler: sampler)
            XCTAssertNoThrow(try Program(context: gl, vertexShader: PassRegistry.vertexShader, fragmentPieces: pieces),
                             pieces.joined(separator: "+"))
        }
        for overlay in [PassRegistry.solidOverlayShader, PassRegistry.textureOverlayShader, PassRegistry.textShader] {
            XCTAssertNoThrow(try Program(context: gl, vertexShader: PassRegistry.vertexShader, fragmentShader: overlay), overlay)
        }
        XCTAssertNoThrow(try Program(context: gl, vertexShader: PassRegistry.textGlyphShaders.vertex,
                                     fragmentShader: PassRegistry.textGlyphShaders.fragment))
    }

    func testEveryShaderPieceIsUsedByTheRegistry() {
        var used: Set<String> = [PassRegistry.vertexShader, PassRegistry.finalShader,
                                 PassRegistry.solidOverlayShader, PassRegistry.textureOverlayShader]
        used.formUnion(PassRegistry.textShaders)
        for transition in PassRegistry.transitions {
            used.formUnion(PassRegistry.pieces(pass: FlatPass.self, effect: NoEffect.self, transition: transition))
        }
        for pass in PassRegistry.all {
            for effect in PassRegistry.effects {
                for sampler in PassRegistry.samplers {
                    used.formUnion(PassRegistry.pieces(pass: pass, effect: effect, sampler: sampler))
                }
            }
        }
        for sampler in PassRegistry.samplers { used.formUnion(PassRegistry.minifyPieces(sampler: sampler)) }
        XCTAssertEqual(used, Set(ShaderLibrary.names), "a shader file in Shaders/ is not reachable from PassRegistry")
    }

    func testComposedShaderErrorNamesThePieces() throws {
        let gl = try gl()
        XCTAssertThrowsError(try Program(context: gl, vertexShader: PassRegistry.vertexShader,
                                         fragmentPieces: [PassRegistry.prelude, "flat.frag", PassRegistry.main])) {
            // No effect piece: kiosk_effect is undefined.
            let text = "\($0)"
            XCTAssertTrue(text.contains("prelude.frag+flat.frag+main.frag"), text)
            XCTAssertFalse(text.contains("\n"), text)
        }
    }

    func testEveryShaderFileIsEmbeddedAndValidByGlslang() throws {
        let dir = RenderTestSupport.shaderDirectory
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            .filter { $0.hasSuffix(".vert") || $0.hasSuffix(".frag") }.sorted()
        XCTAssertEqual(files, ShaderLibrary.names, "Shaders/ and the embedded shaders differ")
        for file in files {
            let onDisk = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
            XCTAssertEqual(try ShaderLibrary.source(named: file), onDisk, "\(file) embedded copy is stale")
        }
        let validator = "/usr/bin/glslangValidator"
        guard FileManager.default.isExecutableFile(atPath: validator) else {
            throw XCTSkip("glslangValidator not installed")
        }
        // Whole shaders on their own; layer pieces as every composed projection + effect program.
        var checked = Set<String>()
        for file in files {
            let source = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
            guard source.hasPrefix("#version"), source.contains("void main") else { continue }
            let stage = file.hasSuffix(".vert") ? "vert" : "frag"
            let result = try RenderTestSupport.run(validator, ["-S", stage, dir.appendingPathComponent(file).path])
            XCTAssertEqual(result.status, 0, "\(file): \(result.output)")
            checked.insert(file)
        }
        let tmp = try RenderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        for pass in PassRegistry.all {
            for effect in PassRegistry.effects {
                for sampler in PassRegistry.samplers {
                    let pieces = PassRegistry.pieces(pass: pass, effect: effect, sampler: sampler)
                    let url = tmp.appendingPathComponent(pieces.joined(separator: "+"))
                    try PassRegistry.composedSource(pass: pass, effect: effect, sampler: sampler)
                        .write(to: url, atomically: true, encoding: .utf8)
                    let result = try RenderTestSupport.run(validator, ["-S", "frag", url.path])
                    XCTAssertEqual(result.status, 0, "\(url.lastPathComponent): \(result.output)")
                    checked.formUnion(pieces)
                }
            }
        }
        for transition in PassRegistry.transitions {
            let pieces = PassRegistry.pieces(pass: FlatPass.self, effect: NoEffect.self, transition: transition)
            let url = tmp.appendingPathComponent(pieces.joined(separator: "+"))
            try PassRegistry.composedSource(pass: FlatPass.self, effect: NoEffect.self, transition: transition)
                .write(to: url, atomically: true, encoding: .utf8)
            let result = try RenderTestSupport.run(validator, ["-S", "frag", url.path])
            XCTAssertEqual(result.status, 0, "\(url.lastPathComponent): \(result.output)")
            checked.formUnion(pieces)
        }
        for sampler in PassRegistry.samplers {
            let pieces = PassRegistry.minifyPieces(sampler: sampler)
            let url = tmp.appendingPathComponent(pieces.joined(separator: "+"))
            try pieces.map { try ShaderLibrary.source(named: $0) }.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
            let result = try RenderTestSupport.run(validator, ["-S", "frag", url.path])
            XCTAssertEqual(result.status, 0, "\(url.lastPathComponent): \(result.output)")
            checked.formUnion(pieces)
        }
        XCTAssertEqual(checked, Set(files), "every shader file is validated alone or as part of a composed program")
    }

    func testMissingShaderErrorNamesTheFile() throws {
        let gl = try gl()
        XCTAssertThrowsError(try Program(context: gl, vertexShader: "fullscreen.vert", fragmentShader: "nope.frag")) {
            let text = "\($0)"
            XCTAssertTrue(text.contains("nope.frag"), text)
            XCTAssertFalse(text.contains("\n"), text)
        }
    }

    func testCompileErrorNamesTheFileAndCarriesTheLog() throws {
        let gl = try gl()
        let vertex = ("fullscreen.vert", try ShaderLibrary.source(named: "fullscreen.vert"))
        let broken = ("broken.frag",
                      "#version 300 es\nprecision highp float;\nout vec4 c;\nvoid main() { c = nope; }\n")
        XCTAssertThrowsError(try Program(context: gl, vertex: vertex, fragment: broken)) {
            let text = "\($0)"
            XCTAssertTrue(text.hasPrefix("compile broken.frag: "), text)
            XCTAssertTrue(text.contains("nope"), text)
            XCTAssertFalse(text.contains("\n"), text)
        }
    }

    func testRenderErrorIsOneLine() {
        let error = RenderError(call: "compile x.frag", reason: "0:3(1): error: a\n0:4(2): error: b\n")
        XCTAssertEqual(error.description, "compile x.frag: 0:3(1): error: a; 0:4(2): error: b")
    }

    func testTextureUpdateReusesStorageAndResizes() throws {
        let gl = try gl()
        let a = RenderTestSupport.noisePicture(size: PixelSize(width: 8, height: 4))
        let texture = try Texture(context: gl, image: a)
        let name = texture.name
        try texture.update(with: RenderTestSupport.noisePicture(size: a.size, seed: 2))
        XCTAssertEqual(texture.name, name)
        try texture.update(with: RenderTestSupport.noisePicture(size: PixelSize(width: 3, height: 5)))
        XCTAssertEqual(texture.size, PixelSize(width: 3, height: 5))
        XCTAssertThrowsError(try Texture(context: gl, image: RGBAImage(size: PixelSize(width: 0, height: 0),
                                                                        pixels: [])))
    }
}
