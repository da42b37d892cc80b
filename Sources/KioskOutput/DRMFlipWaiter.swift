internal import CDRM
import Foundation
import KioskCore

/// Waits for the page-flip events of a queued flip and reads its timestamp (CLOCK_MONOTONIC seconds). A flip of a
/// span or mirror moves several CRTCs and brings one event per CRTC (an atomic commit sends each the same user
/// data; legacy flips are queued one per CRTC with it): the flip is done when all have come.
final class DRMFlipWaiter {
    /// Where the event handler writes: `[0]` the last event's time, `[1]` the events still to come.
    private let slot: UnsafeMutablePointer<Double>

    /// A waiter with nothing pending.
    init() {
        slot = .allocate(capacity: 2)
        slot.initialize(repeating: 0, count: 2)
    }

    deinit { slot.deallocate() }

    /// Marks a flip pending that brings `events` page-flip events (one per CRTC it moves) and returns the user
    /// data to queue it with.
    func arm(events: Int = 1) -> UnsafeMutableRawPointer {
        slot[0] = 0
        slot[1] = Double(max(1, events))
        return UnsafeMutableRawPointer(slot)
    }

    /// Forgets a pending flip: its late events, if they come, are counted into nothing anybody waits for.
    func disarm() {
        slot[1] = 0
    }

    /// Whether a flip is armed and one of its events has not come yet.
    var isPending: Bool { slot[1] > 0 }

    /// Handles DRM events until the armed flip completes and returns its time; nil after `timeoutMs`
    /// without it (the flip stays pending; wait again later).
    func wait(device: DRMDevice, timeoutMs: Int32) throws -> Double? {
        var context = drmEventContext()
        context.version = 2
        context.page_flip_handler = { _, _, sec, usec, data in
            guard let p = data?.assumingMemoryBound(to: Double.self) else { return }
            p[0] = Double(sec) + Double(usec) / 1_000_000
            p[1] = max(0, p[1] - 1)
        }
        let deadline = MonotonicClock.seconds() + Double(timeoutMs) / 1000
        while slot[1] > 0 {
            let left = Int32(clamping: Int(saturating: max(0, (deadline - MonotonicClock.seconds()) * 1000), rounding: .towardZero))
            var pfd = pollfd(fd: device.fd, events: Int16(POLLIN), revents: 0)
            let n = poll(&pfd, 1, left)
            if n < 0 {
                if errno == EINTR { continue }
                throw DRMError.errno("poll", device.path, errno)
            }
            if n == 0 { return nil }
            if drmHandleEvent(device.fd, &context) != 0 {
                throw DRMError.errno("drmHandleEvent", device.path, errno)
            }
        }
        // Drivers without vblank timestamps report 0: fall back to the time the event arrived.
        return slot[0] > 0 ? slot[0] : MonotonicClock.seconds()
    }
}
