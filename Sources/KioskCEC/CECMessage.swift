import KioskCore

/// One HDMI-CEC message as it goes on the bus (HDMI 1.4b, CEC 1.4 supplement): a header byte (initiator in the
/// high nibble, destination in the low one; 15 is broadcast), then an opcode and its operands, 16 bytes at most.
/// Pure values: built and read here, sent and received by a `CECBus`.
public struct CECMessage: Sendable, Equatable, CustomStringConvertible {
    /// The bytes, header first (1...16 of them).
    public let bytes: [UInt8]

    /// A message of `bytes` (header, opcode, operands); nil when it is empty or longer than 16 bytes.
    public init?(bytes: [UInt8]) {
        guard (1...16).contains(bytes.count) else { return nil }
        self.bytes = bytes
    }

    /// A message from `initiator` to `destination` with `opcode` and `operands` (at most 14 bytes).
    public init(from initiator: UInt8, to destination: UInt8, _ opcode: CECOpcode, _ operands: [UInt8] = []) {
        bytes = [(initiator & 0xF) << 4 | (destination & 0xF), opcode.rawValue] + operands.prefix(14)
    }

    /// The logical address that sent it.
    public var initiator: UInt8 { bytes[0] >> 4 }
    /// The logical address it is for (15: everyone).
    public var destination: UInt8 { bytes[0] & 0xF }
    /// Whether it is for every device.
    public var isBroadcast: Bool { destination == CECAddress.broadcast }
    /// The opcode byte, if any (a header alone is a poll).
    public var opcode: UInt8? { bytes.count > 1 ? bytes[1] : nil }
    /// The bytes after the opcode.
    public var operands: ArraySlice<UInt8> { bytes.dropFirst(2) }

    /// `4f:82:10:00` (as cec-ctl prints them).
    public var description: String { bytes.map { String(format: "%02x", $0) }.joined(separator: ":") }
}

/// Logical addresses (CEC 1.4 table 5) and physical addresses.
public enum CECAddress {
    /// The TV.
    public static let tv: UInt8 = 0
    /// Every device.
    public static let broadcast: UInt8 = 15
    /// No address claimed yet.
    public static let unregistered: UInt8 = 15
    /// A physical address with none known (no HDMI sink, or the link is down).
    public static let invalidPhysical: UInt16 = 0xFFFF

    /// `1.0.0.0`.
    public static func physical(_ pa: UInt16) -> String {
        "\(pa >> 12).\((pa >> 8) & 0xF).\((pa >> 4) & 0xF).\(pa & 0xF)"
    }
}

/// The opcodes kiosk sends or answers (CEC 1.4 table 8 and 25).
public enum CECOpcode: UInt8, Sendable {
    case featureAbort = 0x00
    case imageViewOn = 0x04
    case textViewOn = 0x0D
    case standby = 0x36
    case userControlPressed = 0x44
    case userControlReleased = 0x45
    case giveOSDName = 0x46
    case setOSDName = 0x47
    case routingChange = 0x80
    case routingInformation = 0x81
    case activeSource = 0x82
    case givePhysicalAddress = 0x83
    case reportPhysicalAddress = 0x84
    case requestActiveSource = 0x85
    case setStreamPath = 0x86
    case deviceVendorID = 0x87
    case giveDeviceVendorID = 0x8C
    case menuRequest = 0x8D
    case menuStatus = 0x8E
    case giveDevicePowerStatus = 0x8F
    case reportPowerStatus = 0x90
    case inactiveSource = 0x9D
    case cecVersion = 0x9E
    case getCECVersion = 0x9F
    case abort = 0xFF
}

/// A device's power status (`<Report Power Status>`), as kiosk reports the TV's.
extension TVPower {
    /// The operand's value: 0 on, 1 standby, 2 in transition standby to on, 3 on to standby.
    public init(cecOperand: UInt8) {
        switch cecOperand {
        case 0: self = .on
        case 1: self = .standby
        case 2: self = .toOn
        case 3: self = .toStandby
        default: self = .unknown
        }
    }
}

/// `<Feature Abort>` reasons.
public enum CECAbortReason: UInt8, Sendable {
    case unrecognizedOpcode = 0
    case incorrectMode = 1
    case noSource = 2
    case invalidOperand = 3
    case refused = 4
}

extension CECMessage {
    /// `<Image View On>` to the TV: it leaves standby and shows an HDMI input.
    public static func imageViewOn(from me: UInt8) -> CECMessage { CECMessage(from: me, to: CECAddress.tv, .imageViewOn) }

    /// `<Active Source>`, broadcast: the TV switches to the input at `physical` (One Touch Play's second step).
    public static func activeSource(from me: UInt8, physical: UInt16) -> CECMessage {
        CECMessage(from: me, to: CECAddress.broadcast, .activeSource, [UInt8(physical >> 8), UInt8(physical & 0xFF)])
    }

    /// `<Inactive Source>` to the TV: kiosk no longer shows anything (screen off without Standby).
    public static func inactiveSource(from me: UInt8, physical: UInt16) -> CECMessage {
        CECMessage(from: me, to: CECAddress.tv, .inactiveSource, [UInt8(physical >> 8), UInt8(physical & 0xFF)])
    }

    /// `<Standby>` to `to` (the TV).
    public static func standby(from me: UInt8, to: UInt8 = CECAddress.tv) -> CECMessage { CECMessage(from: me, to: to, .standby) }

    /// `<Give Device Power Status>` to the TV; it answers `<Report Power Status>`.
    public static func giveDevicePowerStatus(from me: UInt8, to: UInt8 = CECAddress.tv) -> CECMessage {
        CECMessage(from: me, to: to, .giveDevicePowerStatus)
    }

    /// `<Report Power Status>` (kiosk's own, to whoever asked).
    public static func reportPowerStatus(from me: UInt8, to: UInt8, _ status: TVPower) -> CECMessage {
        let operand: UInt8 = switch status {
        case .on: 0
        case .standby: 1
        case .toOn: 2
        case .toStandby: 3
        case .unknown: 1
        }
        return CECMessage(from: me, to: to, .reportPowerStatus, [operand])
    }

    /// `<Menu Status>`: kiosk's menu is activated (0) or deactivated (1).
    public static func menuStatus(from me: UInt8, to: UInt8, activated: Bool) -> CECMessage {
        CECMessage(from: me, to: to, .menuStatus, [activated ? 0 : 1])
    }

    /// `<Feature Abort>` for `opcode` with `reason`.
    public static func featureAbort(from me: UInt8, to: UInt8, opcode: UInt8, reason: CECAbortReason) -> CECMessage {
        CECMessage(from: me, to: to, .featureAbort, [opcode, reason.rawValue])
    }

    /// `<User Control Pressed>` with UI command `code` (what a TV sends for its remote's key).
    public static func userControlPressed(from me: UInt8, to: UInt8, code: UInt8) -> CECMessage {
        CECMessage(from: me, to: to, .userControlPressed, [code])
    }

    /// The power status a `<Report Power Status>` carries; nil for another message or a short one.
    public var reportedPower: TVPower? {
        guard opcode == CECOpcode.reportPowerStatus.rawValue, let b = operands.first else { return nil }
        return TVPower(cecOperand: b)
    }

    /// The UI command of a `<User Control Pressed>`; nil for another message or a short one.
    public var pressedKey: UInt8? {
        guard opcode == CECOpcode.userControlPressed.rawValue else { return nil }
        return operands.first
    }

    /// The physical address a message carries first (`<Active Source>`, `<Set Stream Path>`, `<Routing
    /// Information>`); nil when it has fewer than two operand bytes.
    public var physicalOperand: UInt16? {
        let o = Array(operands)
        guard o.count >= 2 else { return nil }
        return UInt16(o[0]) << 8 | UInt16(o[1])
    }
}
