internal import CCurl
import Foundation
import KioskCore

/// libcurl is set up once per process, before the first handle (curl_global_init is not thread-safe).
private let curlGlobalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

/// One HTTP transfer on a libcurl easy handle, set up for content from a server: only http and https (for
/// redirects too, at most `maxRedirects`), TLS verified against the system's CAs or `caFile`, connect, total and
/// low-speed timeouts, a size limit (checked against Content-Length and while the body arrives), a bandwidth cap,
/// conditional requests from stored validators, and a `.part` file continued with `Range` + `If-Range`.
///
/// `perform()` runs it on the calling thread; `TransferQueue` runs several at once on one thread. A transfer is
/// used once.
public final class HTTPTransfer {
    /// What is asked.
    public let request: HTTPRequest
    let settings: FetchSettings
    let sink: ResponseSink
    /// The easy handle.
    let handle: UnsafeMutableRawPointer?
    private var headers: UnsafeMutablePointer<curl_slist>?
    private let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    /// The option that could not be set, if any (reported when the transfer runs).
    private var setupFailure: String?

    /// A transfer of `request` with its body into `target`.
    public init(_ request: HTTPRequest, into target: HTTPBodyTarget, settings: FetchSettings) {
        self.request = request
        self.settings = settings
        var offset: Int64 = 0
        if case .file(let path, _, let resume) = target, resume?.ifRange != nil, request.method == .get {
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG { offset = Int64(info.st_size) }
        }
        sink = ResponseSink(target: target, resumeOffset: offset)
        errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        handle = curlGlobalInit == CURLE_OK ? curl_easy_init() : nil
        if handle != nil { configure(resumeFrom: offset) }
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headers)
        errorText.deallocate()
    }

    /// Runs the transfer to its end on this thread.
    public func perform() throws(FetchError) -> HTTPResponse {
        try finish(handle.map { curl_easy_perform($0) } ?? CURLE_FAILED_INIT).get()
    }

    /// The validators of the body the server was sending (also when the transfer failed: a `.part` file they
    /// describe can be continued).
    public var receivedValidators: HTTPValidators { sink.head.validators }

    /// Whether a body of a 2xx reply began to arrive (a `.part` file was opened and written from its offset).
    public var bodyStarted: Bool { sink.decided && (200..<300).contains(sink.head.status) }

    /// Body bytes received so far.
    public var receivedBytes: Int64 { sink.received }

    /// HTTP requests made (1 plus each redirect followed), once it ran.
    public var requestCount: Int { info(CURLINFO_REDIRECT_COUNT) + 1 }

    /// Whether the handle is ready to run (else `finish` says why).
    var isReady: Bool { handle != nil && setupFailure == nil }

    // MARK: - setup

    private func configure(resumeFrom offset: Int64) {
        set(CURLOPT_URL, request.url)
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        set(CURLOPT_FOLLOWLOCATION, 1)
        set(CURLOPT_MAXREDIRS, settings.maxRedirects)
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_SSL_VERIFYPEER, 1)
        set(CURLOPT_SSL_VERIFYHOST, 2)
        if let ca = settings.caFile { set(CURLOPT_CAINFO, ca) }
        set(CURLOPT_CONNECTTIMEOUT_MS, Int(saturating: settings.connectTimeout * 1000))
        set(CURLOPT_TIMEOUT_MS, Int(saturating: settings.totalTimeout * 1000))
        set(CURLOPT_LOW_SPEED_LIMIT, settings.lowSpeedBytes)
        set(CURLOPT_LOW_SPEED_TIME, settings.lowSpeedSeconds)
        if request.method != .head { set(CURLOPT_MAXFILESIZE_LARGE, offset: sink.limit) }  // a HEAD's length is no body
        if let rate = settings.maxBytesPerSecond { set(CURLOPT_MAX_RECV_SPEED_LARGE, offset: rate) }
        set(CURLOPT_USERAGENT, settings.userAgent)
        check(kiosk_curl_setopt_ptr(handle, CURLOPT_ERRORBUFFER, errorText), "CURLOPT_ERRORBUFFER")
        let me = Unmanaged.passUnretained(sink).toOpaque()
        check(kiosk_curl_setopt_ptr(handle, CURLOPT_WRITEDATA, me), "CURLOPT_WRITEDATA")
        check(kiosk_curl_setopt_ptr(handle, CURLOPT_HEADERDATA, me), "CURLOPT_HEADERDATA")
        check(kiosk_curl_setopt_write_callback(handle) { data, size, count, user in
            guard let user else { return 0 }
            let sink = Unmanaged<ResponseSink>.fromOpaque(user).takeUnretainedValue()
            return sink.receive(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
        }, "CURLOPT_WRITEFUNCTION")
        check(kiosk_curl_setopt_header_callback(handle) { data, size, count, user in
            guard let user, let data else { return 0 }
            let sink = Unmanaged<ResponseSink>.fromOpaque(user).takeUnretainedValue()
            let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
            sink.head.read(line: String(decoding: bytes, as: UTF8.self))
            return size * count
        }, "CURLOPT_HEADERFUNCTION")
        var lines = ["Expect:"]  // no 100-continue round trip before a report's body
        switch request.method {
        case .get:
            lines += request.validators.conditionalHeaders
            if offset > 0, let ifRange = sink.resumeValidators?.ifRange {
                set(CURLOPT_RANGE, "\(offset)-")
                lines.append("If-Range: \(ifRange)")
            }
        case .head:
            set(CURLOPT_NOBODY, 1)
            lines += request.validators.conditionalHeaders
        case .put, .post:
            if request.method == .put { set(CURLOPT_CUSTOMREQUEST, "PUT") }
            set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(request.body.count))
            request.body.withUnsafeBufferPointer { body in
                let empty: CChar = 0
                withUnsafePointer(to: empty) { nothing in
                    let start = body.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) } ?? nothing
                    check(kiosk_curl_setopt_str(handle, CURLOPT_COPYPOSTFIELDS, start), "CURLOPT_COPYPOSTFIELDS")
                }
            }
            if let type = request.contentType, HTTPValidators.isSendable(type) { lines.append("Content-Type: \(type)") }
        }
        for line in lines { headers = curl_slist_append(headers, line) }
        check(kiosk_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers), "CURLOPT_HTTPHEADER")
    }

    private func set(_ option: CURLoption, _ value: String) {
        check(kiosk_curl_setopt_str(handle, option, value), "option \(option.rawValue)")
    }

    private func set(_ option: CURLoption, _ value: Int) {
        check(kiosk_curl_setopt_long(handle, option, value), "option \(option.rawValue)")
    }

    private func set(_ option: CURLoption, offset value: Int64) {
        check(kiosk_curl_setopt_off(handle, option, curl_off_t(value)), "option \(option.rawValue)")
    }

    private func check(_ code: CURLcode, _ what: String) {
        guard code != CURLE_OK, setupFailure == nil else { return }
        setupFailure = "libcurl refused \(what): \(String(cString: curl_easy_strerror(code)))"
    }

    // MARK: - the end

    /// The result of the transfer, once libcurl ended it with `code`.
    func finish(_ code: CURLcode) -> Result<HTTPResponse, FetchError> {
        if code == CURLE_OK { sink.finishEmptyBody() }
        sink.closeFile()
        let fail = { (reason: FetchError.Reason) in Result<HTTPResponse, FetchError>.failure(FetchError(url: self.request.url, reason: reason)) }
        guard handle != nil else { return fail(.transfer("libcurl could not start a transfer")) }
        if let setupFailure { return fail(.transfer(setupFailure)) }
        let status = sink.head.status
        if let failure = sink.failure { return fail(failure) }
        guard code == CURLE_OK else {
            if status >= 400 { return fail(.status(status)) }  // an error body cut short is still that error
            return fail(reason(for: code))
        }
        var response = HTTPResponse(status: info(CURLINFO_RESPONSE_CODE), validators: sink.head.validators,
                                    contentType: sink.head.contentType, body: sink.memory, receivedBytes: sink.received,
                                    fileBytes: sink.startOffset + sink.stored, resumedFrom: sink.startOffset,
                                    requests: requestCount, finalURL: request.url)
        var url: UnsafeMutablePointer<CChar>?
        if kiosk_curl_getinfo_str(handle, CURLINFO_EFFECTIVE_URL, &url) == CURLE_OK, let url { response.finalURL = String(cString: url) }
        if response.status == 304 && !request.validators.isEmpty { return .success(response) }
        guard (200..<300).contains(response.status) else { return fail(.status(response.status)) }
        if request.method != .head, let expected = sink.head.contentLength, expected != sink.stored {
            return fail(.length(expected: expected, actual: sink.stored))
        }
        if response.status == 206, let total = sink.head.contentRange?.total, total != response.fileBytes {
            return fail(.length(expected: total, actual: response.fileBytes))
        }
        return .success(response)
    }

    /// A libcurl failure in words.
    private func reason(for code: CURLcode) -> FetchError.Reason {
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL:
            if let location = sink.head.location, let scheme = Self.scheme(of: location), !["http", "https"].contains(scheme) {
                return .redirectRefused(scheme: scheme)
            }
        case CURLE_TOO_MANY_REDIRECTS: return .tooManyRedirects(settings.maxRedirects)
        case CURLE_FILESIZE_EXCEEDED: return .tooLarge(limit: sink.limit)
        default: break
        }
        let detail = String(cString: errorText).trimmingCharacters(in: .whitespacesAndNewlines)
        let text = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        return code == CURLE_OPERATION_TIMEDOUT ? .timedOut(text) : .transfer(text)
    }

    /// The lower-case scheme of `url` (`file` for `file:///etc/passwd`), if it has one.
    static func scheme(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let scheme = url[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return nil }
        return scheme.lowercased()
    }

    private func info(_ what: CURLINFO) -> Int {
        var value = 0
        return kiosk_curl_getinfo_long(handle, what, &value) == CURLE_OK ? value : 0
    }
}
