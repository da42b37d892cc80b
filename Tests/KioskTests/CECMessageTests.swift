import CCEC
@testable import KioskCEC
import KioskCore
import XCTest

/// kiosk's CEC messages byte for byte against the kernel's own builders and parsers (linux/cec-funcs.h, the ones
/// cec-ctl and cec-compliance use), and the remote's keys through the key map.
final class CECMessageTests: XCTestCase {
    /// A message the kernel's header builds: `cec_msg_init` with the addresses, then `build`.
    private func kernel(_ from: UInt8, _ to: UInt8, _ build: (inout cec_msg) -> Void) -> [UInt8] {
        var m = cec_msg()
        cec_msg_init(&m, from, to)
        build(&m)
        var bytes = [UInt8](repeating: 0, count: 16)
        let n = kiosk_cec_msg_get(&m, &bytes)
        return Array(bytes.prefix(Int(n)))
    }

    func testMessagesKioskSendsMatchTheKernelsBuilders() {
        XCTAssertEqual(CECMessage.imageViewOn(from: 4).bytes, kernel(4, 0) { cec_msg_image_view_on(&$0) })
        XCTAssertEqual(CECMessage.activeSource(from: 4, physical: 0x1200).bytes, kernel(4, 15) { cec_msg_active_source(&$0, 0x1200) })
        XCTAssertEqual(CECMessage.activeSource(from: 4, physical: 0x1200).bytes, [0x4F, 0x82, 0x12, 0x00])
        XCTAssertEqual(CECMessage.inactiveSource(from: 4, physical: 0x1000).bytes, kernel(4, 0) { cec_msg_inactive_source(&$0, 0x1000) })
        XCTAssertEqual(CECMessage.standby(from: 4).bytes, kernel(4, 0) { cec_msg_standby(&$0) })
        XCTAssertEqual(CECMessage.giveDevicePowerStatus(from: 4).bytes, kernel(4, 0) { cec_msg_give_device_power_status(&$0, 0) })
        for (power, operand) in [(TVPower.on, 0), (.standby, 1), (.toOn, 2), (.toStandby, 3)] {
            XCTAssertEqual(CECMessage.reportPowerStatus(from: 4, to: 0, power).bytes,
                           kernel(4, 0) { cec_msg_report_power_status(&$0, UInt8(operand)) })
        }
        for activated in [true, false] {
            XCTAssertEqual(CECMessage.menuStatus(from: 4, to: 0, activated: activated).bytes,
                           kernel(4, 0) { cec_msg_menu_status(&$0, UInt8(activated ? CEC_OP_MENU_STATE_ACTIVATED : CEC_OP_MENU_STATE_DEACTIVATED)) })
        }
        XCTAssertEqual(CECMessage.featureAbort(from: 4, to: 0, opcode: 0x1A, reason: .unrecognizedOpcode).bytes,
                       kernel(4, 0) { cec_msg_feature_abort(&$0, 0x1A, UInt8(CEC_OP_ABORT_UNRECOGNIZED_OP)) })
        XCTAssertEqual(CECMessage.featureAbort(from: 4, to: 0, opcode: 0x8D, reason: .invalidOperand).bytes,
                       kernel(4, 0) { cec_msg_feature_abort(&$0, 0x8D, UInt8(CEC_OP_ABORT_INVALID_OP)) })
    }

    func testMessagesTheTVSendsAreReadAsTheKernelReadsThem() throws {
        // <Report Power Status> from the TV, each value
        for operand in UInt8(0)...3 {
            var m = cec_msg()
            cec_msg_init(&m, 0, 4)
            cec_msg_report_power_status(&m, operand)
            let bytes = kernel(0, 4) { cec_msg_report_power_status(&$0, operand) }
            var parsed: UInt8 = 0xFF
            cec_ops_report_power_status(&m, &parsed)
            let message = try XCTUnwrap(CECMessage(bytes: bytes))
            XCTAssertEqual(message.reportedPower, TVPower(cecOperand: parsed))
            XCTAssertEqual(message.initiator, 0)
            XCTAssertEqual(message.destination, 4)
        }
        // <User Control Pressed> right (0x04) and the number 7 (0x27)
        for ui in [UInt8(0x04), 0x27, 0x72] {
            var command = cec_op_ui_command()
            command.ui_cmd = ui
            let bytes = kernel(0, 4) { cec_msg_user_control_pressed(&$0, &command) }
            XCTAssertEqual(try XCTUnwrap(CECMessage(bytes: bytes)).pressedKey, ui)
        }
        // <Set Stream Path> 1.0.0.0, broadcast
        let path = kernel(0, 15) { cec_msg_set_stream_path(&$0, 0x1000) }
        let stream = try XCTUnwrap(CECMessage(bytes: path))
        XCTAssertEqual(stream.physicalOperand, 0x1000)
        XCTAssertTrue(stream.isBroadcast)
        XCTAssertEqual(stream.description, "0f:86:10:00")
        XCTAssertNil(CECMessage(bytes: []), "no header")
        XCTAssertNil(CECMessage(bytes: [UInt8](repeating: 0, count: 17)), "longer than the bus allows")
        XCTAssertNil(CECMessage(bytes: [0x04, 0x90])?.reportedPower, "a short report is nothing")
    }

    func testTheRemotesKeysGoThroughTheKeyMap() throws {
        var keys = KeyMap()
        // right and left are the keyboard's arrows; select is OK (the info overlay); exit is back
        XCTAssertEqual(keys.handle(code: CECKeys.code(ui: 0x04), pressed: true), .action(.next))
        XCTAssertEqual(keys.handle(code: CECKeys.code(ui: 0x04), pressed: false), .ignored)
        XCTAssertEqual(keys.handle(code: CECKeys.code(ui: 0x03), pressed: true), .action(.previous))
        XCTAssertEqual(keys.handle(code: CECKeys.code(ui: 0x00), pressed: true), .action(.overlay))
        XCTAssertEqual(keys.handle(code: CECKeys.code(ui: 0x0D), pressed: true), .action(.back))
        XCTAssertEqual(keys.handle(code: CECKeys.code(ui: 0x46), pressed: true), .action(.pause))
        XCTAssertEqual(keys.handle(code: CECKeys.code(ui: 0x72), pressed: true), .ignored, "red does nothing by default")
        // a held key: the TV repeats <User Control Pressed>, and each is a press
        XCTAssertEqual(keys.handle(code: CECKeys.code(ui: 0x04), pressed: true), .action(.next))
        XCTAssertEqual(keys.handle(code: CECKeys.code(ui: 0x04), pressed: true), .action(.next))
        // --key cec:NAME=ACTION rebinds the TV's key alone, not the keyboard's
        try keys.bind("cec:red=next")
        try keys.bind("cec:right=pause")
        XCTAssertEqual(keys.handle(code: CECKeys.code(ui: 0x72), pressed: true), .action(.next))
        XCTAssertEqual(keys.handle(code: CECKeys.code(ui: 0x04), pressed: true), .action(.pause))
        XCTAssertEqual(keys.handle(code: 106, pressed: true), .action(.next), "the keyboard's right is still next")
        XCTAssertThrowsError(try keys.bind("cec:purple=next")) { e in
            XCTAssertTrue("\(e)".hasPrefix("--key: 'cec:purple' is not a CEC key (cec:select, cec:up"), "\(e)")
        }
        // the number keys type digits for a layout's accesskey()
        XCTAssertEqual(KeyCode.character(CECKeys.code(ui: 0x27)), "7")
        XCTAssertEqual(KeyCode.character(CECKeys.code(ui: 0x20)), "0")
        XCTAssertNil(KeyCode.character(CECKeys.code(ui: 0x04)))
    }
}
