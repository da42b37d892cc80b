// Photo Sphere XMP in JPEGs: the GPano projection (attribute and element forms), the half-sphere crop, and the
// probe and snapshot of a marked JPEG with a plain name.
import Foundation
import KioskCore
@testable import KioskMedia
import XCTest

final class MediaXMPProjectionTests: XCTestCase {
    /// A JPEG of `size` with an XMP APP1 segment holding `xmp`, right after SOI.
    static func jpegWithXMP(_ path: String, size: String, xmp: String) throws {
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "mandelbrot=size=\(size):end_pts=1", "-frames:v", "1", "-vf", "gblur=sigma=1.2",
                              "-q:v", "2", path])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let body = Array("http://ns.adobe.com/xap/1.0/\u{0}".utf8) + Array(xmp.utf8)
        let length = body.count + 2
        bytes.insert(contentsOf: [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body, at: 2)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    static let attributes = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:GPano="http://ns.google.com/photos/1.0/panorama/"
         GPano:ProjectionType="equirectangular" GPano:UsePanoramaViewer="True"
         GPano:CroppedAreaImageWidthPixels = "512" GPano:FullPanoWidthPixels="512"/></rdf:RDF></x:xmpmeta>
        """

    /// `body` inside a whole XMP packet, with the GPano prefix bound to `prefix`.
    static func packet(_ body: String, prefix: String = "GPano") -> [UInt8] {
        Array(("JPEG bytes before <?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?>"
               + "<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>"
               + "<rdf:Description rdf:about='' xmlns:\(prefix)='http://ns.google.com/photos/1.0/panorama/'>\(body)"
               + "</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end='w'?> and after").utf8)
    }

    func testGPanoValuesInBothForms() {
        XCTAssertEqual(XMPProjection.metadata(Array(Self.attributes.utf8)), ProjectionMetadata(kind: .equirect, inputFOV: 360))
        let element = "<GPano:ProjectionType>equirectangular</GPano:ProjectionType><GPano:CroppedAreaImageWidthPixels>2048"
            + "</GPano:CroppedAreaImageWidthPixels><GPano:FullPanoWidthPixels>4096</GPano:FullPanoWidthPixels>"
        XCTAssertEqual(XMPProjection.metadata(Self.packet(element)), ProjectionMetadata(kind: .equirect, inputFOV: 180))
        // the namespace is what counts, not the prefix
        XCTAssertEqual(XMPProjection.metadata(Self.packet("<p:ProjectionType>equirectangular</p:ProjectionType>", prefix: "p")),
                       ProjectionMetadata(kind: .equirect, inputFOV: 360))
        XCTAssertEqual(XMPProjection.metadata(Self.packet("<GPano:ProjectionType>cylindrical</GPano:ProjectionType>")),
                       ProjectionMetadata(unsupported: "cylindrical"))
        XCTAssertNil(XMPProjection.metadata(Array("no panorama here GPano:ProjectionType".utf8)))
        XCTAssertNil(XMPProjection.metadata([]))
        // a packet cut off by the end of the head marks nothing (it is not XML), and neither does a GPano name
        // in another namespace
        let whole = Self.packet("<GPano:ProjectionType>equirectangular</GPano:ProjectionType>")
        XCTAssertNil(XMPProjection.metadata(Array(whole.prefix(whole.count - 40))))
        XCTAssertNil(XMPProjection.metadata(Array(("<x:xmpmeta xmlns:x='adobe:ns:meta/' xmlns:GPano='urn:other'>"
                                                   + "<GPano:ProjectionType>equirectangular</GPano:ProjectionType></x:xmpmeta>").utf8)))
    }

    func testMarkedJPEGIsProbedAndShownAsEquirect() throws {
        let dir = try TempDir()
        let jpg = dir.file("IMG_0042.jpg")
        try Self.jpegWithXMP(jpg, size: "512x256", xmp: Self.attributes)
        let info = try MediaFile.probe(jpg)
        XCTAssertEqual(info.projection, ProjectionMetadata(kind: .equirect, inputFOV: 360))
        let item = try MediaFile.decode(jpg, targetSize: { $0 })
        XCTAssertEqual(item.info.projection?.kind, .equirect)
    }
}
