import Foundation
import KioskCore
import KioskTrust
import XCTest

/// KioskTrust's minisign checks against Debian's minisign 0.11: keys made and files signed by the real tool
/// (prehashed "ED", minisign's default, and legacy "Ed" with `-l`), and on every case, good or bad, KioskTrust's
/// verdict is the one `minisign -V` gives, with one line naming the file and the reason when it refuses.
final class MinisignTests: XCTestCase {
    /// A content file signed by a fresh key pair, in its own folder.
    private struct Signed {
        let dir: TempDir
        let pair: MinisignTool.KeyPair
        let key: MinisignPublicKey
        let content: String
        let signature: String
        let trustedComment: String?

        /// Whether minisign accepts `signature` (default: this one) for the content with this key.
        func minisignAccepts(_ signature: String? = nil) throws -> Bool {
            try MinisignTool.accepts(content, signature: signature ?? self.signature, publicKey: pair.publicKey)
        }
    }

    /// `count` seeded random bytes signed with a new key: prehashed or legacy, with `comment` as trusted comment.
    private func signed(count: Int = 300_000, legacy: Bool = false, comment: String? = "index.smil version 42") throws -> Signed {
        let dir = try TempDir()
        let pair = try MinisignTool.generate(in: dir, name: "kiosk")
        let content = dir.file("index.smil")
        try Data(Self.seededBytes(count: count, seed: 7)).write(to: URL(fileURLWithPath: content))
        let signature = content + ".minisig"
        try MinisignTool.sign(content, with: pair, into: signature, legacy: legacy, trustedComment: comment)
        return Signed(dir: dir, pair: pair, key: try MinisignPublicKey(file: pair.publicKey), content: content,
                      signature: signature, trustedComment: comment)
    }

    static func seededBytes(count: Int, seed: UInt64) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 8)
        while bytes.count < count { withUnsafeBytes(of: generator.next()) { bytes.append(contentsOf: $0) } }
        return Array(bytes.prefix(count))
    }

    /// The lines of a text file.
    private func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The decoded base64 line `index` of `path`.
    private func decodedLine(_ path: String, _ index: Int) throws -> [UInt8] {
        [UInt8](try XCTUnwrap(Data(base64Encoded: try lines(path)[index]), "line \(index + 1) of \(path)"))
    }

    /// Asserts `verify` refuses with a TrustError naming `file` whose reason contains `says`.
    private func assertRefused(_ verify: () throws(TrustError) -> String, file: String, says: String,
                               line: UInt = #line) {
        do {
            let comment = try verify()
            XCTFail("accepted, trusted comment \(comment); expected '\(says)'", line: line)
        } catch {
            XCTAssertEqual(error.file, file, "\(error)", line: line)
            XCTAssertTrue(error.reason.contains(says), "\(error) should say '\(says)'", line: line)
            XCTAssertFalse("\(error)".contains("\n"), "one line: \(error)", line: line)
        }
    }

    func testPrehashedSignatureVerifiesWithItsTrustedComment() throws {
        let s = try signed()
        XCTAssertEqual(Array(try decodedLine(s.signature, 1).prefix(2)), Array("ED".utf8), "minisign's default is prehashed")
        XCTAssertTrue(try s.minisignAccepts())
        XCTAssertEqual(try Minisign.verify(file: s.content, signatureFile: s.signature, key: s.key), s.trustedComment)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: s.content)))
        let text = try String(contentsOfFile: s.signature, encoding: .utf8)
        XCTAssertEqual(try Minisign.verify(bytes: bytes, signature: text, key: s.key, name: "index"), s.trustedComment)
        // an empty file signs and checks too
        let empty = s.dir.file("empty")
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
        try MinisignTool.sign(empty, with: s.pair, into: empty + ".minisig", trustedComment: "nothing")
        XCTAssertEqual(try Minisign.verify(file: empty, signatureFile: empty + ".minisig", key: s.key), "nothing")
        XCTAssertEqual(try Minisign.verify(bytes: [], signature: try String(contentsOfFile: empty + ".minisig", encoding: .utf8),
                                           key: s.key, name: "empty"), "nothing")
    }

    func testLegacySignatureVerifiesWithMinisignsDefaultComment() throws {
        let s = try signed(legacy: true, comment: nil)
        XCTAssertEqual(Array(try decodedLine(s.signature, 1).prefix(2)), Array("Ed".utf8), "-l signs the file itself")
        XCTAssertTrue(try s.minisignAccepts())
        let comment = try Minisign.verify(file: s.content, signatureFile: s.signature, key: s.key)
        XCTAssertTrue(comment.hasPrefix("timestamp:") && comment.contains("file:index.smil"), comment)
        XCTAssertEqual("trusted comment: " + comment, try lines(s.signature)[2])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: s.content)))
        XCTAssertEqual(try Minisign.verify(bytes: bytes, signature: try String(contentsOfFile: s.signature, encoding: .utf8),
                                           key: s.key, name: "index"), comment)
    }

    /// A key id whose last stored byte is zero prints without leading zeros, as minisign's `%PRIX64` does: a CI run
    /// met such a key (1 in 256 of minisign's random keys), which minisign named `FDF43ED62B9ABF`.
    func testAKeyIDWithALeadingZeroPrintsAsMinisignPrintsIt() throws {
        let key = try MinisignPublicKey(text: "RWS/mivWPvT9AAABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4f", name: "-P")
        XCTAssertEqual(key.keyID, [0xBF, 0x9A, 0x2B, 0xD6, 0x3E, 0xF4, 0xFD, 0x00])
        XCTAssertEqual(key.keyIDHex, "FDF43ED62B9ABF")
    }

    func testPublicKeyReadsAsMinisignPrintsIt() throws {
        let s = try signed(count: 10)
        let text = try String(contentsOfFile: s.pair.publicKey, encoding: .utf8)
        let fileLines = try lines(s.pair.publicKey)
        XCTAssertEqual(fileLines[0], "untrusted comment: minisign public key \(s.key.keyIDHex)")
        XCTAssertEqual(s.key.keyID.count, 8)
        XCTAssertEqual(s.key.keyID, Array(try decodedLine(s.pair.publicKey, 1)[2..<10]))
        XCTAssertEqual(try MinisignPublicKey(text: fileLines[1], name: "-P"), s.key, "the bare line, as minisign -P takes it")
        XCTAssertEqual(try MinisignPublicKey(text: text, name: "text"), s.key)
        XCTAssertEqual(try MinisignPublicKey(text: text.replacingOccurrences(of: "\n", with: "\r\n"), name: "crlf"), s.key)
        let other = try MinisignPublicKey(file: try MinisignTool.generate(in: s.dir, name: "other").publicKey)
        XCTAssertNotEqual(other, s.key)
        XCTAssertNotEqual(other.keyIDHex, s.key.keyIDHex)
    }

    func testTamperedFileIsRefusedAsMinisignRefusesIt() throws {
        for legacy in [false, true] {
            let s = try signed(legacy: legacy)
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: s.content)))
            bytes[bytes.count / 2] ^= 0x01
            try Data(bytes).write(to: URL(fileURLWithPath: s.content))
            XCTAssertFalse(try s.minisignAccepts(), "legacy \(legacy)")
            assertRefused({ () throws(TrustError) in try Minisign.verify(file: s.content, signatureFile: s.signature, key: s.key) },
                          file: s.content, says: "does not match the file (changed or forged)")
            let text = try String(contentsOfFile: s.signature, encoding: .utf8)
            assertRefused({ () throws(TrustError) in try Minisign.verify(bytes: bytes, signature: text, key: s.key, name: "index") },
                          file: "index", says: "the signature does not match the file (changed or forged)")
        }
    }

    func testSignatureByAnotherKeyIsRefusedAsMinisignRefusesIt() throws {
        let s = try signed()
        let other = try MinisignTool.generate(in: s.dir, name: "other")
        let otherKey = try MinisignPublicKey(file: other.publicKey)
        let byOther = s.dir.file("by-other.minisig")
        try MinisignTool.sign(s.content, with: other, into: byOther, trustedComment: "index.smil version 42")
        XCTAssertFalse(try s.minisignAccepts(byOther))
        assertRefused({ () throws(TrustError) in try Minisign.verify(file: s.content, signatureFile: byOther, key: s.key) },
                      file: byOther, says: "signed by key \(otherKey.keyIDHex), not by the configured key \(s.key.keyIDHex)")
        // the other key's signature passed off as ours: our key id written into it
        var forgedLines = try lines(byOther)
        let decoded = try decodedLine(byOther, 1)
        forgedLines[1] = Data(Array(decoded[0..<2]) + s.key.keyID + Array(decoded[10...])).base64EncodedString()
        let forged = s.dir.file("forged.minisig")
        try forgedLines.joined(separator: "\n").write(toFile: forged, atomically: true, encoding: .utf8)
        XCTAssertFalse(try s.minisignAccepts(forged))
        assertRefused({ () throws(TrustError) in try Minisign.verify(file: s.content, signatureFile: forged, key: s.key) },
                      file: s.content, says: "the signature in \(forged) does not match the file (changed or forged)")
    }

    func testTrustedCommentIsBoundButTheUntrustedOneIsNot() throws {
        let s = try signed()
        var edited = try lines(s.signature)
        edited[2] = "trusted comment: index.smil version 43"
        let tampered = s.dir.file("tampered.minisig")
        try edited.joined(separator: "\n").write(toFile: tampered, atomically: true, encoding: .utf8)
        XCTAssertFalse(try s.minisignAccepts(tampered))
        assertRefused({ () throws(TrustError) in try Minisign.verify(file: s.content, signatureFile: tampered, key: s.key) },
                      file: tampered, says: "the trusted comment was changed")
        // the untrusted comment is free to change, for minisign and for kiosk
        edited = try lines(s.signature)
        edited[0] = "untrusted comment: anything at all"
        let relabelled = s.dir.file("relabelled.minisig")
        try edited.joined(separator: "\n").write(toFile: relabelled, atomically: true, encoding: .utf8)
        XCTAssertTrue(try s.minisignAccepts(relabelled))
        XCTAssertEqual(try Minisign.verify(file: s.content, signatureFile: relabelled, key: s.key), s.trustedComment)
        // CRLF line ends read the same, for both
        let crlf = s.dir.file("crlf.minisig")
        try (try lines(s.signature)).joined(separator: "\r\n").write(toFile: crlf, atomically: true, encoding: .utf8)
        XCTAssertTrue(try s.minisignAccepts(crlf))
        XCTAssertEqual(try Minisign.verify(file: s.content, signatureFile: crlf, key: s.key), s.trustedComment)
    }

    func testTruncatedGarbageAndOversizedSignaturesAreRefusedAsMinisignRefusesThem() throws {
        let s = try signed()
        let good = try lines(s.signature)
        let signatureLine = try decodedLine(s.signature, 1)
        let relined = { (index: Int, bytes: [UInt8]) -> [UInt8] in
            var copy = good
            copy[index] = Data(bytes).base64EncodedString()
            return Array(copy.joined(separator: "\n").utf8)
        }
        let cases: [(name: String, bytes: [UInt8], says: String)] = [
            ("empty", [], "does not start with 'untrusted comment: '"),
            ("garbage", Self.seededBytes(count: 500, seed: 99), "not a minisign signature"),
            ("one line", Array((good[0] + "\n").utf8), "no signature line after the untrusted comment"),
            ("cut in the signature line", Array((good[0] + "\n" + good[1].prefix(50)).utf8), "the signature line is not base64"),
            ("no trusted comment", Array(good[0...1].joined(separator: "\n").utf8), "no 'trusted comment: ' line"),
            ("three lines", Array(good[0...2].joined(separator: "\n").utf8), "no global signature line"),
            ("not base64", Array(([good[0], "RU!!" + good[1].dropFirst(4)] + good[2...]).joined(separator: "\n").utf8),
             "the signature line is not base64"),
            ("73 bytes", relined(1, Array(signatureLine.dropLast())), "holds 73 bytes, not the 74"),
            ("algorithm EX", relined(1, Array("EX".utf8) + signatureLine.dropFirst(2)), "algorithm 'EX' is neither 'Ed'"),
            ("no trusted comment prefix", Array(([good[0], good[1], "comment: x"] + good[3...]).joined(separator: "\n").utf8),
             "the third line does not start with 'trusted comment: '"),
            ("short global signature", relined(3, Array(try decodedLine(s.signature, 3).prefix(60))), "holds 60 bytes, not the 64"),
            ("oversized", Array(("untrusted comment: " + String(repeating: "x", count: 17_000) + "\n"
                                 + good[1...].joined(separator: "\n")).utf8), "larger than 16384 bytes"),
        ]
        for (index, c) in cases.enumerated() {
            let path = s.dir.file("case\(index).minisig")
            try Data(c.bytes).write(to: URL(fileURLWithPath: path))
            XCTAssertFalse(try s.minisignAccepts(path), c.name)
            assertRefused({ () throws(TrustError) in try Minisign.verify(file: s.content, signatureFile: path, key: s.key) },
                          file: path, says: c.says)
            if let text = String(validating: c.bytes, as: UTF8.self) {
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: s.content)))
                assertRefused({ () throws(TrustError) in try Minisign.verify(bytes: bytes, signature: text, key: s.key, name: c.name) },
                              file: c.name, says: c.says)
            }
        }
        // files that are not there, or not files
        assertRefused({ () throws(TrustError) in try Minisign.verify(file: s.content, signatureFile: s.dir.file("none"), key: s.key) },
                      file: s.dir.file("none"), says: "cannot open: No such file or directory")
        assertRefused({ () throws(TrustError) in try Minisign.verify(file: s.content, signatureFile: s.dir.path, key: s.key) },
                      file: s.dir.path, says: "not a regular file")
        try FileManager.default.removeItem(atPath: s.content)
        assertRefused({ () throws(TrustError) in try Minisign.verify(file: s.content, signatureFile: s.signature, key: s.key) },
                      file: s.content, says: "cannot open: No such file or directory")
    }

    func testMalformedPublicKeysAreRefused() throws {
        let dir = try TempDir()
        let pair = try MinisignTool.generate(in: dir, name: "kiosk")
        let line = try lines(pair.publicKey)[1]
        let decoded = [UInt8](try XCTUnwrap(Data(base64Encoded: line)))
        let cases: [(name: String, text: String, says: String)] = [
            ("empty", "\n\n", "no minisign public key in it (empty)"),
            ("comment only", "untrusted comment: minisign public key 0\n", "no key line after the 'untrusted comment:' line"),
            ("not base64", "untrusted comment: x\nRWQ*" + line.dropFirst(4), "the key line is not base64"),
            ("41 bytes", Data(decoded.dropLast()).base64EncodedString(), "holds 41 bytes, not the 42"),
            ("algorithm ED", Data(Array("ED".utf8) + decoded.dropFirst(2)).base64EncodedString(), "key algorithm 'ED' is not"),
            ("algorithm 0x0001", Data([0, 1] + decoded.dropFirst(2)).base64EncodedString(), "key algorithm 0x0001 is not"),
        ]
        for c in cases {
            XCTAssertThrowsError(try MinisignPublicKey(text: c.text, name: c.name), c.name) { error in
                let refusal = error as? TrustError
                XCTAssertEqual(refusal?.file, c.name, "\(error)")
                XCTAssertTrue(refusal?.reason.contains(c.says) == true, "\(error) should say '\(c.says)'")
            }
        }
        let big = dir.file("big.pub")
        try (String(repeating: "untrusted comment: padding\n", count: 200) + line).write(toFile: big, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try MinisignPublicKey(file: big)) { XCTAssertTrue("\($0)".contains("larger than 4096 bytes"), "\($0)") }
        XCTAssertThrowsError(try MinisignPublicKey(file: dir.file("none.pub"))) {
            XCTAssertEqual("\($0)", dir.file("none.pub") + ": cannot open: No such file or directory")
        }
    }

    /// A legacy signature covers the bytes themselves, so kiosk refuses to read a huge file whole for one; the same
    /// file signed prehashed (streamed) verifies. The file is sparse: no 64 MiB written to disk.
    func testLegacySignatureOverAHugeFileIsRefusedButPrehashedStreams() throws {
        let s = try signed(count: 10)
        let huge = s.dir.file("huge.bin")
        XCTAssertTrue(FileManager.default.createFile(atPath: huge, contents: Data()))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
        try handle.truncate(atOffset: UInt64(Minisign.legacyFileLimit + 1))
        try handle.close()
        try MinisignTool.sign(huge, with: s.pair, into: huge + ".legacy", legacy: true, trustedComment: "huge")
        assertRefused({ () throws(TrustError) in try Minisign.verify(file: huge, signatureFile: huge + ".legacy", key: s.key) },
                      file: huge, says: "larger than \(Minisign.legacyFileLimit) bytes, too big for a legacy ('Ed') minisign signature")
        try MinisignTool.sign(huge, with: s.pair, into: huge + ".minisig", trustedComment: "huge, prehashed")
        XCTAssertTrue(try MinisignTool.accepts(huge, signature: huge + ".minisig", publicKey: s.pair.publicKey))
        XCTAssertEqual(try Minisign.verify(file: huge, signatureFile: huge + ".minisig", key: s.key), "huge, prehashed")
    }
}
