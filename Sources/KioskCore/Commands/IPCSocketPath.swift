/// Where the remote-control socket lives when none is named (`--input-ipc-server auto`, `kiosk ctl` without
/// `--socket`): `$XDG_RUNTIME_DIR/kiosk/ipc.sock`, or `/run/kiosk/ipc.sock` when XDG_RUNTIME_DIR is unset.
public enum IPCSocketPath {
    /// The file name under the folder.
    public static let fileName = "ipc.sock"

    /// The default socket path for this environment.
    public static func standard(environment: [String: String]) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return (runtime.hasSuffix("/") ? runtime : runtime + "/") + "kiosk/" + fileName
        }
        return "/run/kiosk/" + fileName
    }
}
