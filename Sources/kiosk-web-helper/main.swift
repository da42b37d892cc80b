// kiosk-web-helper --fd N --size WxH PAGE: kiosk's web helper, started by kiosk (WebHelperProcess), not by people. It
// shows PAGE in WPE WebKit and talks to its parent on the inherited socket N until the parent closes it. A program of
// its own, not a kiosk subcommand, so the player never maps WebKit and its libraries (about 17 MiB of RSS and 33
// libraries more in every kiosk process). Exit codes: 0 ended by the parent, 1 the page could not be shown, 2 usage.
import Glibc
import KioskCore
import KioskWebContent
import KioskWebHelper

let arguments = Array(CommandLine.arguments.dropFirst())
func usage(_ why: String) -> Never {
    Log.writeStandardError("kiosk-web-helper: \(why) (kiosk starts it: --fd N --size WxH PAGE)\n")
    exit(2)
}
var fd: Int32?
var size: PixelSize?
var page: String?
var i = 0
while i < arguments.count {
    switch arguments[i] {
    case "--fd" where i + 1 < arguments.count:
        guard let n = Int32(arguments[i + 1]), n >= 3 else { usage("--fd: not a descriptor number") }
        fd = n
        i += 2
    case "--size" where i + 1 < arguments.count:
        guard let s = PixelSize(parsing: arguments[i + 1]) else { usage("--size: not WxH") }
        size = s
        i += 2
    default:
        guard page == nil, !arguments[i].hasPrefix("-") else { usage("unexpected '\(arguments[i])'") }
        page = arguments[i]
        i += 1
    }
}
guard let socket = fd, let size, let page else { usage("give --fd N --size WxH PAGE") }
guard fcntl(socket, F_GETFD) >= 0 else { usage("--fd \(socket) is not open") }
_ = fcntl(socket, F_SETFD, FD_CLOEXEC)  // WebKit's own children must not hold the parent's socket open
let location: WebPageLocation
do throws(WebContentError) { location = try WebPageLocation(path: page) } catch {
    Log.writeStandardError("kiosk-web-helper: \(error.description)\n")
    exit(1)
}
let status = WebHelper.run(uri: location.uri, allowedPrefix: location.folderPrefix, size: size, socket: socket)
// WebKit's web process leaves only when its main loop notices the helper is gone, which a page spinning in JavaScript
// never lets it do: as the leader of its own group (as kiosk starts it), the helper ends the group
if getpgrp() == getpid() { kill(0, SIGKILL) }
exit(status)
