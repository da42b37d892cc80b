import Foundation
import KioskCore

/// How kiosk behaves on the CEC bus (`--cec-name`, `--cec-standby`, `--cec-follow-standby`).
public struct CECSettings: Sendable {
    /// The OSD name the TV shows for kiosk's input (14 characters at most).
    public var osdName = "kiosk"
    /// Whether the screen going off sends `<Standby>` to the TV (else `<Inactive Source>`).
    public var sendsStandby = true
    /// Whether a `<Standby>` from the TV pauses playback (and the TV coming back resumes it).
    public var followsStandby = true
    /// Seconds between power status polls while nothing changes.
    public var pollInterval = 60.0
    /// Seconds after a power change before the TV is asked how it is (it takes a while to switch).
    public var settle = 3.0
    /// The first wait before a TV that did not wake is asked again; it doubles up to `pollInterval`.
    public var retryBase = 5.0

    /// The defaults: name `kiosk`, standby sent and followed, polled every 60 s.
    public init() {}
}

/// kiosk on the HDMI-CEC bus, on a thread of its own: it turns the TV on (`<Image View On>`, then `<Active
/// Source>`: One Touch Play) when the screen comes on and sends it to standby when the screen goes off, asks the TV
/// for its power status every `pollInterval` and after each change (a TV that did not wake is asked again, with
/// backoff), turns the TV remote's keys into key commands, answers what a playback device must (`<Give Device
/// Power Status>`, `<Menu Request>`, `<Request Active Source>`, `<Set Stream Path>`; `<Feature Abort>` for the
/// rest), and pauses while the TV is in standby. It never blocks the player: requests are queued.
public final class CECController: @unchecked Sendable {
    private let bus: CECBus
    private let settings: CECSettings
    private let sink: CommandSink
    private let log: Log
    private let lock = NSLock()
    private var wanted: Bool?
    private var stopping = false
    private var thread: Thread?
    private let done = DispatchSemaphore(value: 0)

    // the thread's own state
    private let clock = MonotonicClock()
    private var screenOn: Bool?
    private var tvPower = TVPower.unknown
    private var nextPoll = 0.0
    private var retry: (at: Double, wait: Double)?
    private var saidUnanswered = false
    private var saidNotWaking = false
    /// Why playback is paused for CEC: the TV went to standby (its return resumes), or the TV told kiosk itself
    /// to go to standby (a key, the TV selecting kiosk's input or the screen coming on resumes).
    private enum Asleep { case tvOff, toldTo }
    private var asleep: Asleep?
    private var menuActive = false
    /// Whether kiosk is the active source (it said so, and no other device or the TV's routing took over since).
    private var activeSource = false

    /// A controller on `bus` sending key, pause and power-status commands to `sink`.
    public init(bus: CECBus, settings: CECSettings, sink: CommandSink, log: Log) {
        self.bus = bus
        self.settings = settings
        self.sink = sink
        self.log = log
    }

    /// Starts the thread; the screen is taken as on until told otherwise.
    public func start(screenOn: Bool = true) {
        lock.lock()
        if wanted == nil { wanted = screenOn }
        lock.unlock()
        let t = Thread { [self] in run() }
        t.name = "kiosk-cec"
        thread = t
        t.start()
    }

    /// The screen came on or went off: the TV follows (from any thread; never blocks).
    public func screen(on: Bool) {
        lock.lock()
        wanted = on
        lock.unlock()
    }

    /// Stops the thread (within a quarter of a second).
    public func stop() {
        lock.lock()
        stopping = true
        let started = thread != nil
        lock.unlock()
        if started { _ = done.wait(timeout: .now() + 2) }
    }

    private func run() {
        defer { done.signal() }
        log.info("cec: \(bus.name): playback device at logical address \(bus.logicalAddress), physical \(CECAddress.physical(bus.physicalAddress))")
        do {
            while true {
                lock.lock()
                let (want, stop) = (wanted, stopping)
                lock.unlock()
                if stop { return }
                // nothing is sent before an address is claimed (the link may be down: it comes with a hotplug)
                if bus.logicalAddress != CECAddress.unregistered {
                    if let want, want != screenOn { try apply(on: want) }
                    let now = clock.now
                    if now >= nextPoll { try poll() }
                    if let r = retry, now >= r.at, screenOn == true, ![.on, .toOn].contains(tvPower) { try wakeAgain(r.wait) }
                }
                if let event = try bus.next(timeout: 0.25) { try handle(event) }
            }
        } catch {
            log.warn("cec: \(error); the screen's power is DPMS alone from now on")
            if asleep != nil { sink.send(.resume(.tv), reply: nil) }
            sink.send(.tvPower(.unknown), reply: nil)
        }
    }

    /// One Touch Play, or standby.
    private func apply(on: Bool) throws(CECError) {
        screenOn = on
        let me = bus.logicalAddress
        activeSource = on
        if on {
            wake()
            let heard = try bus.transmit(.imageViewOn(from: me))
            _ = try bus.transmit(.activeSource(from: me, physical: bus.physicalAddress))
            if heard {
                log.info("cec: screen on: <Image View On> and <Active Source> \(CECAddress.physical(bus.physicalAddress)) sent")
                retry = (clock.now + settings.settle + settings.retryBase, settings.retryBase)
            } else {
                unanswered()
            }
        } else {
            retry = nil
            let message: CECMessage = settings.sendsStandby ? .standby(from: me) : .inactiveSource(from: me, physical: bus.physicalAddress)
            if try bus.transmit(message) {
                log.info("cec: screen off: \(settings.sendsStandby ? "<Standby>" : "<Inactive Source>") sent to the TV")
            } else {
                unanswered()
            }
        }
        nextPoll = clock.now + settings.settle
    }

    /// The TV did not wake: One Touch Play again, and wait twice as long next time.
    private func wakeAgain(_ wait: Double) throws(CECError) {
        if !saidNotWaking {
            log.warn("cec: the TV did not wake (it is \(tvPower.rawValue)); asking again, less and less often")
            saidNotWaking = true
        }
        _ = try bus.transmit(.imageViewOn(from: bus.logicalAddress))
        try announce()
        let next = min(wait * 2, settings.pollInterval)
        retry = (clock.now + next, next)
        nextPoll = clock.now + settings.settle
    }

    private func poll() throws(CECError) {
        nextPoll = clock.now + settings.pollInterval
        if try !bus.transmit(.giveDevicePowerStatus(from: bus.logicalAddress)) {
            unanswered()
            report(.unknown)
        }
    }

    private func unanswered() {
        guard !saidUnanswered else { return }
        saidUnanswered = true
        log.info("cec: the TV (logical address 0) does not answer on \(bus.name); the screen's power is DPMS alone until it does")
    }

    /// The TV's power as it reported it (or as a `<Standby>` from it says).
    private func report(_ power: TVPower) {
        if power != .unknown { saidUnanswered = false }
        // a TV on its way on or off is asked again soon, until it gets there
        if [.toOn, .toStandby].contains(power) { nextPoll = min(nextPoll, clock.now + settings.settle) }
        if [.on, .toOn].contains(power) {
            if saidNotWaking { log.info("cec: the TV woke") }
            saidNotWaking = false
            retry = nil
            if asleep == .tvOff { wake() }
        }
        guard power != tvPower else { return }
        tvPower = power
        sink.send(.tvPower(power), reply: nil)
        nextPoll = min(nextPoll, clock.now + settings.settle)  // and again soon after each change
    }

    /// Playback paused for CEC goes on.
    private func wake() {
        guard asleep != nil else { return }
        asleep = nil
        sink.send(.resume(.tv), reply: nil)
    }

    /// Playback pauses (with `--cec-follow-standby pause`), for `why`.
    private func sleep(_ why: Asleep) {
        guard settings.followsStandby else { return }
        if asleep == nil { sink.send(.pause(.tv), reply: nil) }
        asleep = why
    }

    /// `<Active Source>` from kiosk, when it is the one showing.
    private func announce() throws(CECError) {
        activeSource = true
        _ = try bus.transmit(.activeSource(from: bus.logicalAddress, physical: bus.physicalAddress))
    }

    private func handle(_ event: CECBusEvent) throws(CECError) {
        guard case .received(let m) = event else {
            log.info("cec: addresses now logical \(bus.logicalAddress), physical \(CECAddress.physical(bus.physicalAddress))")
            if bus.logicalAddress != CECAddress.unregistered, screenOn == true, activeSource { try announce() }
            return
        }
        let me = bus.logicalAddress
        guard let code = m.opcode, m.initiator != me else { return }
        switch CECOpcode(rawValue: code) {
        case .userControlPressed?:
            guard let ui = m.pressedKey else { return }
            log.debug("cec: key \(CECKeys.name(ui: ui)) from \(m.initiator)")
            if asleep == .toldTo { wake() }  // someone is using the remote: kiosk wakes
            sink.send(.key(code: CECKeys.code(ui: ui)), reply: nil)
        case .reportPowerStatus?:
            if m.initiator == CECAddress.tv, let p = m.reportedPower { report(p) }
        case .standby?:
            if m.isBroadcast {
                // the system goes to standby: the TV (or whoever sent it) is going off
                guard m.initiator == CECAddress.tv else { return }
                log.info("cec: the TV went to standby")
                report(.standby)
                sleep(.tvOff)
            } else {
                log.info("cec: told to go to standby by \(m.initiator)")
                sleep(.toldTo)
            }
        case .giveDevicePowerStatus?:
            let mine: TVPower = screenOn == false || asleep != nil ? .standby : .on
            _ = try bus.transmit(.reportPowerStatus(from: me, to: m.initiator, mine))
        case .menuRequest?:
            guard let request = m.operands.first, request <= 2 else {
                _ = try bus.transmit(.featureAbort(from: me, to: m.initiator, opcode: code, reason: .invalidOperand))
                return
            }
            if request < 2 { menuActive = request == 0 }
            _ = try bus.transmit(.menuStatus(from: me, to: m.initiator, activated: menuActive))
        case .requestActiveSource?:
            if m.initiator == CECAddress.tv { report(.on) }  // a TV asking who shows is on
            if screenOn == true, activeSource, asleep == nil { try announce() }
        case .setStreamPath?:
            guard m.physicalOperand == bus.physicalAddress else {
                activeSource = false  // the TV shows another input now
                return
            }
            if m.initiator == CECAddress.tv { report(.on) }
            if asleep == .toldTo { wake() }
            if screenOn == true { try announce() }
        case .activeSource?:
            if m.physicalOperand != bus.physicalAddress { activeSource = false }  // another device took over
        case .routingChange?:
            // <Routing Change> old, new: the TV's input moved away from kiosk's
            let o = Array(m.operands)
            if o.count >= 4, UInt16(o[2]) << 8 | UInt16(o[3]) != bus.physicalAddress { activeSource = false }
        case .userControlReleased?, .featureAbort?, .inactiveSource?, .routingInformation?,
             .reportPhysicalAddress?, .deviceVendorID?, .setOSDName?, .cecVersion?, .menuStatus?, .imageViewOn?, .textViewOn?,
             .givePhysicalAddress?, .giveOSDName?, .giveDeviceVendorID?, .getCECVersion?, .abort?:
            break  // news, or what the kernel answers from the claimed address
        case nil:
            // a directed message kiosk does not know: say so (never to a broadcast, never to a Feature Abort)
            if !m.isBroadcast, code != 0xA5 {
                _ = try bus.transmit(.featureAbort(from: me, to: m.initiator, opcode: code, reason: .unrecognizedOpcode))
            }
        }
    }
}
