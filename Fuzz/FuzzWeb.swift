import Foundation
import KioskCore
import KioskWeb

/// The web page's own request handling under libFuzzer: `web-request` reads an input as a request
/// (`METHOD PATH?QUERY`, header lines, a blank line, the body) and runs it through `WebApp` as the server would;
/// `web-multipart` hands an upload's parts to the writer that puts them on disk; `web-name` cleans an input as an
/// upload's file name.
enum FuzzWeb {
    /// The bearer token a request may carry (the dictionary has it).
    static let token = "fuzz-token-0123456789abcdef"

    final class Sent: @unchecked Sendable {
        var commands = 0
    }
    static let sent = Sent()

    /// A media folder with one file that no anonymous request may remove.
    static let media: String = {
        let dir = NSTemporaryDirectory() + "kiosk-fuzz-web-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dir + "/keep.png", contents: Data([0x89, 0x50, 0x4E, 0x47]))
        return (try? FileManager.default.destinationOfSymbolicLink(atPath: dir)) ?? dir
    }()

    /// Where the multipart target's files go (emptied after each input).
    static let uploads: String = {
        let dir = NSTemporaryDirectory() + "kiosk-fuzz-uploads-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }()

    static let app: WebApp = {
        let sent = Self.sent
        let backend = WebBackend(status: { PlayerStatus() }, command: { _ in sent.commands += 1; return .object([("error", .string("success"))]) },
                                 screenshot: { [0xFF, 0xD8] }, reports: PlayReports(), mediaRoot: media, probe: { _ in nil })
        let hash = (try? WebPassword.hash("correct horse battery")) ?? "$y$invalid"
        return WebApp(backend: backend, security: WebSecurity(passwordHash: hash, token: token, uploadLimit: 1 << 20), log: Log(level: .error))
    }()

    /// What anybody may read: the login page and the static files.
    static let publicPaths: Set<String> = ["/login", "/app.css", "/app.js", "/favicon.svg"]

    /// The request an input describes.
    static func request(_ bytes: UnsafeBufferPointer<UInt8>) -> WebRequest {
        let all = Array(bytes)
        let split = all.firstRange(of: [10, 10]) ?? (all.count..<all.count)
        let head = String(decoding: all[..<split.lowerBound], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let body = Array(all[split.upperBound...])
        let first = head.first.map { $0.split(separator: " ", maxSplits: 1) } ?? []
        let method = first.first.map(String.init) ?? "GET"
        let target = first.count > 1 ? String(first[1]) : "/"
        let pathPart = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            let kv = line.split(separator: ":", maxSplits: 1)
            if kv.count == 2 { headers[kv[0].lowercased()] = kv[1].trimmingCharacters(in: .whitespaces) }
        }
        let query = pathPart.count > 1 ? WebRequest.decodeForm(String(pathPart[1])) : [:]
        return WebRequest(method: method, path: String(pathPart.first ?? "/"), query: query, headers: headers, body: body)
    }

    static let targets: [FuzzTarget] = [
        FuzzTarget(name: "web-request") { bytes in
            let r = request(bytes)
            let before = sent.commands
            let response: WebResponse
            switch app.admit(r) {
            case .respond(let answer): response = answer
            case .body, .upload: response = app.respond(r)
            }
            check((100...599).contains(response.status), "status \(response.status)")
            check(response.header("Content-Type") != nil, "no Content-Type")
            // RFC 6750's credentials: the scheme in any case, spaces or tabs, then exactly the token
            let authorized = r.headers["authorization"].map { value -> Bool in
                guard value.count > 6, value.prefix(6).lowercased() == "bearer" else { return false }
                let rest = value.dropFirst(6)
                guard let first = rest.first, first == " " || first == "\t" else { return false }
                return rest.drop(while: { $0 == " " || $0 == "\t" }) == token[...]
            } ?? false
            if !authorized {
                check(sent.commands == before, "a command ran without authorization: \(r.method) \(r.path)")
                check(FileManager.default.fileExists(atPath: media + "/keep.png"), "a file went without authorization: \(r.method) \(r.path)")
                if !["GET", "HEAD"].contains(r.method) { check(!(200..<300).contains(response.status), "an anonymous \(r.method) \(r.path) succeeded") }
                // nobody may read anything but the login page and the static files: 401, or 303 to the login page;
                // 404 only for a path no route serves (the API, thumbnails and media answer 401 to anybody unknown)
                if ["GET", "HEAD"].contains(r.method), !r.headers.keys.contains("cookie"), !publicPaths.contains(r.path) {
                    let routed = ["/api/", "/thumb/", "/media/"].contains { r.path.hasPrefix($0) }
                    check(response.status == 401 || (response.status == 303 && response.header("Location") == "/login")
                          || (response.status == 404 && !routed),
                          "an anonymous \(r.method) \(r.path) got \(response.status)")
                }
            } else if !FileManager.default.fileExists(atPath: media + "/keep.png") {
                _ = FileManager.default.createFile(atPath: media + "/keep.png", contents: Data([0x89, 0x50, 0x4E, 0x47]))
            }
            for name in (try? FileManager.default.contentsOfDirectory(atPath: media)) ?? [] where name != "keep.png" {
                try? FileManager.default.removeItem(atPath: media + "/" + name)  // captions and playlists a bearer wrote
            }
        },
        // an upload's parts as libmicrohttpd hands them over: each piece is a header byte (bit 0: a file, bit 1: the
        // next piece starts a new part, bits 2-7: the piece's length) and its bytes; a new part's first piece names the
        // field and the file (`key/filename`)
        FuzzTarget(name: "web-multipart") { bytes in
            let folder = uploads
            let writer = WebUploadWriter(folder: folder)
            var i = 0, key = "files", filename: String? = "a.jpg", offset: UInt64 = 0, going = true
            while going, i < bytes.count {
                let h = bytes[i]
                i += 1
                let n = min(Int(h >> 2), bytes.count - i)
                let piece = Array(bytes[i..<(i + n)])
                i += n
                if h & 2 != 0 {  // a new part, named by this piece
                    let words = String(decoding: piece, as: UTF8.self).split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
                    key = words.first.map(String.init) ?? ""
                    filename = h & 1 != 0 ? (words.count > 1 ? String(words[1]) : "") : nil
                    offset = 0
                    continue
                }
                going = piece.withUnsafeBufferPointer { b in
                    b.withMemoryRebound(to: CChar.self) { writer.part(key: key, filename: filename, data: $0.baseAddress, offset: offset, size: n) }
                }
                offset += UInt64(n)
            }
            let files = writer.finish()
            check(writer.fields.count <= 32, "\(writer.fields.count) fields kept")
            for (key, value) in writer.fields {
                check(value.utf8.count <= WebUploadWriter.fieldLimit, "field \(key.debugDescription) kept \(value.utf8.count) bytes")
            }
            for f in files {
                if !f.temporary.isEmpty {
                    check(f.temporary.hasPrefix(folder + "/.kiosk-upload-") && !f.temporary.dropFirst(folder.count + 1).contains("/"),
                          "a temporary file outside the folder: \(f.temporary)")
                }
                if f.refused == nil {
                    check(!f.name.isEmpty && !f.name.utf8.contains(UInt8(ascii: "/")) && f.name.utf8.first != UInt8(ascii: "."),
                          "an unsafe name kept: \(f.name.debugDescription)")
                }
            }
            writer.discard()
            let left = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            check(left.isEmpty, "left behind after discard: \(left)")
        },
        FuzzTarget(name: "web-name") { bytes in
            let given = String(decoding: bytes, as: UTF8.self)
            guard case .success(let name) = WebUploadName.clean(given) else { return }
            // by bytes, as the file system reads the name
            check(!name.isEmpty && !name.utf8.contains(UInt8(ascii: "/")) && !name.utf8.contains(UInt8(ascii: "\\"))
                  && name.utf8.first != UInt8(ascii: "."), "unsafe name \(name.debugDescription)")
            check(name.utf8.count <= 200, "name of \(name.utf8.count) bytes")
            check(!name.unicodeScalars.contains { $0.properties.generalCategory == .control }, "a control character in \(name.debugDescription)")
            check(name == name.precomposedStringWithCanonicalMapping, "not NFC: \(name.debugDescription)")
            check(WebUploadName.clean(name) == .success(name), "cleaning twice changes \(name.debugDescription)")
        },
    ]
}
