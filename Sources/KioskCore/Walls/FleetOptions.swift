/// The MQTT options of `kiosk play` (`--mqtt HOST[:PORT]` and the flags that go with it): the option table only;
/// the client that reads them is KioskFleet.
extension CommandSpecs {
    /// MQTT options of `kiosk play`: a broker to join a fleet through (commands, state, Home Assistant discovery).
    public static let fleet: [OptionSpec] = [
        OptionSpec("mqtt", .text, metavar: "HOST[:PORT]",
                   "join a fleet through this MQTT broker: commands, state and Home Assistant discovery under kiosk/ID/ "
                   + "(port default 1883, 8883 with --mqtt-tls-ca)"),
        OptionSpec("mqtt-id", .text, metavar: "NAME",
                   "this kiosk's ID in topics: letters, digits, '-' and '_' (default: the host name)"),
        OptionSpec("mqtt-user", .text, metavar: "NAME", "the broker's user name"),
        OptionSpec("mqtt-password-file", .text, metavar: "FILE",
                   "the broker's password: the first line of FILE (never on the command line)"),
        OptionSpec("mqtt-tls-ca", .text, metavar: "FILE", "connect with TLS, trusting the CA certificates in FILE"),
        OptionSpec("mqtt-keepalive", .integer(5...3600), metavar: "S",
                   "seconds between keepalive pings; the broker announces 'offline' 1.5 times this after kiosk vanishes (default 30)"),
    ]

    /// The options that need `--mqtt`.
    public static let fleetDependents = ["mqtt-id", "mqtt-user", "mqtt-password-file", "mqtt-tls-ca", "mqtt-keepalive"]
}
