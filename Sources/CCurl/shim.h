#include <curl/curl.h>

/* curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot call: one typed
   wrapper per argument type the content fetcher (KioskFetch) passes. */

/** A body or header callback, as CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION take it. */
typedef size_t (*kiosk_curl_data_callback)(char *data, size_t size, size_t count, void *user);
/** A request body reader, as CURLOPT_READFUNCTION takes it. */
typedef size_t (*kiosk_curl_read_callback)(char *buffer, size_t size, size_t count, void *user);
/** A progress callback, as CURLOPT_XFERINFOFUNCTION takes it (non-zero aborts the transfer). */
typedef int (*kiosk_curl_progress_callback)(void *user, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                                            curl_off_t ulnow);

static inline CURLcode kiosk_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode kiosk_curl_setopt_str(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode kiosk_curl_setopt_ptr(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode kiosk_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode kiosk_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode kiosk_curl_setopt_write_callback(CURL *handle, kiosk_curl_data_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode kiosk_curl_setopt_header_callback(CURL *handle, kiosk_curl_data_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}

static inline CURLcode kiosk_curl_setopt_read_callback(CURL *handle, kiosk_curl_read_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_READFUNCTION, callback);
}

static inline CURLcode kiosk_curl_setopt_progress_callback(CURL *handle, kiosk_curl_progress_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode kiosk_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode kiosk_curl_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode kiosk_curl_getinfo_str(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode kiosk_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
