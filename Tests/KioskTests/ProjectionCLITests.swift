// Projections through the `kiosk` binary: snapshot against v360, probe's projection fields from names, flags and
// stream metadata (Matroska StereoMode and Projection), the slideshow's yaw pan, and bad --effect specs.
import Foundation
import KioskCore
import XCTest

final class ProjectionCLITests: XCTestCase {
    /// Runs the built `kiosk` binary and decodes its PNGs (the helpers CLITests uses).
    struct Runner {
        /// Runs kiosk with `args` (software GL), bounded in time.
        func kiosk(_ args: [String], timeout: Double = 120) throws -> CLITests.Run {
            try CLITests.run(args, timeout: timeout)
        }

        /// Decodes a PNG with ffmpeg into RGBA.
        func load(_ png: String, _ size: PixelSize) throws -> RGBAImage {
            let data = try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", png, "-pix_fmt", "rgba", "-f", "rawvideo", "-"])
            return RGBAImage(size: size, pixels: [UInt8](data))
        }
    }

    let cli = Runner()

    func mandelbrot(_ dir: TempDir, _ name: String, size: String) throws -> String {
        let path = dir.file(name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "mandelbrot=size=\(size):end_pts=1", "-frames:v", "1", "-vf", "gblur=sigma=1.2", path])
        return path
    }

    func testSnapshotMatchesV360ThroughTheBinary() throws {
        let dir = try TempDir()
        let eq = try mandelbrot(dir, "eq.png", size: "512x256")
        let out = dir.file("view.png")
        let r = try cli.kiosk(["snapshot", eq, "--projection", "equirect", "--input-fov", "360", "--yaw", "-60", "--pitch", "25",
                               "--roll", "-15", "--fov", "110x80", "--size", "160x120", "--output", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        let size = PixelSize(width: 160, height: 120)
        let ref = try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", eq, "-vf",
                                               "format=gbrp,v360=input=e:output=flat:yaw=-60:pitch=25:roll=-15:h_fov=110:v_fov=80:w=160:h=120:interp=linear,format=rgba",
                                               "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        let db = ImageCompare.psnrRGB(try cli.load(out, size).pixels, [UInt8](ref))
        XCTAssertGreaterThanOrEqual(db, 35, "\(db) dB")
    }

    func probe(_ args: [String]) throws -> [[String: Any]] {
        let r = try cli.kiosk(["probe"] + args)
        XCTAssertEqual(r.status, 0, r.stderr)
        return try r.stdout.split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    func fields(_ o: [String: Any]) -> String {
        "\(o["projection"] ?? "-") \(o["stereo"] ?? "-") \(o["input_fov"].map { "\($0)" } ?? "-") \(o["source"] ?? "-")"
    }

    func testProbeReportsProjectionFromNameFlagsAndMetadata() throws {
        let dir = try TempDir()
        let plain = try mandelbrot(dir, "plain.png", size: "64x32")
        let named = dir.file("pano_180_sbs.png")
        try FileManager.default.copyItem(atPath: plain, toPath: named)
        let fish = dir.file("dome_fisheye210.png")
        try FileManager.default.copyItem(atPath: plain, toPath: fish)
        let objs = try probe([plain, named, fish])
        XCTAssertEqual(objs.map(fields), ["flat mono <null> none", "equirect sbs 180 name", "fisheye mono 210 name"])
        // The existing fields stay, in order, before the new ones.
        let line = try cli.kiosk(["probe", plain]).stdout
        XCTAssertFalse(line.isEmpty)
        XCTAssertTrue(line.contains("\"orientation\":1,\"projection\":\"flat\",\"stereo\":\"mono\",\"input_fov\":null,\"source\":\"none\"}"), line)
        XCTAssertEqual(try probe([named, "--stereo", "tb", "--eye", "right"]).map(fields), ["equirect tb 180 override"])
        XCTAssertEqual(try probe([plain, "--input-fov", "360"]).map(fields), ["equirect mono 360 override"])

        // Matroska StereoMode, as ffmpeg writes it, comes back as stereo 3D side data.
        for (mode, stereo) in [("left_right", "sbs"), ("top_bottom", "tb")] {
            let mkv = dir.file("\(mode).mkv")
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=128x64:rate=5", "-t", "0.4", "-c:v", "mpeg4",
                                  "-metadata:s:v", "stereo_mode=\(mode)", mkv])
            XCTAssertEqual(try probe([mkv]).map(fields), ["flat \(stereo) <null> metadata"])
        }
        // ffmpeg 5.1's CLI cannot set a spherical projection, so a Matroska Projection element is put in by hand:
        // the DisplayWidth + DisplayHeight elements become Projection { ProjectionType } of the same byte length.
        // (A cubemap needs ProjectionPrivate data too; its "unsupported" path is covered by CoreProjectionTests.)
        for (type, expected) in [(UInt8(1), "equirect sbs 360 metadata")] {
            let mkv = dir.file("sphere\(type).mkv")
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=128x64:rate=5", "-t", "0.4", "-c:v", "mpeg4",
                                  "-aspect", "4:1", "-metadata:s:v", "stereo_mode=left_right", mkv])
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: mkv)))
            // An element with a one-byte size field: ID (2 bytes), 0x80|n, n bytes of value.
            func element(_ at: Int, _ id: [UInt8]) -> Int? {
                guard at + 3 <= bytes.count, Array(bytes[at..<(at + 2)]) == id, bytes[at + 2] & 0xF8 == 0x80 else { return nil }
                return 3 + Int(bytes[at + 2] & 0x07)
            }
            let at = try XCTUnwrap((0..<(bytes.count - 8)).first {
                guard let w = element($0, [0x54, 0xB0]) else { return false }
                return element($0 + w, [0x54, 0xBA]) != nil
            }, "DisplayWidth/DisplayHeight not found in ffmpeg's Matroska output")
            let length = (element(at, [0x54, 0xB0]) ?? 0) + (element(at + (element(at, [0x54, 0xB0]) ?? 0), [0x54, 0xBA]) ?? 0)
            // Projection (0x7670) holding ProjectionType (0x7671, size 1, value); its size field pads to `length`.
            let width = length - 6
            XCTAssertTrue((1...4).contains(width), "\(length) bytes to replace")
            let sizeField = (0..<width).reversed().map { UInt8(truncatingIfNeeded: ((1 << (7 * width)) | 4) >> (8 * $0)) }
            bytes.replaceSubrange(at..<(at + length), with: [0x76, 0x70] + sizeField + [0x76, 0x71, 0x81, type])
            try Data(bytes).write(to: URL(fileURLWithPath: mkv))
            XCTAssertEqual(try probe([mkv]).map(fields), [expected])
            // MP4 carries the same metadata (sv3d, st3d) when copied with -strict unofficial.
            if type == 1 {
                let mp4 = dir.file("sphere.mp4")
                try FFmpegCLI.ffmpeg(["-i", mkv, "-c", "copy", "-strict", "unofficial", mp4])
                XCTAssertEqual(try probe([mp4]).map(fields), ["equirect sbs 360 metadata"])
                // An explicit flag still wins.
                XCTAssertEqual(try probe([mp4, "--projection", "flat"]).map(fields), ["flat sbs <null> override"])
            }
        }
    }

    func testSlideshowPansTheYawOfA360Item() throws {
        let dir = try TempDir()
        let eq = try mandelbrot(dir, "pano_360.png", size: "512x256")
        let y4m = dir.file("pan.y4m")
        let r = try cli.kiosk(["record", eq, "--output", y4m, "--size", "160x120", "--fps", "2", "--duration", "2",
                               "--no-loop", "--transition", "none", "--pan-speed", "30", "--yaw", "-170", "--fov", "90"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let size = PixelSize(width: 160, height: 120)
        func frame(_ n: Int) throws -> [UInt8] {
            [UInt8](try FFmpegCLI.run("ffmpeg", ["-v", "error", "-i", y4m, "-vf", "select=eq(n\\,\(n))", "-frames:v", "1",
                                                "-pix_fmt", "rgba", "-f", "rawvideo", "-"]))
        }
        // Frame 3 is t = 1.5 s: yaw -170 + 45 = -125. The start view is -170; pans cross the ±180 seam smoothly.
        for (n, yaw) in [(0, -170.0), (3, -125.0)] {
            let png = dir.file("yaw\(n).png")
            let s = try cli.kiosk(["snapshot", eq, "--yaw", "\(yaw)", "--fov", "90", "--size", "160x120", "--output", png])
            XCTAssertEqual(s.status, 0, s.stderr)
            let db = ImageCompare.psnrRGB(try frame(n), try cli.load(png, size).pixels)
            XCTAssertGreaterThanOrEqual(db, 30, "frame \(n) against the snapshot at yaw \(yaw): \(db) dB (4:2:0 video)")
        }
        XCTAssertLessThan(ImageCompare.psnrRGB(try frame(0), try frame(3)), 25, "the view moved")
        let still = dir.file("still.y4m")
        XCTAssertEqual(try cli.kiosk(["record", eq, "--output", still, "--size", "160x120", "--fps", "2", "--duration", "2",
                                      "--no-loop", "--transition", "none", "--pan-speed", "0"]).status, 0)
        let a = [UInt8](try FFmpegCLI.run("ffmpeg", ["-v", "error", "-i", still, "-vf", "select=eq(n\\,0)", "-frames:v", "1", "-f", "rawvideo", "-"]))
        let b = [UInt8](try FFmpegCLI.run("ffmpeg", ["-v", "error", "-i", still, "-vf", "select=eq(n\\,3)", "-frames:v", "1", "-f", "rawvideo", "-"]))
        XCTAssertEqual(a, b, "--pan-speed 0 keeps the view still")
    }

    func testPhotoSphereJPEGIsShownAsEquirectAtFullSize() throws {
        let dir = try TempDir()
        let jpg = dir.file("IMG_0042.jpg")
        try MediaXMPProjectionTests.jpegWithXMP(jpg, size: "512x256", xmp: MediaXMPProjectionTests.attributes)
        XCTAssertEqual(try probe([jpg]).map(fields), ["equirect mono 360 metadata"])
        // The view is drawn from the whole picture (not one decoded down to the 160x120 canvas): like v360's.
        let out = dir.file("v.png")
        let r = try cli.kiosk(["snapshot", jpg, "--yaw", "45", "--pitch", "-10", "--fov", "60x45", "--size", "160x120", "--output", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        let ref = try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", jpg, "-vf",
                                               "format=gbrp,v360=input=e:output=flat:yaw=45:pitch=-10:h_fov=60:v_fov=45:w=160:h=120:interp=linear,format=rgba",
                                               "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        let db = ImageCompare.psnrRGB(try cli.load(out, PixelSize(width: 160, height: 120)).pixels, [UInt8](ref))
        XCTAssertGreaterThanOrEqual(db, 35, "\(db) dB")
    }

    func testPlaylistKioskLineSetsTheItemsProjectionAndView() throws {
        let dir = try TempDir()
        let eq = try mandelbrot(dir, "plain.png", size: "512x256")
        let m3u = dir.file("list.m3u")
        try "#EXTM3U\n#EXTKIOSK:projection=equirect,yaw=90,pitch=-20,fov=80x60\nplain.png\n"
            .write(toFile: m3u, atomically: true, encoding: .utf8)
        let y4m = dir.file("o.y4m")
        let r = try cli.kiosk(["record", m3u, "--output", y4m, "--size", "160x120", "--fps", "2", "--duration", "1",
                               "--no-loop", "--transition", "none", "--pan-speed", "0"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let png = dir.file("s.png")
        XCTAssertEqual(try cli.kiosk(["snapshot", eq, "--projection", "equirect", "--yaw", "90", "--pitch", "-20", "--fov", "80x60",
                                      "--size", "160x120", "--output", png]).status, 0)
        let frame = [UInt8](try FFmpegCLI.run("ffmpeg", ["-v", "error", "-i", y4m, "-frames:v", "1", "-pix_fmt", "rgba", "-f", "rawvideo", "-"]))
        let db = ImageCompare.psnrRGB(frame, try cli.load(png, PixelSize(width: 160, height: 120)).pixels)
        XCTAssertGreaterThanOrEqual(db, 30, "\(db) dB (4:2:0 video)")
    }

    func testBadEffectSpecExitsTwoNamingTheFlag() throws {
        let dir = try TempDir()
        let png = try mandelbrot(dir, "p.png", size: "32x32")
        for command in [["snapshot", png, "--output", dir.file("o.png")], ["record", png, "--output", dir.file("o.mp4")],
                        ["play", png, "--length", "0.1"]] {
            for bad in ["mosaic:tile=0", "sparkle", "mosaic:split=x"] {
                let r = try cli.kiosk(command + ["--effect", bad])
                XCTAssertEqual(r.status, 2, "\(command[0]) --effect \(bad)")
                XCTAssertTrue(r.stderr.contains("--effect"), r.stderr)
                XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            }
        }
        let ok = try cli.kiosk(["snapshot", png, "--effect", "mosaic:tile=8:split=0.5", "--size", "32x32", "--output", dir.file("m.png")])
        XCTAssertEqual(ok.status, 0, ok.stderr)
    }
}
