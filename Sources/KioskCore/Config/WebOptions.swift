extension CommandSpecs {
    /// The web page's options of `kiosk play`.
    public static let web: [OptionSpec] = [
        OptionSpec("http", .text, metavar: "ADDR:PORT",
                   "serve the web page on ADDR:PORT (127.0.0.1:8080; [::1]:8080); any address but loopback needs --http-password-file"),
        OptionSpec("http-password-file", .text, metavar: "FILE", "the page's password, as 'kiosk passwd FILE' writes it (a crypt(3) hash)"),
        OptionSpec("http-token-file", .text, metavar: "FILE", "a bearer token for scripts (Authorization: Bearer TOKEN), on the file's first line"),
        OptionSpec("http-tls-cert", .text, metavar: "FILE", "serve HTTPS with this PEM certificate (with --http-tls-key)"),
        OptionSpec("http-tls-key", .text, metavar: "FILE", "the certificate's PEM private key"),
        OptionSpec("http-upload-mb", .integer(1...1_000_000), metavar: "N", "the largest upload in MiB (default 2048)"),
    ]
}
