/// The seam between the socket server (`IPCSocketServer`: sockets, threads, framing, queues) and a protocol
/// on top of it (mpv's JSON IPC). The server calls its handler on the server's own thread, one call at a time;
/// the handler answers through the `LineServerContext` it is given.

/// One connected client, for as long as its connection lasts (never reused within a server's life).
public struct ClientID: Hashable, Sendable, CustomStringConvertible {
    /// A number unique within the server's life.
    public let value: Int
    /// A client id.
    public init(_ value: Int) { self.value = value }
    /// `client 7`.
    public var description: String { "client \(value)" }
}

/// What a handler may do, on the server's thread.
public protocol LineServerContext: AnyObject {
    /// Queues `bytes` (whole lines, each ending in "\n") to `client`. A client whose queue would pass its bound
    /// is dropped (one log line) and false is returned; false too when the client is gone.
    @discardableResult
    func send(_ bytes: [UInt8], to client: ClientID) -> Bool
    /// Closes a client's connection once what is queued for it has been written (or at once when `flush` is
    /// false).
    func close(_ client: ClientID, flush: Bool)
    /// The clients connected now.
    var clients: [ClientID] { get }
}

/// A line protocol served by `IPCSocketServer`.
public protocol LineSessionHandler: AnyObject {
    /// A client connected.
    func accepted(_ client: ClientID, context: LineServerContext)
    /// One line from `client`, without its "\n" (nor a "\r" before it). Empty lines are passed too.
    func received(_ line: [UInt8], from client: ClientID, context: LineServerContext)
    /// `client` sent a line longer than the server's limit: the handler may send a last reply; the server then
    /// closes the connection.
    func overlong(from client: ClientID, limit: Int, context: LineServerContext)
    /// `client`'s connection is gone (it closed, it was dropped, or the server stops).
    func closed(_ client: ClientID, context: LineServerContext)
    /// The server's wakeup was raised (`IPCSocketServer.wake()`, from any thread): something for the handler
    /// to look at (player events, command replies).
    func woken(context: LineServerContext)
}
