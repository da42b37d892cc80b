// The `kiosk` command: parses options and wires the parts. Exit codes: 0 ok, 1 runtime failure, 2 usage error.
import Foundation
import KioskCore
import KioskPlayer
import KioskSeat

StopSignal.ignoreWriteSignals()
let log = Log.shared
log.useSyslogPrefixes = JournalStream.isStandardError()  // journald then files each line under its level
// Arguments keep their bytes: a path that is not UTF-8 still names its file (`FileName`).
let arguments = (1..<Int(CommandLine.argc)).map { i in
    CommandLine.unsafeArgv[i].map { FileName.decode(UnsafeBufferPointer(start: $0, count: strlen($0)).map { UInt8(bitPattern: $0) }) } ?? ""
}
exit(CommandLineTool(log: log).run(arguments))
