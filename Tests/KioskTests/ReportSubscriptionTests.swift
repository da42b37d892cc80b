import Foundation
import KioskCore
import KioskMedia
import XCTest

/// Report subscriptions read from SMIL heads as A-SMIL (IAdea, Garlic) and signageOS write them: A-SMIL's
/// `<metadata><x-server><subscriptionList><subscription>` (and the older `<server>`) with type, action, method and
/// intervals; signageOS's `<meta log="true" endpoint=…>`; URLs against the index's URL; what kiosk cannot honour one
/// line naming FILE:LINE.
final class ReportSubscriptionTests: XCTestCase {
    private let index = "https://cms.example/screens/7/index.smil"

    private func read(_ smil: String) throws -> (subscriptions: [ReportSubscription], warnings: [String]) {
        ReportSubscriptions.read(root: try MarkupReader.parse(Array(smil.utf8), file: index), indexURL: index, name: index)
    }

    func testASMILSubscriptionsAreRead() throws {
        let read = try read("""
            <smil xmlns="http://www.w3.org/ns/SMIL" version="3.0">
              <head>
                <meta http-equiv="Refresh" content="60"/>
                <metadata>
                  <x-server xmlns="http://schemas.adfotain.org/adapi-1.0">
                    <subscriptionList>
                      <subscription>
                        <type>PlaylogCollection</type>
                        <action>../../logs/</action>
                        <method>put</method>
                        <refreshInterval>3600</refreshInterval>
                        <retryInterval>600</retryInterval>
                      </subscription>
                      <subscription>
                        <type>SystemReport</type>
                        <action>https://reports.example/system?screen=7</action>
                        <method>POST</method>
                        <refreshInterval> 300 </refreshInterval>
                      </subscription>
                    </subscriptionList>
                  </x-server>
                </metadata>
              </head>
              <body><img src="a.png" dur="5s"/></body>
            </smil>
            """)
        XCTAssertEqual(read.warnings, [])
        XCTAssertEqual(read.subscriptions, [
            ReportSubscription(kind: .playback, url: "https://cms.example/logs/", method: .put, period: 3600, retry: 600,
                               filePerBatch: true, source: "\(index):7"),
            ReportSubscription(kind: .status, url: "https://reports.example/system?screen=7", method: .post, period: 300,
                               source: "\(index):14"),
        ])
    }

    func testTheOlderServerShapeAndWebDAVMethodAreAPut() throws {
        let read = try read("""
            <smil><head><metadata><server xmlns="http://schemas.adfotain.org/adapi-1.0"><subscriptionList>
            <subscription><type>playlogcollection</type><action>http://logs.example/webdav_path</action><method>webdav</method></subscription>
            </subscriptionList></server></metadata></head><body/></smil>
            """)
        XCTAssertEqual(read.warnings, [])
        XCTAssertEqual(read.subscriptions, [ReportSubscription(kind: .playback, url: "http://logs.example/webdav_path", method: .put,
                                                               filePerBatch: true, source: "\(index):2")])
    }

    func testWhatKioskCannotHonourIsOneLineNamingFileAndLine() throws {
        let read = try read("""
            <smil>
              <head>
                <metadata><x-server><subscriptionList>
                  <subscription><type>EventlogCollection</type><action>/events</action><method>put</method></subscription>
                  <subscription><type>TaskSchedule</type><action>/tasks.xml</action><method>get</method></subscription>
                  <subscription><type>PlaylogCollection</type><action>/pop</action><method>get</method></subscription>
                  <subscription><action>/pop</action></subscription>
                  <subscription><type>SystemReport</type><method>put</method></subscription>
                  <subscription><type>PlaylogCollection</type><action>/pop</action><refreshInterval>hourly</refreshInterval></subscription>
                  <subscription><type>SystemReport</type><action>/status</action><refreshInterval>2</refreshInterval></subscription>
                  <subscription><type>PlaylogCollection</type><action>/second</action></subscription>
                </subscriptionList></x-server></metadata>
              </head>
              <body/>
            </smil>
            """)
        XCTAssertEqual(read.subscriptions, [
            ReportSubscription(kind: .playback, url: "https://cms.example/pop", method: .put, filePerBatch: true, source: "\(index):9"),
            ReportSubscription(kind: .status, url: "https://cms.example/status", method: .put, period: 10, source: "\(index):10"),
        ])
        XCTAssertEqual(read.warnings, [
            "\(index):4: kiosk does not send EventlogCollection reports (it sends PlaylogCollection and SystemReport); left out",
            "\(index):5: kiosk does not send TaskSchedule reports (it sends PlaylogCollection and SystemReport); left out",
            "\(index):6: PlaylogCollection method \"get\": kiosk sends reports by PUT or POST only; left out",
            "\(index):7: a <subscription> without a <type>; left out",
            "\(index):8: SystemReport without an <action> (the URL reports go to); left out",
            "\(index):9: PlaylogCollection refreshInterval \"hourly\" is not a number of seconds; the default is used",
            "\(index):10: SystemReport refreshInterval 2 s is outside 10 s to a day; 10 s is used",
            "\(index):11: a second playback report subscription; kiosk sends only the first (\(index):9)",
        ])
    }

    func testSignageOSMetaLogIsAPostOfProofOfPlay() throws {
        var found = try read("""
            <smil>
              <head>
                <meta log="true" type="manual,standard" endpoint="/api/proof-of-play?device=7" reportFileLimit="50"/>
              </head>
              <body/>
            </smil>
            """)
        XCTAssertEqual(found.warnings, [])
        XCTAssertEqual(found.subscriptions, [ReportSubscription(kind: .playback, url: "https://cms.example/api/proof-of-play?device=7",
                                                               method: .post, batchLimit: 50, source: "\(index):3")])
        found = try read("""
            <smil><head><meta log="false" type="manual" endpoint="https://pop.example/"/></head><body/></smil>
            """)
        XCTAssertEqual(found.subscriptions, [])
        XCTAssertEqual(found.warnings, [])
        found = try read("""
            <smil><head>
            <meta log="true" type="manual"/>
            <meta log="true" type="manual,weird" endpoint="https://pop.example/in" reportFileLimit="1000"/>
            <meta log="true" endpoint="ftp://pop.example/in"/>
            </head><body/></smil>
            """)
        XCTAssertEqual(found.subscriptions, [ReportSubscription(kind: .playback, url: "https://pop.example/in", method: .post, batchLimit: 500,
                                                               source: "\(index):3")])
        XCTAssertEqual(found.warnings, [
            "\(index):2: <meta log> without an endpoint reports to signageOS's own service, which kiosk does not; no reports are sent",
            "\(index):3: <meta log> type \"weird\" is not manual or standard; kiosk reports its play log's showings",
            "\(index):3: reportFileLimit 1000 is more than kiosk sends at once; 500 are",
            "\(index):4: <meta log> endpoint \"ftp://pop.example/in\": not an http or https URL; no reports are sent to it",
        ])
    }

    func testAnIndexFileIsReadThroughTheMarkupReader() throws {
        let dir = try TempDir()
        let file = dir.file("f-v1.smil")
        try """
            <smil><head><metadata><x-server><subscriptionList>
            <subscription><type>SystemReport</type><action>status.json</action></subscription>
            </subscriptionList></x-server></metadata></head><body/></smil>
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let read = try ReportSubscriptions.read(file: file, indexURL: index, name: index)
        XCTAssertEqual(read.subscriptions.map(\.url), ["https://cms.example/screens/7/status.json"])
        XCTAssertEqual(read.subscriptions.map(\.method), [.put])
        XCTAssertThrowsError(try ReportSubscriptions.read(file: dir.file("none.smil"), indexURL: index))
    }
}
