import KioskCore
import KioskInput
import KioskSeat

/// Which input devices each screen of several reads (issue 40): `--input-device PATH@NAME` as named; every other
/// device (those named without `@NAME`, or the seat's when none is named) given its screen by `InputRouting` (udev's
/// `WL_OUTPUT`, else a touchscreen's size against the displays'); the rest stay with the first screen. One line per
/// device routed, and per touchscreen left with the first screen, saying why.
enum ScreenInputs {
    /// Each screen's options, in `screens`' order (nil: it reads no input). One screen: `input` as it is. Devices
    /// are probed through `opener` (opened alone for a moment).
    static func plan(_ input: InputOptions?, screens: [InputRouting.ScreenFacts], opener: DeviceOpener, log: Log) -> [InputOptions?] {
        guard let input, input.enabled else { return screens.map { _ in nil } }
        guard screens.count > 1, let first = screens.first?.name else { return [input] }
        let candidates = input.devices.isEmpty ? LibinputSource.seatDevices(input.seat) : input.unnamedDevices
        let facts = candidates.compactMap { LibinputSource.facts(of: $0, opener: opener) }
        var routed: [String: String] = [:]
        let choices = InputRouting.route(facts, screens: screens)
        for choice in choices {
            let device = "\(choice.device.name) (\(choice.device.path))"
            if let screen = choice.screen {
                routed[choice.device.path] = screen
                log.info("input: \(device) is screen \(screen)'s: \(choice.reason)")
            } else if choice.device.isTouchscreen {
                log.info("input: touchscreen \(device) stays with screen \(first): \(choice.reason)")
            }
        }
        let panels = InputRouting.panels(choices, screens: screens)
        return input.forScreens(screens.map(\.name), routed: routed).map { options in
            guard var options else { return nil }
            options.panels = panels.filter { options.devices.contains($0.key) }  // a span's panel: its part of the canvas
            return options
        }
    }
}
