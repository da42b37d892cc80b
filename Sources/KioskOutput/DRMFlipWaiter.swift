internal import CDRM
import Foundation
import KioskCore

/// Waits for the page-flip event of a queued flip and reads its timestamp (CLOCK_MONOTONIC seconds).
final class DRMFlipWaiter {
    /// Where the event handler writes the flip time; negative while pending.
    private let slot: UnsafeMutablePointer<Double>

    /// A waiter with nothing pending.
    init() {
        slot = .allocate(capacity: 1)
        slot.initialize(to: 0)
    }

    deinit { slot.deallocate() }

    /// Marks a flip pending and returns the user data to queue it with.
    func arm() -> UnsafeMutableRawPointer {
        slot.pointee = -1
        return UnsafeMutableRawPointer(slot)
    }

    /// Whether a flip is armed and its event has not come yet.
    var isPending: Bool { slot.pointee < 0 }

    /// Handles DRM events until the armed flip completes and returns its time; nil after `timeoutMs`
    /// without it (the flip stays pending; wait again later).
    func wait(device: DRMDevice, timeoutMs: Int32) throws -> Double? {
        var context = drmEventContext()
        context.version = 2
        context.page_flip_handler = { _, _, sec, usec, data in
            data?.assumingMemoryBound(to: Double.self).pointee = Double(sec) + Double(usec) / 1_000_000
        }
        let deadline = MonotonicClock.seconds() + Double(timeoutMs) / 1000
        while slot.pointee < 0 {
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
        return slot.pointee > 0 ? slot.pointee : MonotonicClock.seconds()
    }
}
