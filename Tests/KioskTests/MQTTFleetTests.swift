import Foundation
import KioskCore
import XCTest

/// `kiosk play --mqtt` end to end against a real mosquitto broker on 127.0.0.1 (a free port, killed in tearDown),
/// with mosquitto_pub and mosquitto_sub as the other clients. Every kiosk is bounded in time and its standard
/// error read while it runs.
final class MQTTFleetTests: MQTTFleetTestCase {
    func testDiscoveryIsRetainedWithTheKeysHomeAssistantReads() throws {
        let p = try start("disco", try pictures())
        // A fresh subscriber after the connection gets every config: they are retained.
        // 14 of the player's, 13 of its health (7 sensors, a problem binary sensor per alert kind: MQTTHealthTests)
        let configs = try clients.messages(["homeassistant/+/+/config"], count: 27, seconds: 5)
        XCTAssertEqual(configs.count, 27, "\(configs.map(\.topic))")
        var byTopic: [String: JSONValue] = [:]
        for m in configs { byTopic[m.topic] = try JSONValue.parse(Array(m.payload.utf8)) }
        for (topic, json) in byTopic {
            XCTAssertEqual(json["availability_topic"], .string("kiosk/disco/availability"), topic)
            XCTAssertNotNil(json["unique_id"]?.string, topic)
            XCTAssertEqual(json["device"]?["identifiers"], .array([.string("kiosk_disco")]), topic)
        }
        let paused = try XCTUnwrap(byTopic["homeassistant/switch/disco_paused/config"])
        XCTAssertEqual(paused["command_topic"], .string("kiosk/disco/cmd/pause"))
        XCTAssertEqual(paused["state_topic"], .string("kiosk/disco/state"))
        XCTAssertEqual(paused["payload_on"], .string("on"))
        XCTAssertEqual(paused["payload_off"], .string("off"))
        XCTAssertNotNil(paused["value_template"]?.string)
        XCTAssertEqual(byTopic["homeassistant/switch/disco_screen/config"]?["command_topic"], .string("kiosk/disco/cmd/screen"))
        XCTAssertEqual(byTopic["homeassistant/button/disco_next/config"]?["command_topic"], .string("kiosk/disco/cmd/next"))
        XCTAssertEqual(byTopic["homeassistant/button/disco_previous/config"]?["command_topic"], .string("kiosk/disco/cmd/previous"))
        let volume = try XCTUnwrap(byTopic["homeassistant/number/disco_volume/config"])
        XCTAssertEqual(volume["min"], .int(0))
        XCTAssertEqual(volume["max"], .int(100))
        XCTAssertEqual(byTopic["homeassistant/sensor/disco_current_item/config"]?["json_attributes_topic"], .string("kiosk/disco/state"))
        XCTAssertEqual(byTopic["homeassistant/camera/disco_screen_camera/config"]?["topic"], .string("kiosk/disco/camera"))
        XCTAssertNil(byTopic["homeassistant/select/disco_playlist/config"], "no schedule, no playlist select")
        // the TV's power over HDMI-CEC: a sensor on the state's cec_power
        let tv = try XCTUnwrap(byTopic["homeassistant/sensor/disco_tv_power/config"])
        XCTAssertEqual(tv["state_topic"], .string("kiosk/disco/state"))
        XCTAssertEqual(tv["value_template"], .string("{{ value_json.cec_power or '' }}"))
        XCTAssertEqual(byTopic["homeassistant/sensor/disco_showings_today/config"]?["value_template"],
                       .string("{{ value_json.showings_today }}"))
        // the content fetcher: a sensor on the state's content (its result; the status as attributes), a check button
        let content = try XCTUnwrap(byTopic["homeassistant/sensor/disco_content/config"])
        XCTAssertEqual(content["value_template"], .string("{{ value_json.content.result if value_json.content else '' }}"))
        XCTAssertEqual(content["json_attributes_topic"], .string("kiosk/disco/state"))
        XCTAssertEqual(byTopic["homeassistant/button/disco_check_content/config"]?["command_topic"], .string("kiosk/disco/cmd/check-content"))
        // the emergency alert: a text entity writing cmd/alert and showing the state's alert, and a clear button
        let alert = try XCTUnwrap(byTopic["homeassistant/text/disco_alert/config"])
        XCTAssertEqual(alert["command_topic"], .string("kiosk/disco/cmd/alert"))
        XCTAssertEqual(alert["state_topic"], .string("kiosk/disco/state"))
        let clear = try XCTUnwrap(byTopic["homeassistant/button/disco_clear_alert/config"])
        XCTAssertEqual(clear["command_topic"], .string("kiosk/disco/cmd/alert"))
        XCTAssertEqual(clear["payload_press"], .string(#"{"clear": true}"#))
        XCTAssertEqual(try clients.messages(["kiosk/disco/availability"], count: 1, seconds: 3).first?.payload, "online")
        stop(p)
        XCTAssertEqual(try clients.messages(["kiosk/disco/availability"], count: 1, seconds: 3).first?.payload, "offline",
                       "a clean exit says offline")
    }

    func testStateIsRetainedAndFollowsCommands() throws {
        let p = try start("st", try pictures())
        let first = try XCTUnwrap(try state("st") { $0["index"] == .int(0) }, p.stderr)
        XCTAssertEqual(first["count"], .int(3))
        XCTAssertEqual(first["paused"], .bool(false))
        try clients.publish("kiosk/st/cmd/pause", "")
        XCTAssertNotNil(try state("st") { $0["paused"] == .bool(true) }, p.stderr)
        try clients.publish("kiosk/st/cmd/next", "")
        XCTAssertNotNil(try state("st") { $0["index"] == .int(1) }, p.stderr)
        try clients.publish("kiosk/st/cmd/volume", "37")
        XCTAssertNotNil(try state("st") { $0["volume"] == .int(37) }, p.stderr)
        try clients.publish("kiosk/st/cmd/mute", "on")
        XCTAssertNotNil(try state("st") { $0["muted"] == .bool(true) }, p.stderr)
        try clients.publish("kiosk/st/cmd/resume", "")
        XCTAssertNotNil(try state("st") { $0["paused"] == .bool(false) }, p.stderr)
        try clients.publish("kiosk/st/cmd/screen", "off")
        XCTAssertNotNil(try state("st") { $0["screen"] == .string("off") }, p.stderr)
        try clients.publish("kiosk/st/cmd/screen", "on")
        try clients.publish("kiosk/st/cmd/view", #"{"zoom": 2}"#)
        XCTAssertNotNil(try state("st") { $0["view"]?["zoom"]?.number == 2 }, p.stderr)
        try clients.publish("kiosk/st/cmd/previous", "")
        XCTAssertNotNil(try state("st") { $0["index"] == .int(0) }, p.stderr)
        XCTAssertTrue(p.waitFor("mqtt: kiosk/st/cmd/previous: done", timeout: 5), p.stderr)  // read from stderr while kiosk runs
        stop(p)
    }

    func testEventsTellOfItemsStartingAndEnding() throws {
        let p = try start("ev", try pictures())
        // Line-buffered, so that -d's "Subscribed" line arrives when the broker acknowledges the subscription.
        let sub = try LiveProcess(["-oL", clients.sub, "-d", "-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "kiosk/ev/event",
                                   "-C", "2", "-W", "15"], executable: "/usr/bin/stdbuf")
        kiosks.append(sub)
        // The subscription is in place once the broker acknowledged it, instead of after a fixed 0.5 s sleep.
        XCTAssertTrue(sub.waitForOutput("Subscribed (mid", timeout: 10), sub.stdout)
        try clients.publish("kiosk/ev/cmd/next", "")
        XCTAssertTrue(sub.waitForOutput("item-started", timeout: 10), sub.stdout + p.stderr)
        XCTAssertTrue(sub.waitForOutput("item-ended", timeout: 10), sub.stdout)
        _ = sub.finish(timeout: 20)
        let lines = sub.stdout.split(separator: "\n").compactMap { try? JSONValue.parse(Array($0.utf8)) }
        XCTAssertEqual(Set(lines.compactMap { $0["event"]?.string }), ["item-started", "item-ended"], sub.stdout)
        stop(p)
    }

    /// Polls the retained availability until it reads `wanted` (true) or `seconds` pass.
    private func availability(_ id: String, becomes wanted: String, within seconds: Double) throws -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            if try clients.messages(["kiosk/\(id)/availability"], count: 1, seconds: 1).first?.payload == wanted { return true }
            usleep(100_000)
        }
        return false
    }

    func testLastWillSaysOfflineAfterKill() throws {
        let p = try start("will", try pictures(), extra: ["--mqtt-keepalive", "5"])
        XCTAssertTrue(try availability("will", becomes: "online", within: 3))
        p.send(SIGKILL)
        _ = p.finish(timeout: 10)
        // The socket closed without a goodbye: the broker publishes the will at once.
        XCTAssertTrue(try availability("will", becomes: "offline", within: 5))
    }

    /// A kiosk that hangs keeps its socket open but sends no pings: after 1.5 keepalives (7.5 s) the broker gives up
    /// and publishes the will; once it runs again it reconnects and is online.
    func testLastWillSaysOfflineAfterAHangAndOnlineAfterIt() throws {
        let p = try start("hang", try pictures(), extra: ["--mqtt-keepalive", "5"])
        XCTAssertTrue(try availability("hang", becomes: "online", within: 3))
        p.send(SIGSTOP)
        let stopped = Date()
        let offline = try availability("hang", becomes: "offline", within: 15)
        let seconds = Date().timeIntervalSince(stopped)
        p.send(SIGCONT)
        XCTAssertTrue(offline, "no will within 15 s")
        XCTAssertGreaterThanOrEqual(seconds, 5, "the will came before the keepalive ran out: \(seconds) s")
        XCTAssertTrue(try availability("hang", becomes: "online", within: 10), p.stderr)
        stop(p)
    }

    func testBrokerRestartBringsReconnectionAndState() throws {
        let p = try start("re", try pictures())
        XCTAssertNotNil(try state("re") { $0["count"] == .int(3) })
        broker.stop()
        usleep(1_000_000)
        try broker.start()  // the same port, nothing retained (no persistence)
        let restarted = Date()
        // Reconnecting and re-publishing is the check; how soon is read through 1 s polls on a shared 2-core
        // machine, so the bound is generous (3x the 5 s asked for) and only catches a reconnect that never comes.
        let back = try state("re", seconds: 20) { $0["count"] == .int(3) }
        let seconds = Date().timeIntervalSince(restarted)
        XCTAssertNotNil(back, "state re-published after the broker came back: \(p.stderr)")
        XCTAssertLessThanOrEqual(seconds, 15, "reconnected in \(seconds) s")
        XCTAssertEqual(try clients.messages(["kiosk/re/availability"], count: 1, seconds: 3).first?.payload, "online")
        XCTAssertEqual(try clients.messages(["homeassistant/+/+/config"], count: 14, seconds: 3).count, 14, "discovery again")
        XCTAssertEqual(p.stderr.components(separatedBy: "mqtt: lost the broker").count - 1, 1, p.stderr)
        XCTAssertEqual(p.stderr.components(separatedBy: "mqtt: connected to").count - 1, 2, p.stderr)
        stop(p)
    }
}
