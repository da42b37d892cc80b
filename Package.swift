// swift-tools-version:6.0
// kiosk: an offline, full-screen slideshow player for Linux (DRM/KMS + GBM + EGL + GLES).
import PackageDescription

/// One system-library module per C library the product uses; each is imported by exactly one Swift target, with
/// `internal import`, so no C type leaks out of the target that wraps it (Tests/KioskTests/LayeringTests checks both).
let cModules: [Target] = [
    .systemLibrary(name: "CDRM", path: "Sources/CDRM", pkgConfig: "libdrm",
                   providers: [.apt(["libdrm-dev"])]),
    .systemLibrary(name: "CGBM", path: "Sources/CGBM", pkgConfig: "gbm",
                   providers: [.apt(["libgbm-dev"])]),
    .systemLibrary(name: "CEGL", path: "Sources/CEGL", pkgConfig: "egl",
                   providers: [.apt(["libegl-dev", "libgles-dev"])]),
    .systemLibrary(name: "CFFmpeg", path: "Sources/CFFmpeg", pkgConfig: "libavformat",
                   providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev",
                                     "libswscale-dev", "libswresample-dev"])]),
    .systemLibrary(name: "CALSA", path: "Sources/CALSA", pkgConfig: "alsa",
                   providers: [.apt(["libasound2-dev"])]),
    // libinput's seat backend takes a udev context, so libinput.h brings libudev into KioskInput too.
    .systemLibrary(name: "CLibinput", path: "Sources/CLibinput", pkgConfig: "libinput",
                   providers: [.apt(["libinput-dev", "libudev-dev"])]),
    // libudev for the display side alone: the drm hotplug monitor in KioskOutput.
    .systemLibrary(name: "CUdev", path: "Sources/CUdev", pkgConfig: "libudev",
                   providers: [.apt(["libudev-dev"])]),
    .systemLibrary(name: "CWebP", path: "Sources/CWebP", pkgConfig: "libwebpdemux",
                   providers: [.apt(["libwebp-dev"])]),
    // JPEG stills: libjpeg-turbo's DCT scaling and scanline streaming (with djpeg from libjpeg-turbo-progs as the
    // benchmark's reference).
    .systemLibrary(name: "CJPEG", path: "Sources/CJPEG", pkgConfig: "libjpeg",
                   providers: [.apt(["libjpeg62-turbo-dev"])]),
    // PNG stills asked for smaller than they are: libpng read a row at a time (CKioskPNGShim), so a huge PNG is
    // scaled as it is read and never held whole.
    .systemLibrary(name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng",
                   providers: [.apt(["libpng-dev"])]),
    .systemLibrary(name: "CGif", path: "Sources/CGif",
                   providers: [.apt(["libgif-dev"])]),
    .systemLibrary(name: "CSystemd", path: "Sources/CSystemd", pkgConfig: "libsystemd",
                   providers: [.apt(["libsystemd-dev"])]),
    // Text on screen: glyph rasterising, shaping (hb-ft.h ties HarfBuzz to a FreeType face) and font lookup.
    .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
                   providers: [.apt(["libfreetype-dev"])]),
    .systemLibrary(name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz",
                   providers: [.apt(["libharfbuzz-dev"])]),
    .systemLibrary(name: "CFontconfig", path: "Sources/CFontconfig", pkgConfig: "fontconfig",
                   providers: [.apt(["libfontconfig-dev"])]),
    // XML for SMIL layouts and XMP packets: libxml2's tree parser, with no network, DTD or entity expansion.
    .systemLibrary(name: "CLibXML2", path: "Sources/CLibXML2", pkgConfig: "libxml-2.0",
                   providers: [.apt(["libxml2-dev"])]),
    // MQTT for fleets: libmosquitto's client (its own network thread, reconnects, last will, TLS).
    // the web page: libmicrohttpd's server (its GnuTLS for HTTPS) and libxcrypt's crypt(3) for the password
    .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
    .systemLibrary(name: "CCrypt", path: "Sources/CCrypt", pkgConfig: "libxcrypt", providers: [.apt(["libcrypt-dev"])]),
    // the proof-of-play log
    .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    // the kernel's HDMI-CEC API: headers only (linux/cec.h), no library
    .systemLibrary(name: "CCEC", path: "Sources/CCEC", providers: [.apt(["linux-libc-dev"])]),
    // content from a server: libcurl is the HTTP client of the content fetcher (KioskFetch), the only part that speaks
    // HTTP; libsodium checks signed content (minisign's Ed25519 signatures) and hashes media (SHA-256) in KioskTrust
    .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
    .systemLibrary(name: "CSodium", path: "Sources/CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
    .systemLibrary(name: "CMosquitto", path: "Sources/CMosquitto", pkgConfig: "libmosquitto",
                   providers: [.apt(["libmosquitto-dev"])]),
    // web content: WPE WebKit renders a page offscreen in `kiosk web-helper`; wpebackend-fdo hands its frames over as
    // shared memory (wl_shm, read with libwayland-server). Both are wrapped by one C shim (CKioskWebShim).
    .systemLibrary(name: "CWPE", path: "Sources/CWPE", pkgConfig: "wpe-webkit-1.1",
                   providers: [.apt(["libwpewebkit-1.1-dev"])]),
    .systemLibrary(name: "CWPEFdo", path: "Sources/CWPEFdo", pkgConfig: "wpebackend-fdo-1.0",
                   providers: [.apt(["libwpebackend-fdo-1.0-dev", "libwpe-1.0-dev", "libwayland-dev"])]),
]

let package = Package(
    name: "kiosk",
    products: [
        .executable(name: "kiosk", targets: ["kiosk"]),
        .executable(name: "kiosk-web-helper", targets: ["kiosk-web-helper"]),
    ],
    targets: cModules + [
        // Pure Swift: media model, playlist items and M3U text, media extensions, slideshow scheduler, view maths,
        // config, the monotonic clock. No C imports and no file-system access (the playlist loader is in KioskMedia).
        .target(name: "KioskCore"),
        // openat2(2) is reached through syscall, which is variadic: one C function, used only by KioskMedia.
        .target(name: "CKioskOpenShim"),
        // libjpeg's fatal errors longjmp, which Swift cannot catch: each libjpeg call that can fail runs inside a setjmp
        // in one C file, used only by KioskMedia.
        .target(name: "CKioskJPEGShim", dependencies: ["CJPEG"]),
        // libpng's fatal errors longjmp too: its header and row reads run inside a setjmp in one C file, used only by
        // KioskMedia.
        .target(name: "CKioskPNGShim", dependencies: ["CPNG"]),
        // Media on disk: the playlist loader (files, folders, .m3u files), SMIL layouts read with libxml2, decoders
        // and encoders (ffmpeg, libwebp, giflib, libjpeg-turbo). The only place those C modules are imported.
        .target(name: "KioskMedia", dependencies: ["KioskCore", "CFFmpeg", "CWebP", "CGif", "CJPEG", "CKioskJPEGShim", "CKioskPNGShim", "CKioskOpenShim",
                                                   "CLibXML2"]),
        // EGL context, GL resources and shader passes. The only place EGL/GLES is imported.
        // Shaders/*.vert|*.frag are embedded into it at build time by the ShaderEmbed plugin.
        .target(name: "KioskRender", dependencies: ["KioskCore", "CEGL"],
                plugins: ["ShaderEmbed"]),
        // Text on screen: fonts found by fontconfig, shaped by HarfBuzz, rasterised by FreeType into a glyph atlas,
        // laid out into lines; hands the renderer a plain `TextDrawing` (KioskCore). The only place those C modules
        // are imported.
        .target(name: "KioskText", dependencies: ["KioskCore", "CFreeType", "CHarfBuzz", "CFontconfig"]),
        // Build tool: turns shader files into a Swift dictionary `embeddedShaders` (file name -> source).
        .executableTarget(name: "shader-embed", path: "Sources/shader-embed"),
        // Build-tool plugin running shader-embed over the top-level Shaders/ folder.
        .plugin(name: "ShaderEmbed", capability: .buildTool(), dependencies: ["shader-embed"],
                path: "Plugins/ShaderEmbed"),
        // ALSA's variadic error-handler callback, which Swift cannot express: one C file, used only by KioskAudio.
        .target(name: "CKioskALSAShim", dependencies: ["CALSA"]),
        // Sound: ALSA playback and the audio clock. The only place ALSA is imported.
        .target(name: "KioskAudio", dependencies: ["KioskCore", "CALSA", "CKioskALSAShim"]),
        // The seat: how device nodes are opened (`DeviceOpener`: open(2) directly, or a logind session's
        // TakeDevice), and the service manager (sd_notify: ready, watchdog, status; whether stderr is the journal).
        // Outputs and input open their devices through it. The only place libsystemd is imported.
        .target(name: "KioskSeat", dependencies: ["KioskCore", "CSystemd"]),
        // Outputs: headless (FBO read-back), virtual time and DRM/KMS, and the display hotplug monitor. The only
        // place libdrm, GBM and CUdev are imported.
        .target(name: "KioskOutput", dependencies: ["KioskCore", "KioskRender", "KioskSeat", "CDRM", "CGBM", "CUdev"]),
        // Input devices: libinput over the udev seat or explicit device nodes. The only place libinput is imported.
        .target(name: "KioskInput", dependencies: ["KioskCore", "KioskSeat", "CLibinput"]),
        // The player: wires clock, slideshow, decoders, renderer, output, input, seat and sound; keeps its state
        // file (the item, position, volume and pause across restarts).
        .target(name: "KioskPlayLog", dependencies: ["KioskCore", "CSQLite", "KioskTrust"]),  // KioskTrust: the chain's SHA-256, its Ed25519 signatures
        .target(name: "KioskPlayer", dependencies: ["KioskCore", "KioskMedia", "KioskRender", "KioskOutput", "KioskInput",
                                                    "KioskSeat", "KioskAudio", "KioskText", "KioskPlayLog"]),
        // Remote control: a Unix-socket line server (its own thread, many clients, bounded queues) and mpv's JSON
        // IPC over it. Speaks to the player only through commands and the player's board. Foundation and libc only.
        .target(name: "KioskRemote", dependencies: ["KioskCore"]),
        // Fleets: an MQTT client (libmosquitto) that turns messages into commands and publishes the player's board
        // (state, availability, events, Home Assistant discovery, camera). Speaks to the player only through
        // commands and the board, like KioskRemote. The only place libmosquitto is imported.
        .target(name: "KioskFleet", dependencies: ["KioskCore", "KioskRemote", "CMosquitto"]),
        .target(name: "KioskCEC", dependencies: ["KioskCore", "CCEC"]),
        // The web page: libmicrohttpd's server, sessions, the pages and the JSON API. Speaks to the player only through
        // the backend kiosk passes in (commands, the board). The only place libmicrohttpd and crypt(3) are imported.
        .target(name: "KioskWeb", dependencies: ["KioskCore", "CMicroHTTPD", "CCrypt"]),
        // Signed content: minisign public keys and signatures (Ed25519, libsodium) and SHA-256 of files. The only place
        // libsodium is imported.
        .target(name: "KioskTrust", dependencies: ["KioskCore", "CSodium"]),
        // The content fetcher: SMIL indexes, playlists and their media pulled over HTTP (libcurl) into a local cache,
        // signed bundles from a folder; the player plays from the cache. The only part of kiosk that speaks HTTP and the
        // only place libcurl is imported.
        .target(name: "KioskFetch", dependencies: ["KioskCore", "KioskMedia", "KioskTrust", "CCurl"]),
        // memfds and SCM_RIGHTS descriptor passing for the web helper's socket (CMSG_* are macros): used only by
        // KioskWebContent.
        .target(name: "CKioskFDShim"),
        // Web pages as content, the player's side: the helper's messages, starting, reading and ending the helper
        // (`kiosk-web-helper`), its frames as pictures. No WebKit here. Not KioskWeb, the admin page's server.
        .target(name: "KioskWebContent", dependencies: ["KioskCore", "CKioskFDShim"]),
        // WPE WebKit's signals, main loop and SHM frames: C that Swift cannot write (g_signal_connect), used only by
        // KioskWebHelper.
        .target(name: "CKioskWebShim", dependencies: ["CWPE", "CWPEFdo"],
                linkerSettings: [.linkedLibrary("wayland-server")]),  // wl_shm_buffer_*: not in wpebackend-fdo's pkg-config libs
        // The web helper itself: one page in WPE WebKit offscreen, its frames sent as memfds. The only place WebKit is
        // imported; linked only into kiosk-web-helper, so the player never maps WebKit.
        .target(name: "KioskWebHelper", dependencies: ["KioskCore", "KioskWebContent", "CKioskWebShim"]),
        .executableTarget(name: "kiosk-web-helper", dependencies: ["KioskCore", "KioskWebContent", "KioskWebHelper"]),
        .executableTarget(name: "kiosk", dependencies: ["KioskCore", "KioskMedia", "KioskPlayer", "KioskRemote", "KioskFleet",
                                                        "KioskSeat", "KioskCEC", "KioskPlayLog", "KioskWeb", "KioskTrust",
                                                        "KioskFetch", "KioskWebContent"]),
        // The benchmark: figures for this machine against ffmpeg in the same run (Kiosk/bench.sh).
        .executableTarget(name: "kiosk-bench", dependencies: ["KioskCore", "KioskMedia", "KioskRender", "KioskOutput",
                                                             "KioskPlayer", "KioskPlayLog"]),
        .testTarget(name: "KioskTests",
                    dependencies: ["KioskCore", "KioskMedia", "KioskRender", "KioskOutput", "KioskPlayer",
                                   "KioskAudio", "KioskInput", "KioskSeat", "KioskRemote", "KioskText", "KioskFleet",
                                   "KioskCEC", "CCEC", "KioskPlayLog", "KioskWeb", "KioskTrust", "KioskFetch",
                                   "KioskWebContent"],
                    exclude: ["Fixtures"]),
    ]
)

/// The libFuzzer harness (Fuzz/, `Kiosk/fuzz.sh`): only with KIOSK_FUZZ set, so the normal build and tests never
/// see it or link libFuzzer. fuzz.sh builds it with `-sanitize=fuzzer,address` in its own build folder (.build-fuzz).
if Context.environment["KIOSK_FUZZ"] != nil {
    package.products.append(.executable(name: "kiosk-fuzz", targets: ["kiosk-fuzz"]))
    package.targets.append(.executableTarget(name: "kiosk-fuzz", dependencies: ["KioskCore", "KioskMedia", "KioskWeb"],
                                             path: "Fuzz",
                                             swiftSettings: [.enableExperimentalFeature("Extern")]))
}
