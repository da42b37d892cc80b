import KioskCore

/// The content fetcher over IPC (`kiosk play URL`): kiosk's command `check-content` ("check now": the reply's data
/// is `checking URL`), and `loadfile` or `loadlist` of an http or https URL, which the fetcher plays from its cache once the index
/// and its media are there (as a new index swaps in: at the end of the item on screen). Its status is the property
/// `kiosk-content`.
enum MPVContentCommands {
    static let all: [MPVCommand] = [
        MPVCommand(name: "check-content", args: [], vararg: false) { _, c throws(MPVError) in
            guard let url = c.status.content?.url else {
                c.refuse("check-content", ContentStatus.notFetching)
                throw .command
            }
            return .player([.checkContent], failure: .command, data: .text("checking \(url)"))
        },
    ]

    /// `loadfile URL [replace]` (or `loadlist`, `command`) of an http or https URL: the fetcher's next check is of
    /// it. One index plays at a time, so another flag (`append`…) is "invalid parameter"; a URL the fetcher cannot
    /// take is "loading failed"; each with one line naming it (`MPVCommandContext.refuse`).
    static func load(_ given: String, flag: String?, _ c: MPVCommandContext, command: String) throws(MPVError) -> MPVAction {
        let shown = given.count <= 200 ? given : String(given.prefix(197)) + "..."
        guard flag == nil || flag == "replace" else {
            c.refuse("\(command) \(shown) \(flag ?? "")", "a URL replaces what plays (the content fetcher plays one index at a time)")
            throw .invalidParameter
        }
        guard let url = ContentMap.absolute(given, base: given), !given.utf8.contains(0) else {
            c.refuse("\(command) \(shown)", "not an http or https URL kiosk can fetch")
            throw .loadingFailed
        }
        return .player([.loadContent(url: url)], failure: .loadingFailed, data: .entryID)
    }
}
