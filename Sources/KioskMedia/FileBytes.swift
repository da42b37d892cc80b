import Foundation
import KioskCore

/// Reads parts of a file as bytes, with MediaErrors naming the file.
enum FileBytes {
    /// The file's size in bytes; throws "no such file" / "is a directory".
    static func size(_ path: String) throws -> Int {
        var isDirectory: ObjCBool = false
        guard LocalFile.exists(path, isDirectory: &isDirectory) else {
            throw MediaError(path: path, reason: "no such file")
        }
        if isDirectory.boolValue { throw MediaError(path: path, reason: "is a directory") }
        guard let size = LocalFile.size(path) else {
            throw MediaError(path: path, reason: "cannot read file attributes")
        }
        return size
    }

    /// Up to `count` bytes starting at `offset`.
    static func read(_ path: String, offset: Int = 0, count: Int) throws -> [UInt8] {
        guard let handle = LocalFile.handle(forReading: path) else {
            throw MediaError(path: path, reason: "cannot open for reading")
        }
        defer { try? handle.close() }
        do {
            try handle.seek(toOffset: UInt64(max(0, offset)))
            let data = try handle.read(upToCount: count) ?? Data()
            return [UInt8](data)
        } catch {
            throw MediaError(path: path, reason: "read failed: \(error.localizedDescription)")
        }
    }

    /// Reads exactly `count` bytes from the start of the file into `buffer` (no intermediate copy).
    static func read(_ path: String, into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws {
        guard let file = LocalFile.openStream(path) else {
            throw MediaError(path: path, reason: "cannot open for reading: \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        let got = fread(buffer, 1, count, file)
        guard got == count else {
            throw MediaError(path: path, reason: "read \(got) of \(count) bytes: the file changed while reading")
        }
    }
}
