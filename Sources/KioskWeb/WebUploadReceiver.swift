internal import CMicroHTTPD
import Foundation
import Glibc

/// A multipart upload as it comes: libmicrohttpd's post processor splits the body into parts, and a
/// `WebUploadWriter` puts them on disk. Over `limit` bytes in all, everything written is removed.
final class WebUploadReceiver {
    private var processor: OpaquePointer?
    private let limit: Int64
    private var total: Int64 = 0
    let writer: WebUploadWriter
    /// Whether the body went over `limit`.
    private(set) var overLimit = false

    /// A receiver for `connection`'s multipart body; `ready` is false when the body is no multipart form.
    init(connection: OpaquePointer, folder: String, limit: Int64) {
        self.limit = limit
        writer = WebUploadWriter(folder: folder)
        processor = MHD_create_post_processor(connection, 64 * 1024, webUploadPart, Unmanaged.passUnretained(writer).toOpaque())
    }

    var ready: Bool { processor != nil }

    /// The form's other fields.
    var fields: [String: String] { writer.fields }

    /// The next bytes of the body; false when the upload cannot go on (over the limit, a write failed).
    func take(_ bytes: UnsafePointer<CChar>, _ count: Int) -> Bool {
        guard let p = processor, !overLimit else { return false }
        total += Int64(count)
        if total > limit {
            overLimit = true
            return false
        }
        return MHD_post_process(p, bytes, count) == MHD_Result.YES
    }

    /// The body is over: the files written (with the refused ones, each with its reason).
    func finish() -> [UploadedFile] {
        if let p = processor { MHD_destroy_post_processor(p) }
        processor = nil
        return writer.finish()
    }

    /// Removes every temporary file still there (an upload cut short, refused, or not claimed).
    func discard() {
        if let p = processor { MHD_destroy_post_processor(p) }
        processor = nil
        writer.discard()
    }
}

/// An upload's parts put on disk as they come: each file of the field `files` into a hidden temporary file in the
/// media folder (`.kiosk-upload-XXXXXX.EXT`, which the folder watcher ignores), so the folder never shows half a
/// file; the handler then probes it and renames it into place. Other fields are kept as short text. Free of
/// libmicrohttpd, so that its handling of fields is fuzzed (`Kiosk/fuzz.sh web-multipart`).
public final class WebUploadWriter {
    private let folder: String
    private var current: (fd: Int32, file: UploadedFile)?
    private var done: [UploadedFile] = []
    /// The form's other fields (short text, at most `fieldLimit` bytes each), by name.
    public private(set) var fields: [String: String] = [:]
    /// The longest plain field, in bytes (a CSRF token is 64).
    public static let fieldLimit = 4096

    /// A writer into `folder`.
    public init(folder: String) { self.folder = folder }

    /// The files written (with the refused ones, each with its reason).
    public func finish() -> [UploadedFile] {
        closeCurrent()
        return done
    }

    /// Removes every temporary file still there.
    public func discard() {
        closeCurrent()
        for f in done where !f.temporary.isEmpty { unlink(f.temporary) }
    }

    private func closeCurrent() {
        guard let c = current else { return }
        close(c.fd)
        done.append(c.file)
        current = nil
    }

    /// One piece of one part: field `key`, a file's `filename` (nil for a plain field), `size` bytes at `data`,
    /// `offset` bytes into the part. False when the upload cannot go on.
    public func part(key: String, filename: String?, data: UnsafePointer<CChar>?, offset: UInt64, size: Int) -> Bool {
        guard let filename else {
            // a plain field: short text only, however many pieces it comes in; a later piece of a field not kept
            // (over the limit, or past 32 fields) is dropped too
            if offset > 0, fields[key] == nil { return true }
            guard fields[key] != nil || fields.count < 32 else { return true }
            let before = offset == 0 ? [] : Array((fields[key] ?? "").utf8)
            let piece = size <= Self.fieldLimit ? data.map { UnsafeRawBufferPointer(start: $0, count: size) }.map(Array.init) ?? [] : []
            let text = String(decoding: before + piece, as: UTF8.self)  // a bad byte becomes U+FFFD: counted as kept
            guard size <= Self.fieldLimit, text.utf8.count <= Self.fieldLimit else {
                fields[key] = nil
                return true
            }
            fields[key] = text
            return true
        }
        guard key == "files" else { return true }
        if offset == 0 {
            closeCurrent()
            guard done.count < 256 else { return false }
            var file = UploadedFile(name: "", temporary: "", size: 0, refused: nil)
            switch WebUploadName.clean(filename) {
            case .success(let name): file.name = name
            case .failure(let why): file.name = filename; file.refused = why.description
            }
            // the name's extension kept, so the probe reads it as the file it will be
            let ext = String((file.name as NSString).pathExtension.unicodeScalars.filter { $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) }.prefix(8))
            let suffix = ext.isEmpty ? "" : "." + ext
            var template = Array((folder + "/.kiosk-upload-XXXXXX" + suffix).utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { b in b.baseAddress.map { mkstemps($0, Int32(suffix.utf8.count)) } ?? -1 }
            guard fd >= 0 else {
                file.refused = "cannot write into the media folder: \(String(cString: strerror(errno)))"
                done.append(file)
                return false
            }
            fchmod(fd, 0o644)
            file.temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = (fd, file)
        }
        guard var c = current, let data, size > 0 else { return true }
        var left = size, at = data
        while left > 0 {
            let n = write(c.fd, at, left)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                c.file.refused = "writing it failed: \(String(cString: strerror(errno)))"
                current = c
                return false
            }
            left -= n
            at += n
        }
        c.file.size += Int64(size)
        current = c
        return true
    }
}

/// The post processor's iterator: hands each piece to its receiver.
private let webUploadPart: MHD_PostDataIterator = { cls, _, key, filename, _, _, data, offset, size in
    guard let cls, let key else { return MHD_Result.NO }
    let r = Unmanaged<WebUploadWriter>.fromOpaque(cls).takeUnretainedValue()
    return r.part(key: String(cString: key), filename: filename.map { String(cString: $0) }, data: data, offset: offset, size: size)
        ? MHD_Result.YES : MHD_Result.NO
}

/// An uploaded file's name made safe to keep: its last component only (no `/` or `\`), NFC, no control
/// characters, no leading dots, at most 200 bytes (the extension kept).
public enum WebUploadName {
    public static func clean(_ given: String) -> Result<String, WebUploadRefusal> {
        // scalar by scalar, not by Character: a prepended mark (U+070F) or a combining one makes "/" part of a
        // Character that is not "/" (found by fuzzing)
        var last = String.UnicodeScalarView()
        for u in given.unicodeScalars {
            let c = u.properties.generalCategory
            if c == .control || c == .format || c == .lineSeparator || c == .paragraphSeparator { continue }
            if u == "/" || u == "\\" { last = String.UnicodeScalarView() } else { last.append(u) }
        }
        var name = String(last).precomposedStringWithCanonicalMapping
        // no leading dot byte (a hidden file), whatever combining mark follows it
        name = String(String.UnicodeScalarView(name.unicodeScalars.drop(while: { $0 == "." || $0.properties.isWhitespace })))
            .trimmingCharacters(in: .whitespaces)
        if name.utf8.count > 200 {
            // the extension kept when it is one (short); the rest cut, a whole character at a time
            let found = (name as NSString).pathExtension
            let ext = found.utf8.count <= 16 ? found : ""
            var stem = ext.isEmpty ? name : (name as NSString).deletingPathExtension
            while !stem.isEmpty, stem.utf8.count + (ext.isEmpty ? 0 : ext.utf8.count + 1) > 200 { stem.removeLast() }
            name = ext.isEmpty ? stem : stem + "." + ext
            name = name.trimmingCharacters(in: .whitespaces)
        }
        guard !name.isEmpty, name != ".", name != ".." else { return .failure(WebUploadRefusal("'\(given)' leaves no usable file name")) }
        return .success(name)
    }
}

/// Why an uploaded file was refused, in a few words.
public struct WebUploadRefusal: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
