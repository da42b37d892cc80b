// The `kiosk` command: parses options and wires the parts. Exit codes: 0 ok, 1 runtime failure, 2 usage error.
import Foundation
import KioskCore
import KioskPlayer

StopSignal.ignoreWriteSignals()
let log = Log.shared
let arguments = Array(CommandLine.arguments.dropFirst())
exit(CommandLineTool(log: log).run(arguments))
