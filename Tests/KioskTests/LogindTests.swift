import Foundation
import KioskCore
import KioskInput
import KioskOutput
import KioskSeat
import XCTest

/// Device access: open(2) with errors naming the group, and logind's TakeDevice against a stand-in login1
/// service (Fixtures/logind/fake_login1.py) on a private D-Bus daemon, through the library and through `kiosk`.
final class LogindTests: XCTestCase {
    /// The stand-in's script.
    static let fake = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/logind/fake_login1.py").path

    /// A private bus with the stand-in login1 on it; stopped at deinit.
    final class FakeLogind {
        let dir: TempDir
        let address: String
        let log: String
        private var processes: [Process] = []

        init(devices: [String]) throws {
            dir = try TempDir()
            address = "unix:path=\(dir.file("bus"))"
            log = dir.file("login1.log")
            try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <listen>\(address)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/>
                <allow own="*"/>
                <allow send_destination="*"/>
                <allow receive_sender="*"/>
              </policy>
            </busconfig>
            """.write(toFile: dir.file("bus.conf"), atomically: true, encoding: .utf8)
            try start("/usr/bin/dbus-daemon", ["--config-file=\(dir.file("bus.conf"))", "--nofork", "--nopidfile"])
            try wait("the bus socket") { FileManager.default.fileExists(atPath: self.dir.file("bus")) }
            try start("/usr/bin/python3", [LogindTests.fake, address, log] + devices)
            try wait("login1 on the bus") { self.calls.contains("ready") }
        }

        /// The calls logind received, one line each, after `ready`.
        var calls: [String] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        private func start(_ tool: String, _ args: [String]) throws {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: tool)
            p.arguments = args
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice  // dbus-daemon warns that it can't raise its fd limit
            try p.run()
            processes.append(p)
        }

        private func wait(_ what: String, _ ready: () -> Bool) throws {
            let deadline = Date().addingTimeInterval(10)
            while !ready() {
                if Date() > deadline || processes.contains(where: { !$0.isRunning }) {
                    throw DeviceAccessError(call: "start", path: what, reason: "did not come up")
                }
                usleep(20_000)
            }
        }

        deinit {
            for p in processes.reversed() where p.isRunning {
                p.terminate()
                p.waitUntilExit()
            }
        }
    }

    /// Skips where the stand-in can't run (Kiosk/setup.sh installs dbus-daemon, python3-dbus and python3-gi).
    func fakeLogind(devices: [String]) throws -> FakeLogind {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon"), "no dbus-daemon")
        let probe = try BoundedProcess.run("/usr/bin/python3", ["-c", "import dbus, dbus.mainloop.glib, gi.repository.GLib"],
                                           timeout: 30)
        try XCTSkipUnless(probe.status == 0, "no python3-dbus / python3-gi")
        return try FakeLogind(devices: devices)
    }

    /// Points this process's system bus at `fake` (and gives it a session id) for the duration of `body`.
    func withSystemBus<T>(_ fake: FakeLogind, _ body: () throws -> T) rethrows -> T {
        setenv("DBUS_SYSTEM_BUS_ADDRESS", fake.address, 1)
        setenv("XDG_SESSION_ID", "fake1", 1)
        defer {
            unsetenv("DBUS_SYSTEM_BUS_ADDRESS")
            unsetenv("XDG_SESSION_ID")
        }
        return try body()
    }

    /// Runs `kiosk` (built next to the tests), as user `nobody` when `asNobody`.
    func kiosk(_ args: [String], environment: [String: String] = [:], asNobody: Bool = false,
               file: StaticString = #filePath, line: UInt = #line) throws -> (status: Int32, stderr: String) {
        let tool = asNobody ? "/usr/bin/setpriv" : CLITests.kiosk
        let arguments = asNobody ? ["--reuid=65534", "--regid=65534", "--clear-groups", CLITests.kiosk] + args : args
        let r = try BoundedProcess.run(tool, arguments, environment: environment.merging(["LIBGL_ALWAYS_SOFTWARE": "1"]) { a, _ in a },
                                       timeout: 60, file: file, line: line)
        return (r.status, String(decoding: r.stderr, as: UTF8.self))
    }

    func rdev(_ path: String) -> UInt64 {
        var st = stat()
        return stat(path, &st) == 0 ? UInt64(st.st_rdev) : 0
    }

    // MARK: direct

    func testDirectOpenerErrorsNameTheCallTheDeviceAndTheGroup() {
        XCTAssertThrowsError(try DirectOpener(group: "input").open("/nonexistent/event0", flags: O_RDWR)) {
            XCTAssertEqual("\($0)", "open on /nonexistent/event0: No such file or directory")
        }
        XCTAssertThrowsError(try LibinputSource(devices: ["/nonexistent/event0"])) {
            XCTAssertEqual("\($0)", "open on /nonexistent/event0: No such file or directory")
        }
    }

    /// As an unprivileged user (root opens anything), a refused open names the group to join.
    func testARefusedOpenNamesTheGroup() throws {
        let dir = try TempDir()
        let node = dir.file("event0")
        _ = FileManager.default.createFile(atPath: node, contents: Data(), attributes: [.posixPermissions: 0o600])
        chmod(dir.path, 0o755)
        if getuid() != 0 {
            chmod(node, 0)
            XCTAssertThrowsError(try DirectOpener(group: "input").open(node, flags: O_RDWR)) {
                XCTAssertEqual("\($0)", "open on \(node): permission denied: the user needs the `input` group or a logind seat session")
            }
            return
        }
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "no setpriv to drop root")
        let picture = dir.file("a.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=red:size=32x24", "-frames:v", "1", picture])
        let r = try kiosk(["play", "--output", "headless", "--input-device", node, "--size", "32x24", "--length", "0.2",
                           "--log-level", "info", picture],
                          asNobody: true)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("device access: direct open (no logind session)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("open on \(node): permission denied: the user needs the `input` group or a logind seat session"),
                      r.stderr)
    }

    /// Without logind (this container, CI), `current()` is nil at once and `play` opens devices directly.
    func testWithoutLogindPlayOpensDirectly() throws {
        let start = Date()
        let session = LogindSession.current()
        try XCTSkipIf(session != nil, "logind runs here and this process has a session")
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "no wait on a D-Bus timeout (25 s)")
        let dir = try TempDir()
        let picture = dir.file("a.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=red:size=32x24", "-frames:v", "1", picture])
        let r = try kiosk(["play", "--output", "auto", "--drm-device", dir.file("card0"), "--size", "32x24",
                           "--length", "0.2", "--log-level", "info", picture])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").filter { $0.contains("device access:") },
                       ["kiosk: info: device access: direct open (no logind session)"], r.stderr)
    }

    // MARK: logind (stand-in)

    func testLogindSessionTakesAndReleasesDevices() throws {
        let fake = try fakeLogind(devices: ["/dev/null", "/dev/zero"])
        try withSystemBus(fake) {
            let found = LogindSession.current()
            let session = try XCTUnwrap(found, "the stand-in's session")
            XCTAssertEqual(session.objectPath, "/org/freedesktop/login1/session/fake")
            XCTAssertThrowsError(try session.takeDevice(path: "/dev/null")) {
                XCTAssertEqual("\($0)", "TakeDevice on /dev/null: org.freedesktop.login1.NotInControl: You are not in control of this session")
            }
            try session.takeControl()
            let fd = try session.takeDevice(path: "/dev/null")
            var st = stat()
            XCTAssertEqual(fstat(fd, &st), 0)
            XCTAssertEqual(UInt64(st.st_rdev), rdev("/dev/null"), "the descriptor is /dev/null's")
            XCTAssertNotEqual(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0, "close-on-exec")
            XCTAssertEqual(write(fd, "x", 1), 1)
            session.releaseDevice(path: "/dev/null")
            close(fd)
            XCTAssertThrowsError(try session.takeDevice(path: "/dev/full")) {
                XCTAssertEqual("\($0)", "TakeDevice on /dev/full: org.freedesktop.login1.DeviceNotFound: Device 1:7 not known")
            }
            XCTAssertThrowsError(try session.takeDevice(path: "/etc/hostname")) {
                XCTAssertEqual("\($0)", "stat on /etc/hostname: not a character device")
            }
            // A DRM card through logind: the same calls, and the card's own error for a device that is not one.
            XCTAssertThrowsError(try DRMDevice(path: "/dev/zero", opener: LogindOpener(session: session))) {
                XCTAssertEqual("\($0)", "drmGetVersion on /dev/zero: not a DRM device")
            }
            session.releaseControl()
        }
        XCTAssertEqual(fake.calls, ["ready", "GetSession", "TakeDevice 1 3", "TakeControl False", "TakeDevice 1 3",
                                    "ReleaseDevice 1 3", "TakeDevice 1 7", "TakeDevice 1 5", "ReleaseDevice 1 5",
                                    "ReleaseControl"])
    }

    /// `kiosk play` under a session: one info line says logind is used, and an input device is taken through it.
    func testPlayUsesLogindWhereItRuns() throws {
        let fake = try fakeLogind(devices: ["/dev/null"])
        let dir = try TempDir()
        let picture = dir.file("a.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=red:size=32x24", "-frames:v", "1", picture])
        let r = try kiosk(["play", "--output", "headless", "--input-device", "/dev/null", "--size", "32x24",
                           "--length", "0.2", "--log-level", "info", picture],
                          environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address, "XDG_SESSION_ID": "fake1"])
        XCTAssertTrue(r.stderr.contains("info: device access: logind session "), r.stderr)
        // /dev/null is no evdev device: libinput refuses it after logind handed it over.
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("libinput_path_add_device: /dev/null is not an input device"), r.stderr)
        XCTAssertEqual(Array(fake.calls.prefix(5)), ["ready", "GetSession", "TakeControl False", "TakeDevice 1 3", "ReleaseDevice 1 3"])
        XCTAssertEqual(fake.calls.last, "ReleaseControl")
    }
}
