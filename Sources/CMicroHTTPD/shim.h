#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/// The limits kiosk's web server runs under (libmicrohttpd's options, which MHD_start_daemon takes as varargs).
struct kiosk_http_limits {
    unsigned int connections;        /* MHD_OPTION_CONNECTION_LIMIT */
    unsigned int per_address;        /* MHD_OPTION_PER_IP_CONNECTION_LIMIT */
    unsigned int idle_seconds;       /* MHD_OPTION_CONNECTION_TIMEOUT */
    size_t connection_memory;        /* MHD_OPTION_CONNECTION_MEMORY_LIMIT: the headers must fit in it */
    unsigned int threads;            /* MHD_OPTION_THREAD_POOL_SIZE */
};

/// The most query arguments a request may carry (the page reads 4; WebServer keeps 64). libmicrohttpd keeps each in
/// the connection's memory (64 KiB with the headers): past about 950 it runs out while parsing them and drops the
/// connection without an answer, and 256 did too when the headers that came with them had filled most of it.
#define KIOSK_HTTP_MAX_ARGUMENTS 64

/// The context `kiosk_http_uri_check` gives a request whose query it dropped (never a real object's address).
static inline void *kiosk_http_too_many_arguments(void) { return (void *)(uintptr_t)1; }

/// libmicrohttpd's URI callback, run on a request's target before its query is parsed: a query of more than
/// KIOSK_HTTP_MAX_ARGUMENTS arguments is emptied (its first byte after the `?`, in libmicrohttpd's read buffer,
/// becomes a NUL: libmicrohttpd has found the `?` already and parses the C string after it) and the request is
/// marked, for the access handler to answer 414 rather than the connection dying unanswered.
static inline void *kiosk_http_uri_check(void *cls, const char *uri, struct MHD_Connection *connection) {
    (void)cls; (void)connection;
    char *query = strchr(uri, '?');
    if (!query) return NULL;
    size_t arguments = 1, length = strlen(query);
    for (size_t i = 0; i < length; i++) arguments += query[i] == '&';
    if (arguments <= KIOSK_HTTP_MAX_ARGUMENTS) return NULL;
    query[1] = '\0';
    return kiosk_http_too_many_arguments();
}

/// Starts a daemon on `address` (IPv4 or IPv6) with an internal epoll thread pool; TLS (GnuTLS) when `tls_key`
/// and `tls_cert` (PEM text) are given. NULL when it cannot (the port taken, bad TLS material).
static inline struct MHD_Daemon *kiosk_http_start(const struct sockaddr *address, uint16_t port,
                                                  struct kiosk_http_limits limits,
                                                  MHD_AccessHandlerCallback handler, void *handler_cls,
                                                  MHD_RequestCompletedCallback completed,
                                                  MHD_NotifyConnectionCallback notify,
                                                  const char *tls_key, const char *tls_cert) {
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL;
    if (address->sa_family == AF_INET6) flags |= MHD_USE_IPv6;
    struct MHD_OptionItem options[] = {
        { MHD_OPTION_SOCK_ADDR, 0, (void *)address },
        { MHD_OPTION_CONNECTION_LIMIT, limits.connections, NULL },
        { MHD_OPTION_PER_IP_CONNECTION_LIMIT, limits.per_address, NULL },
        { MHD_OPTION_CONNECTION_TIMEOUT, limits.idle_seconds, NULL },
        { MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)limits.connection_memory, NULL },
        { MHD_OPTION_THREAD_POOL_SIZE, limits.threads, NULL },
        { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, handler_cls },
        { MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)notify, handler_cls },
        { MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)kiosk_http_uri_check, NULL },
        { MHD_OPTION_END, 0, NULL },  /* the TLS pair replaces this and the next when given */
        { MHD_OPTION_END, 0, NULL },
        { MHD_OPTION_END, 0, NULL },
    };
    if (tls_key && tls_cert) {
        flags |= MHD_USE_TLS;
        options[9] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)tls_key };
        options[10] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)tls_cert };
    }
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The client's address as text ("127.0.0.1", "::1") into `out`; 0 when known.
static inline int kiosk_http_client(struct MHD_Connection *connection, char *out, socklen_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr) return -1;
    const struct sockaddr *a = info->client_addr;
    const void *raw = a->sa_family == AF_INET6 ? (const void *)&((const struct sockaddr_in6 *)a)->sin6_addr
                                               : (const void *)&((const struct sockaddr_in *)a)->sin_addr;
    return inet_ntop(a->sa_family, raw, out, size) ? 0 : -1;
}

/// The connection's socket (to cut off a client that is too slow), or -1.
static inline int kiosk_http_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? (int)info->connect_fd : -1;
}
