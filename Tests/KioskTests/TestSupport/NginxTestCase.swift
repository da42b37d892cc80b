import Foundation
import XCTest

/// A test case with nginx from Debian serving a temp folder on 127.0.0.1 for each test (`NginxServer`): made in
/// `setUp`, stopped in `tearDown`. The content fetcher's tests share it.
class NginxTestCase: XCTestCase {
    /// The test's temp folder (nginx's files are in it).
    var dir: TempDir?
    /// The server.
    var nginx: NginxServer?

    override func setUpWithError() throws {
        let dir = try TempDir()
        self.dir = dir
        nginx = try NginxServer(dir)
    }

    override func tearDown() {
        nginx?.stop()
        nginx = nil
        dir = nil
    }
}
