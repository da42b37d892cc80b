import Foundation
import Glibc
import KioskCore
import KioskWeb

/// `kiosk passwd FILE`: reads a password from standard input (without echo on a terminal, asked twice there) and
/// writes its yescrypt hash (crypt(3), libxcrypt) to FILE, mode 0600, for `--http-password-file`.
struct PasswdCommand {
    let log: Log

    func run(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") {
            print(CommandHelp.passwd.text, terminator: "")
            return 0
        }
        guard args.count == 1, let file = args.first, !file.hasPrefix("-") else { throw UsageError("passwd: give exactly one FILE") }
        let terminal = isatty(STDIN_FILENO) == 1
        guard let typed = Self.read(prompt: terminal ? "Password: " : nil) else { throw UsageError("passwd: no password on standard input") }
        if terminal {
            guard Self.read(prompt: "Again: ") == typed else { throw UsageError("passwd: the two passwords differ") }
        }
        // a NUL first: crypt(3) would stop reading there (1 time in 256, 16 random bytes hashed as the empty password)
        if typed.contains(0) { throw UsageError("passwd: the password holds a NUL byte (crypt(3) would stop reading it there)") }
        guard let password = String(validating: typed, as: UTF8.self) else {
            throw UsageError("passwd: the password is not UTF-8 text (a browser could not send it)")
        }
        if let why = WebPassword.refusal(password) { throw UsageError("passwd: \(why)") }
        guard password.count >= 8 else { throw UsageError("passwd: the password must be at least 8 characters") }
        let hash: String
        do { hash = try WebPassword.hash(password) } catch { log.error("passwd: \(error)"); return 1 }
        let temporary = file + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { log.error("passwd: cannot write \(temporary): \(String(cString: strerror(errno)))"); return 1 }
        let bytes = Array((hash + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, rename(temporary, file) == 0 else {
            unlink(temporary)
            log.error("passwd: cannot write \(file): \(String(cString: strerror(errno)))")
            return 1
        }
        Log.writeStandardError("kiosk: passwd: the hash is in \(file)\n")
        return 0
    }

    /// One line from standard input, echo off while a terminal shows `prompt`: its bytes as they came (a NUL kept,
    /// for the caller to refuse); nil at the end of input or for an empty line.
    static func read(prompt: String?) -> [UInt8]? {
        var saved = termios()
        let terminal = prompt != nil && tcgetattr(STDIN_FILENO, &saved) == 0
        if let prompt { Log.writeStandardError(prompt) }
        if terminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        }
        defer { if terminal { tcsetattr(STDIN_FILENO, TCSANOW, &saved); Log.writeStandardError("\n") } }
        guard var bytes = rawLine(), !bytes.isEmpty else { return nil }
        if bytes.last == 13 { bytes.removeLast() }  // a line typed on Windows
        return bytes.isEmpty ? nil : bytes
    }

    /// One line of standard input without its newline, read byte by byte so nothing past it is taken; nil at once
    /// at the end of input or past 4096 bytes.
    private static func rawLine() -> [UInt8]? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count <= 4096 {
            let n = Glibc.read(STDIN_FILENO, &byte, 1)
            if n < 0, errno == EINTR { continue }
            guard n == 1 else { return line.isEmpty ? nil : line }
            if byte == 10 { return line }
            line.append(byte)
        }
        return nil
    }
}
