import Foundation

/// The decoders take paths, so each input is written to one scratch file per process (in /dev/shm when there is
/// one, so no disk is touched) and decoded from there.
enum FuzzFile {
    /// The scratch folder of this process.
    private static let folder: String = {
        let base = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let dir = (base as NSString).appendingPathComponent("kiosk-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        folderPath = dir
        atexit { try? FileManager.default.removeItem(atPath: FuzzFile.folderPath) }
        return dir
    }()
    /// The folder's path, for the exit hook (which can't capture).
    nonisolated(unsafe) private static var folderPath = ""

    /// Writes `bytes` to the scratch file named `name` and returns its path.
    static func write(_ bytes: UnsafeBufferPointer<UInt8>, name: String = "input") -> String {
        let path = (folder as NSString).appendingPathComponent(name)
        guard let file = fopen(path, "wb") else {
            FileHandle.standardError.write(Data("kiosk-fuzz: cannot write \(path): \(String(cString: strerror(errno)))\n".utf8))
            exit(1)
        }
        if let base = bytes.baseAddress, bytes.count > 0 { _ = fwrite(base, 1, bytes.count, file) }
        fclose(file)
        return path
    }
}
