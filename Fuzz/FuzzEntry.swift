import Foundation
import KioskMedia

/// One fuzz target: a name for `Kiosk/fuzz.sh` and what it does with one input.
struct FuzzTarget: Sendable {
    /// The name given to `Kiosk/fuzz.sh` (and in KIOSK_FUZZ_TARGET).
    let name: String
    /// Runs one input; it may throw away errors, but it traps (`check`) when an invariant breaks.
    let run: @Sendable (UnsafeBufferPointer<UInt8>) -> Void
}

/// Every target, in the order `Kiosk/fuzz.sh all` runs them: each writes its input to a scratch file and checks
/// the invariants `FuzzInvariants` (KioskMedia) keeps for it, the same ones FuzzRegressionTests checks.
let fuzzTargets: [FuzzTarget] = FuzzInvariants.targets.map { name in
    FuzzTarget(name: name) { bytes in
        let verdict = FuzzInvariants.check(target: name, path: FuzzFile.write(bytes))
        check(verdict != nil, "no invariants for target \(name)")
        check(verdict?.broken.isEmpty ?? true, "\(name): " + (verdict?.broken.joined(separator: "; ") ?? ""))
    }
} + FuzzWeb.targets

/// The target this process runs, from KIOSK_FUZZ_TARGET (libFuzzer gives one entry point per binary).
let selectedTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["KIOSK_FUZZ_TARGET"] ?? ""
    guard let target = fuzzTargets.first(where: { $0.name == name }) else {
        let names = fuzzTargets.map(\.name).joined(separator: " ")
        FileHandle.standardError.write(Data("kiosk-fuzz: KIOSK_FUZZ_TARGET='\(name)' is not one of: \(names)\n".utf8))
        exit(2)
    }
    return target
}()

/// libFuzzer's driver (in the runtime `-sanitize=fuzzer` links), called from `main` below.
@_extern(c, "LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>,
                     _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// The process: libFuzzer's own command line (`-runs=`, `-max_total_time=`, corpus folders). SwiftPM renames an
/// executable's entry point (its `--defsym main=` link step), so libFuzzer's `main` can't be the one; this one
/// hands the arguments to libFuzzer's driver instead.
@main
struct KioskFuzz {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        _ = selectedTarget  // an unknown target stops here, before libFuzzer starts
        exit(runFuzzerDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
    }
}

/// libFuzzer's entry point: one input per call.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selectedTarget.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}

/// Traps with `message` when `condition` is false: libFuzzer records the input as a crash.
func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        FileHandle.standardError.write(Data("kiosk-fuzz: invariant broken: \(message())\n".utf8))
        abort()
    }
}
