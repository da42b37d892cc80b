/// kiosk's version, as `kiosk --version` and the web page's system page show it.
public enum KioskVersion {
    /// The release: the number of the last issue it resolves, as `0.N`.
    public static let number = "0.28.0"
    /// `kiosk 0.28.0`.
    public static var text: String { "kiosk " + number }
}
