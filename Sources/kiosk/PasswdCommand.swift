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
            print("usage: kiosk passwd FILE\n\nReads a password on standard input and writes its crypt(3) hash (yescrypt) to FILE (mode 0600),\nfor 'kiosk play --http ADDR:PORT --http-password-file FILE'.")
            return 0
        }
        guard args.count == 1, let file = args.first, !file.hasPrefix("-") else { throw UsageError("passwd: give exactly one FILE") }
        let terminal = isatty(STDIN_FILENO) == 1
        guard let password = Self.read(prompt: terminal ? "Password: " : nil) else { throw UsageError("passwd: no password on standard input") }
        if terminal {
            guard Self.read(prompt: "Again: ") == password else { throw UsageError("passwd: the two passwords differ") }
        }
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

    /// One line from standard input, echo off while a terminal shows `prompt`.
    static func read(prompt: String?) -> String? {
        var saved = termios()
        let terminal = prompt != nil && tcgetattr(STDIN_FILENO, &saved) == 0
        if let prompt { Log.writeStandardError(prompt) }
        if terminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        }
        defer { if terminal { tcsetattr(STDIN_FILENO, TCSANOW, &saved); Log.writeStandardError("\n") } }
        guard let line = readLine(strippingNewline: true) else { return nil }
        return line.isEmpty ? nil : line
    }
}
