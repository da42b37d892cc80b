import Foundation
import KioskCore

/// Where every producer (input, and later remote control, folder watchers, schedules) sends `PlayerCommand`s.
/// Thread-safe: `send` from any thread queues the command and wakes the frame loop at once through the wake
/// closure it was given (the output's `wakeup`, which ends the wait it polls); the loop drains the inbox at the top of each frame and answers
/// each command through its reply, on the player's thread, in order.
public final class CommandInbox: @unchecked Sendable {
    /// What answers a command.
    public typealias Reply = @Sendable (CommandReply) -> Void

    /// One queued command, and the screen it is for (nil: the first; an alert: every screen).
    struct Envelope {
        let command: PlayerCommand
        let reply: Reply?
        var screen: String?
    }

    private let lock = NSLock()
    private var queued: [Envelope] = []
    private var wakeUp: (@Sendable () -> Void)?

    /// An empty inbox.
    public init() {}

    /// Queues `command`; `reply` is called on the player's thread once it has run (or when the run ends first,
    /// with a failure).
    public func send(_ command: PlayerCommand, reply: Reply? = nil) {
        send(command, toScreen: nil, reply: reply)
    }

    /// Queues `command` for screen `screen` (nil: the first one, or every screen for an alert); a screen the
    /// player does not have is the reply's failure.
    public func send(_ command: PlayerCommand, toScreen screen: String?, reply: Reply? = nil) {
        lock.lock()
        queued.append(Envelope(command: command, reply: reply, screen: screen))
        let wake = wakeUp
        lock.unlock()
        wake?()
    }

    /// Wakes the loop without a command: its next turn posts the status again (something it reads changed on
    /// another thread, as the content fetcher's status after a check).
    public func nudge() {
        lock.lock()
        let wake = wakeUp
        lock.unlock()
        wake?()
    }

    /// Queues a command produced on the player's own thread just before it drains (input): no wakeup, which
    /// would only make the next wait return at once for nothing.
    func queueFromLoop(_ command: PlayerCommand, toScreen screen: String? = nil) {
        lock.lock()
        queued.append(Envelope(command: command, reply: nil, screen: screen))
        lock.unlock()
    }

    /// Sends `command` and waits up to `timeout` seconds of real time for its reply (not from the player's thread).
    public func call(_ command: PlayerCommand, timeout: Double) -> CommandReply {
        let box = ReplyBox()
        send(command) { box.set($0) }
        return box.wait(timeout: timeout) ?? .failed("the player did not answer within \(timeout) s")
    }

    /// Wakes the loop through `wake` from now on (the output's wakeup), at once if commands are waiting.
    func wake(through wake: @escaping @Sendable () -> Void) {
        lock.lock()
        wakeUp = wake
        let waiting = !queued.isEmpty
        lock.unlock()
        if waiting { wake() }
    }

    /// Takes every queued command, oldest first.
    func drain() -> [Envelope] {
        lock.lock()
        defer { lock.unlock() }
        let out = queued
        queued.removeAll()
        return out
    }
}

/// Carries one reply across threads.
private final class ReplyBox: @unchecked Sendable {
    private let condition = NSCondition()
    private var reply: CommandReply?

    func set(_ r: CommandReply) {
        condition.lock()
        reply = r
        condition.broadcast()
        condition.unlock()
    }

    func wait(timeout: Double) -> CommandReply? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while reply == nil, condition.wait(until: deadline) {}
        return reply
    }
}

/// Remote-control servers send through the inbox.
extension CommandInbox: CommandSink {
    /// A sink whose every command is for screen `name` (a remote serving that screen).
    public func sink(forScreen name: String) -> CommandSink { ScreenCommandSink(inbox: self, screen: name) }
}

/// The inbox, each command addressed to one screen.
private final class ScreenCommandSink: CommandSink, @unchecked Sendable {
    let inbox: CommandInbox
    let screen: String

    init(inbox: CommandInbox, screen: String) {
        self.inbox = inbox
        self.screen = screen
    }

    func send(_ command: PlayerCommand, reply: (@Sendable (CommandReply) -> Void)?) {
        inbox.send(command, toScreen: screen, reply: reply)
    }
}
