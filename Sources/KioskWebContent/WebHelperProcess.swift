internal import CKioskFDShim
import Glibc
import KioskCore

/// The player's side of one page: starts `kiosk-web-helper` as a child in its own process group (so ending it ends
/// WebKit's web and network processes too), reads its frames and events from their socket, and kills the group when
/// done. The page is checked before anything starts.
public final class WebHelperProcess {
    /// The page shown.
    public let location: WebPageLocation
    /// The navigations the page tried and the helper refused, as they came.
    public private(set) var refusedNavigations: [String] = []
    /// Whether the page has called `kiosk.done()`.
    public private(set) var pageDone = false
    /// Seconds from starting the helper to the first frame that shows the loaded page (nil until then).
    public private(set) var firstPaintSeconds: Double?
    private let startedAt = MonotonicClock.seconds()
    private let pid: pid_t
    private let socket: Int32
    private var running = true

    /// Starts `executable --fd 3 --size WxH PAGE` (the `kiosk-web-helper` program) for the page at `page`. The helper's standard error is
    /// dropped (WebKit's own chatter) unless `KIOSK_WEB_HELPER_LOG` is set.
    public init(page: String, size: PixelSize, executable: String) throws(WebContentError) {
        location = try WebPageLocation(path: page)
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw .helperNotStarted(reason: "socketpair: \(String(cString: strerror(errno)))")
        }
        defer { close(pair[1]) }
        let arguments = [executable, "--fd", "3", "--size", "\(size.width)x\(size.height)", location.path]
        var child: pid_t = 0
        let status = Self.spawn(arguments, childSocket: pair[1], pid: &child)
        guard status == 0 else {
            close(pair[0])
            throw .helperNotStarted(reason: "\(executable): \(String(cString: strerror(status)))")
        }
        pid = child
        socket = pair[0]
    }

    deinit { stop() }

    /// `kiosk-web-helper` beside the running program (/proc/self/exe), where the build and the package put it.
    public static func siblingExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let own = count > 0 ? buffer.withUnsafeBufferPointer { String(decoding: $0.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self) }
                            : CommandLine.arguments[0]
        let folder = own.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return (folder.isEmpty ? "." : folder) + "/kiosk-web-helper"
    }

    /// Waits at most `timeout` seconds for the first frame painted after the page finished loading, then keeps
    /// taking newer frames for `settle` seconds (a page's late paints) and returns the newest.
    public func paintedFrame(timeout: Double, settle: Double = 0) throws(WebContentError) -> RGBAImage {
        let start = MonotonicClock.seconds()
        var painted: RGBAImage?
        var settled = start + timeout
        while true {
            let now = MonotonicClock.seconds()
            let end = painted == nil ? start + timeout : settled
            guard now < end else {
                if let painted { return painted }
                throw .notPainted(page: location.path, seconds: timeout)
            }
            var watch = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watch, 1, Int32(Int(saturating: max(1, min(1000, (end - now) * 1000)))))
            if ready < 0, errno != EINTR { throw .helperEnded(page: location.path, reason: "poll: \(String(cString: strerror(errno)))") }
            guard ready > 0 else { continue }
            guard let (message, fd) = try receive() else {
                if let painted { return painted }
                throw .helperEnded(page: location.path, reason: reap())
            }
            defer { if fd >= 0 { close(fd) } }
            switch message {
            case .frame(let header):
                guard header.loaded, fd >= 0, let image = Self.map(fd, header: header) else { continue }
                if painted == nil {
                    settled = min(MonotonicClock.seconds() + settle, start + timeout + settle)
                    firstPaintSeconds = MonotonicClock.seconds() - startedAt
                }
                painted = image
                if settle <= 0 { return image }
            case .loadFailed(let reason): throw .loadFailed(page: location.path, reason: reason)
            case .webProcessEnded(let reason), .helperFailed(let reason): throw .helperEnded(page: location.path, reason: reason)
            case .navigationRefused(let uri): refusedNavigations.append(uri)
            case .done: pageDone = true
            case .loaded: continue
            }
        }
    }

    /// Kills the helper's process group (the helper, its web and network processes) and reaps the helper.
    public func stop() {
        guard running else { return }
        running = false
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        close(socket)
    }

    /// One message and its descriptor (-1 when none), or nil at the socket's end.
    private func receive() throws(WebContentError) -> (WebHelperMessage, Int32)? {
        var buffer = [UInt8](repeating: 0, count: WebHelperMessage.maximumSize)
        var fd: Int32 = -1
        let count = buffer.withUnsafeMutableBytes { kiosk_web_receive(socket, $0.baseAddress, $0.count, &fd) }
        if count == 0 { return nil }
        guard count > 0 else {
            if errno == ECONNRESET { return nil }
            throw .helperEnded(page: location.path, reason: "reading its socket: \(String(cString: strerror(errno)))")
        }
        guard let message = WebHelperMessage(bytes: Array(buffer.prefix(count))) else {
            if fd >= 0 { close(fd) }
            throw .helperEnded(page: location.path, reason: "it sent a message that is not one (\(count) bytes)")
        }
        return (message, fd)
    }

    /// How the helper ended, once its socket closed (waited for at most 2 s, then killed).
    private func reap() -> String {
        running = false
        close(socket)
        var status: Int32 = 0
        let deadline = MonotonicClock.seconds() + 2
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if done < 0, errno != EINTR { kill(-pid, SIGKILL); return "it went away" }
            if MonotonicClock.seconds() > deadline {
                kill(-pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                return "it closed its socket and did not exit"
            }
            usleep(10_000)
        }
        kill(-pid, SIGKILL)  // its web and network processes, if any stayed
        let signal = status & 0x7f
        return signal == 0 ? "it exited with status \((status >> 8) & 0xff)" : "it was killed by signal \(signal)"
    }

    /// The frame in `fd`, when the memfd is sealed and holds the header's bytes; nil otherwise.
    private static func map(_ fd: Int32, header: WebFrameHeader) -> RGBAImage? {
        guard header.width > 0, header.height > 0, header.width <= 16384, header.height <= 16384,
              Int(header.stride) >= Int(header.width) * 4, Int(header.stride) <= Int(header.width) * 4 + 4096 else { return nil }
        var status = stat()
        guard kiosk_web_is_sealed(fd) == 1, fstat(fd, &status) == 0, Int(status.st_size) >= header.byteCount else { return nil }
        guard let base = mmap(nil, header.byteCount, PROT_READ, MAP_SHARED, fd, 0), base != MAP_FAILED else { return nil }
        defer { munmap(base, header.byteCount) }
        return WebFramePixels.image(UnsafeRawBufferPointer(start: base, count: header.byteCount), header: header)
    }

    /// posix_spawn of `arguments` in a new process group, `childSocket` as its descriptor 3, /dev/null as its
    /// standard input and output (and error, unless `KIOSK_WEB_HELPER_LOG` is set); 0 or an errno.
    private static func spawn(_ arguments: [String], childSocket: Int32, pid: inout pid_t) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_adddup2(&actions, childSocket, 3)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        if getenv("KIOSK_WEB_HELPER_LOG") == nil { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP] { sigaddset(&defaults, signal) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        return posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
    }
}
