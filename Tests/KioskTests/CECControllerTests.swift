import Foundation
@testable import KioskCEC
import KioskCore
import XCTest

/// The CEC controller against a TV that behaves as CEC 1.4 says (`StandInTV`: it wakes on `<Image View On>`, goes to
/// standby on `<Standby>`, answers `<Give Device Power Status>`), on the controller's own thread with short
/// intervals. The real adapter and a real follower are the VM's (vm-test.sh, vivid and cec-follower).
final class CECControllerTests: XCTestCase {
    private var settings: CECSettings {
        var s = CECSettings()
        s.pollInterval = 1
        s.settle = 0.1
        s.retryBase = 0.2
        return s
    }

    private func start(_ tv: StandInTV, _ s: CECSettings? = nil, screenOn: Bool = true) -> (CECController, RecordingSink, Log) {
        let sink = RecordingSink()
        let log = Log(level: .debug, sink: { _ in })
        let c = CECController(bus: tv, settings: s ?? settings, sink: sink, log: log)
        c.start(screenOn: screenOn)
        addTeardownBlock { c.stop() }
        return (c, sink, log)
    }

    func testOneTouchPlayAtStartThenStandbyAndBack() throws {
        let tv = StandInTV(power: .standby)
        let (c, sink, _) = start(tv)
        XCTAssertTrue(eventually(5) { tv.sent.map(\.opcode).starts(with: [0x04, 0x82]) }, "\(tv.sent)")
        XCTAssertEqual(tv.sent.first?.bytes, [0x40, 0x04], "<Image View On> to the TV")
        XCTAssertEqual(tv.sent.dropFirst().first?.bytes, [0x4F, 0x82, 0x10, 0x00], "<Active Source> 1.0.0.0, broadcast")
        XCTAssertTrue(eventually(5) { sink.commands.contains(.tvPower(.on)) }, "\(sink.commands)")
        c.screen(on: false)
        XCTAssertTrue(eventually(5) { tv.sent.contains { $0.bytes == [0x40, 0x36] } }, "<Standby> to the TV: \(tv.sent)")
        XCTAssertTrue(eventually(5) { sink.commands.last { if case .tvPower = $0 { true } else { false } } == .tvPower(.standby) },
                      "\(sink.commands)")
        XCTAssertFalse(sink.commands.contains(.pause(.tv)), "kiosk's own standby pauses nothing")
        c.screen(on: true)
        XCTAssertTrue(eventually(5) { tv.power == .on && sink.commands.last == .tvPower(.on) }, "\(sink.commands)")
    }

    func testScreenOffWithoutStandbySaysInactiveSource() throws {
        let tv = StandInTV(power: .on)
        var s = settings
        s.sendsStandby = false
        let (c, _, _) = start(tv, s)
        c.screen(on: false)
        XCTAssertTrue(eventually(5) { tv.sent.contains { $0.bytes == [0x40, 0x9D, 0x10, 0x00] } }, "\(tv.sent)")
        XCTAssertFalse(tv.sent.contains { $0.opcode == 0x36 })
        XCTAssertEqual(tv.power, .on)
    }

    func testTheRemotesKeysBecomeKeyCommands() throws {
        let tv = StandInTV(power: .on)
        let (_, sink, _) = start(tv)
        tv.says([0x04, 0x44, 0x04])  // right pressed
        tv.says([0x04, 0x44, 0x04])  // held: pressed again
        tv.says([0x04, 0x45])        // released
        tv.says([0x04, 0x44, 0x27])  // 7
        let keys = { sink.commands.compactMap { if case .key(let code) = $0 { code } else { nil } } }
        XCTAssertTrue(eventually(5) { keys().count == 3 }, "\(sink.commands)")
        XCTAssertEqual(keys(), [CECKeys.code(ui: 0x04), CECKeys.code(ui: 0x04), CECKeys.code(ui: 0x27)])
    }

    func testTheTVsStandbyPausesAndItsReturnResumes() throws {
        let tv = StandInTV(power: .on)
        let (_, sink, _) = start(tv)
        XCTAssertTrue(eventually(5) { sink.commands.contains(.tvPower(.on)) })
        tv.power = .standby
        tv.says([0x0F, 0x36])  // <Standby>, broadcast
        XCTAssertTrue(eventually(5) { sink.commands.contains(.pause(.tv)) }, "\(sink.commands)")
        XCTAssertTrue(sink.commands.contains(.tvPower(.standby)))
        XCTAssertFalse(sink.commands.contains(.resume(.tv)))
        tv.power = .on
        tv.says([0x0F, 0x85])  // the TV, on again, asks who is the source
        XCTAssertTrue(eventually(5) { sink.commands.contains(.resume(.tv)) }, "\(sink.commands)")
        XCTAssertTrue(eventually(5) { tv.sent.filter { $0.opcode == 0x82 }.count >= 2 }, "kiosk answers <Active Source>: \(tv.sent)")
        // with --cec-follow-standby ignore, nothing pauses
        let other = StandInTV(power: .on)
        var s = settings
        s.followsStandby = false
        let (_, quiet, _) = start(other, s)
        other.says([0x0F, 0x36])
        XCTAssertTrue(eventually(5) { quiet.commands.contains(.tvPower(.standby)) })
        XCTAssertFalse(quiet.commands.contains(.pause(.tv)))
    }

    /// A `<Standby>` to kiosk itself (not the TV's broadcast): kiosk pauses and says it is in standby, whatever the
    /// TV's own power, until someone uses the remote.
    func testStandbyToKioskItselfHoldsUntilTheRemoteIsUsed() throws {
        let tv = StandInTV(power: .on)
        let (_, sink, _) = start(tv)
        XCTAssertTrue(eventually(5) { sink.commands.contains(.tvPower(.on)) })
        tv.says([0x04, 0x36])
        XCTAssertTrue(eventually(5) { sink.commands.contains(.pause(.tv)) }, "\(sink.commands)")
        Thread.sleep(forTimeInterval: 1.5)  // polls say the TV is on: that is no reason to wake
        XCTAssertFalse(sink.commands.contains(.resume(.tv)), "\(sink.commands)")
        tv.says([0x04, 0x8F])
        XCTAssertTrue(eventually(5) { tv.sent.last?.bytes == [0x40, 0x90, 0x01] }, "kiosk reports standby: \(tv.sent)")
        tv.says([0x04, 0x44, 0x00])  // select on the remote
        XCTAssertTrue(eventually(5) { sink.commands.contains(.resume(.tv)) }, "\(sink.commands)")
    }

    /// Once another device said it is the active source, kiosk does not answer `<Request Active Source>`; the TV
    /// selecting kiosk's input makes it the source again.
    func testAnotherActiveSourceTakesOver() throws {
        let tv = StandInTV(power: .on)
        _ = start(tv)
        XCTAssertTrue(eventually(5) { tv.sent.contains { $0.opcode == 0x82 } })
        tv.says([0x8F, 0x82, 0x20, 0x00])  // device 8 at 2.0.0.0 is the source now
        tv.says([0x0F, 0x85])
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(tv.sent.filter { $0.opcode == 0x82 }.count, 1, "no answer: \(tv.sent)")
        tv.says([0x0F, 0x86, 0x10, 0x00])  // <Set Stream Path> 1.0.0.0: kiosk's input
        XCTAssertTrue(eventually(5) { tv.sent.filter { $0.opcode == 0x82 }.count == 2 }, "\(tv.sent)")
        tv.says([0x0F, 0x85])
        XCTAssertTrue(eventually(5) { tv.sent.filter { $0.opcode == 0x82 }.count == 3 }, "the source again: \(tv.sent)")
    }

    /// A hotplug: the kernel claims the address again and says so (`CEC_EVENT_STATE_CHANGE`); kiosk, the source,
    /// announces itself again.
    func testAfterAHotplugKioskAnnouncesItselfAgain() throws {
        let tv = StandInTV(power: .on)
        _ = start(tv)
        XCTAssertTrue(eventually(5) { tv.sent.filter { $0.opcode == 0x82 }.count == 1 })
        tv.replug()
        XCTAssertTrue(eventually(5) { tv.sent.filter { $0.opcode == 0x82 }.count == 2 }, "\(tv.sent)")
        XCTAssertEqual(tv.sent.last?.bytes, [0x4F, 0x82, 0x10, 0x00])
    }

    func testATVThatDoesNotWakeIsAskedAgainLessAndLessOften() throws {
        let tv = StandInTV(power: .standby)
        tv.wakes = false
        let lines = LogLines()
        let sink = RecordingSink()
        let c = CECController(bus: tv, settings: settings, sink: sink, log: lines.log)
        c.start()
        addTeardownBlock { c.stop() }
        Thread.sleep(forTimeInterval: 3.5)
        let wakes = tv.sentTimes(opcode: 0x04)
        // at 0, then about 0.3, 0.7, 1.5, 2.5, 3.5 s (settle 0.1 + 0.2, then 0.4, 0.8, 1 s: the poll interval caps it)
        XCTAssertGreaterThanOrEqual(wakes.count, 4, "\(wakes)")
        XCTAssertLessThanOrEqual(wakes.count, 7, "\(wakes)")
        let gaps = zip(wakes.dropFirst(), wakes).map { $0 - $1 }
        XCTAssertTrue(zip(gaps.dropFirst(), gaps).allSatisfy { $0 >= $1 - 0.3 }, "gaps grow: \(gaps)")
        XCTAssertEqual(lines.matching("the TV did not wake").count, 1, "said once")
        tv.wakes = true
        tv.power = .on
        XCTAssertTrue(eventually(5) { !lines.matching("the TV woke").isEmpty })
    }

    func testNoTVAndAnAdapterThatGoesAwayAreOneLineEach() throws {
        let tv = StandInTV(power: .on)
        tv.present = false
        let lines = LogLines()
        let sink = RecordingSink()
        let c = CECController(bus: tv, settings: settings, sink: sink, log: lines.log)
        c.start()
        addTeardownBlock { c.stop() }
        Thread.sleep(forTimeInterval: 2.5)  // several polls, all unanswered
        XCTAssertEqual(lines.matching("does not answer").count, 1)
        tv.gone = true
        XCTAssertTrue(eventually(5) { !lines.matching("went away").isEmpty })
        XCTAssertEqual(lines.matching("went away").count, 1)
        XCTAssertTrue(eventually(5) { sink.commands.last == .tvPower(.unknown) })
    }

    func testWhatAPlaybackDeviceMustAnswer() throws {
        let tv = StandInTV(power: .on)
        let (c, _, _) = start(tv)
        XCTAssertTrue(eventually(5) { tv.sent.count >= 2 })
        tv.says([0x04, 0x8F])          // <Give Device Power Status>: on
        tv.says([0x04, 0x8D, 0x00])    // <Menu Request> activate
        tv.says([0x04, 0x8D, 0x02])    // query: still activated
        tv.says([0x04, 0x8D, 0x07])    // a bad operand
        tv.says([0x04, 0x1A, 0x01])    // <Give Deck Status>: not a thing kiosk does
        tv.says([0x0F, 0x1A, 0x01])    // the same broadcast: no answer
        tv.says([0x04, 0x00, 0x44, 0x00])  // a <Feature Abort> to kiosk: no answer to it
        func replies() -> [[UInt8]] { tv.sent.filter { $0.destination == 0 && ![0x04, 0x36, 0x8F].contains($0.opcode) }.map(\.bytes) }
        XCTAssertTrue(eventually(5) { replies().count >= 5 }, "\(replies())")
        XCTAssertEqual(replies(), [[0x40, 0x90, 0x00], [0x40, 0x8E, 0x00], [0x40, 0x8E, 0x00], [0x40, 0x00, 0x8D, 0x03], [0x40, 0x00, 0x1A, 0x00]])
        c.screen(on: false)
        XCTAssertTrue(eventually(5) { tv.sent.contains { $0.opcode == 0x36 } })
        tv.says([0x04, 0x8F])
        XCTAssertTrue(eventually(5) { tv.sent.last?.bytes == [0x40, 0x90, 0x01] }, "standby while the screen is off: \(tv.sent)")
    }
}

/// A TV on the CEC bus at logical address 0, with kiosk at 4 and physical address 1.0.0.0.
final class StandInTV: CECBus, @unchecked Sendable {
    private let lock = NSCondition()
    private var _sent: [(CECMessage, Date)] = []
    private var inbox: [CECMessage] = []
    private var replugged = false
    private var _power: TVPower
    private var _wakes = true, _present = true, _gone = false
    private let started = Date()

    init(power: TVPower) { _power = power }

    var name: String { "stand-in TV" }
    var logicalAddress: UInt8 { 4 }
    var physicalAddress: UInt16 { 0x1000 }

    private func locked<T>(_ body: () -> T) -> T { lock.lock(); defer { lock.unlock() }; return body() }
    var sent: [CECMessage] { locked { _sent.map(\.0) } }
    var power: TVPower { get { locked { _power } } set { locked { _power = newValue } } }
    var wakes: Bool { get { locked { _wakes } } set { locked { _wakes = newValue } } }
    var present: Bool { get { locked { _present } } set { locked { _present = newValue } } }
    var gone: Bool { get { locked { _gone } } set { locked { _gone = newValue; lock.broadcast() } } }

    /// Seconds after the start at which messages with `opcode` were sent.
    func sentTimes(opcode: UInt8) -> [Double] { locked { _sent.filter { $0.0.opcode == opcode }.map { $0.1.timeIntervalSince(started) } } }

    /// The link went down and came back: the addresses were claimed again.
    func replug() { locked { replugged = true; lock.broadcast() } }

    /// The TV sends `bytes` to kiosk.
    func says(_ bytes: [UInt8]) {
        guard let m = CECMessage(bytes: bytes) else { return }
        locked { inbox.append(m); lock.broadcast() }
    }

    func transmit(_ message: CECMessage) throws(CECError) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if _gone { throw CECError("stand-in TV: the adapter went away", gone: true) }
        _sent.append((message, Date()))
        guard message.destination == 0 || message.isBroadcast else { return false }
        guard _present else { return false }
        switch CECOpcode(rawValue: message.opcode ?? 0xFE) {
        case .imageViewOn?: if _wakes { _power = .on }
        case .standby?: _power = .standby
        case .giveDevicePowerStatus?:
            if let r = CECMessage(bytes: [0x04, 0x90, _power == .on ? 0 : _power == .standby ? 1 : 2]) { inbox.append(r) }
        default: break
        }
        return true
    }

    func next(timeout: Double) throws(CECError) -> CECBusEvent? {
        lock.lock()
        defer { lock.unlock() }
        if inbox.isEmpty, !_gone, !replugged { _ = lock.wait(until: Date(timeIntervalSinceNow: timeout)) }
        if _gone { throw CECError("stand-in TV: the adapter went away", gone: true) }
        if replugged {
            replugged = false
            return .addressesChanged
        }
        return inbox.isEmpty ? nil : .received(inbox.removeFirst())
    }
}

/// Commands a controller sent.
final class RecordingSink: CommandSink, @unchecked Sendable {
    private let lock = NSLock()
    private var _commands: [PlayerCommand] = []
    var commands: [PlayerCommand] { lock.lock(); defer { lock.unlock() }; return _commands }
    func send(_ command: PlayerCommand, reply: (@Sendable (CommandReply) -> Void)?) {
        lock.lock()
        _commands.append(command)
        lock.unlock()
        reply?(.done())
    }
}
