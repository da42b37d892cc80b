#include "CKioskWebShim.h"
#include "FolderFilter.h"
#include <errno.h>
#include <glib-unix.h>
#include <stdio.h>
#include <sys/socket.h>
#include <string.h>
#include <unistd.h>
#include <wpe/webkit.h>
#include <wpe/fdo.h>
#include <wpe/unstable/fdo-shm.h>
#include <wayland-server.h>

/* One page being shown: the view, its backend and where its frames and events go. Lives on kiosk_web_run's stack. */
typedef struct {
    struct wpe_view_backend_exportable_fdo *exportable;
    GMainLoop *loop;
    const char *allowed_prefix;
    kiosk_web_frame_hook frame;
    kiosk_web_event_hook event;
    void *context;
    gboolean failed;
    gboolean awaiting_paint;  /* the page's second animation frame after load has run; the next frame shows it */
    gboolean was_painted;     /* KIOSK_WEB_EVENT_PAINTED was given */
    guint paint_timeout;
    guint load_timeout;
} kiosk_web_page;

/* What every page gets at the end of its document: `kiosk.done()`, and a message once the frame after its load
 * event has been drawn (two animation frames on), which is when its first real paint is on its way. */
static const char page_script[] =
    "window.kiosk = Object.freeze({ done: function () { window.webkit.messageHandlers.kiosk.postMessage('done'); } });"
    "(function () {"
    "  function painted() { requestAnimationFrame(function () { requestAnimationFrame(function () {"
    "    window.webkit.messageHandlers.kiosk.postMessage('painted'); }); }); }"
    "  if (document.readyState === 'complete') painted(); else addEventListener('load', painted, { once: true });"
    "})();";

static void painted(kiosk_web_page *page) {
    page->awaiting_paint = FALSE;
    page->was_painted = TRUE;
    if (page->paint_timeout != 0) g_source_remove(page->paint_timeout);
    page->paint_timeout = 0;
    page->event(page->context, KIOSK_WEB_EVENT_PAINTED, "");
}

/* No frame came after the page's message: the one before it already showed the page (a page that paints once). */
static gboolean on_paint_timeout(gpointer data) {
    kiosk_web_page *page = data;
    page->paint_timeout = 0;
    if (page->awaiting_paint) painted(page);
    return G_SOURCE_REMOVE;
}

/* The next frame shows the page; or, when none comes within 150 ms, the latest did. */
static void await_paint(kiosk_web_page *page) {
    if (page->awaiting_paint || page->was_painted || page->failed) return;
    page->awaiting_paint = TRUE;
    page->paint_timeout = g_timeout_add(150, on_paint_timeout, page);
}

/* The page's message did not come within 500 ms of its load (a script of its own stopped it, or a navigation it
 * started and was refused): its paints are taken from now on, as when it comes. */
static gboolean on_load_timeout(gpointer data) {
    kiosk_web_page *page = data;
    page->load_timeout = 0;
    await_paint(page);
    return G_SOURCE_REMOVE;
}

static void on_script_message(WebKitUserContentManager *manager, WebKitJavascriptResult *result, gpointer data) {
    (void)manager;
    kiosk_web_page *page = data;
    char *text = jsc_value_to_string(webkit_javascript_result_get_js_value(result));
    if (text != NULL && strcmp(text, "painted") == 0) {
        await_paint(page);
    } else if (text != NULL && strcmp(text, "done") == 0) {
        page->event(page->context, KIOSK_WEB_EVENT_DONE, "");
    }
    g_free(text);
}

/* A frame from the web process in shared memory: handed on while it is mapped, then released and acknowledged, so
 * WebKit paints the next one. */
static void on_shm_buffer(void *data, struct wpe_fdo_shm_exported_buffer *buffer) {
    kiosk_web_page *page = data;
    struct wl_shm_buffer *shm = wpe_fdo_shm_exported_buffer_get_shm_buffer(buffer);
    if (shm != NULL) {
        wl_shm_buffer_begin_access(shm);
        const unsigned char *pixels = wl_shm_buffer_get_data(shm);
        int width = wl_shm_buffer_get_width(shm), height = wl_shm_buffer_get_height(shm);
        int stride = wl_shm_buffer_get_stride(shm);
        if (pixels != NULL && width > 0 && height > 0 && stride >= width * 4) {
            page->frame(page->context, pixels, (unsigned int)width, (unsigned int)height, (unsigned int)stride,
                        (unsigned int)wl_shm_buffer_get_format(shm));
        }
        wl_shm_buffer_end_access(shm);
        if (page->awaiting_paint) painted(page);
    }
    wpe_view_backend_exportable_fdo_dispatch_release_shm_exported_buffer(page->exportable, buffer);
    wpe_view_backend_exportable_fdo_dispatch_frame_complete(page->exportable);
}

static void on_load_changed(WebKitWebView *view, WebKitLoadEvent load_event, gpointer data) {
    (void)view;
    kiosk_web_page *page = data;
    if (load_event == WEBKIT_LOAD_FINISHED && !page->failed) {
        page->event(page->context, KIOSK_WEB_EVENT_LOADED, "");
        if (page->load_timeout == 0 && !page->was_painted) page->load_timeout = g_timeout_add(500, on_load_timeout, page);
    }
}

static gboolean on_load_failed(WebKitWebView *view, WebKitLoadEvent load_event, gchar *failing_uri, GError *error,
                               gpointer data) {
    (void)view; (void)load_event;
    kiosk_web_page *page = data;
    page->failed = TRUE;
    char text[1024];
    snprintf(text, sizeof text, "%s: %s", failing_uri ? failing_uri : "", error && error->message ? error->message : "failed");
    page->event(page->context, KIOSK_WEB_EVENT_LOAD_FAILED, text);
    return TRUE;  /* no error page */
}

static void on_web_process_terminated(WebKitWebView *view, WebKitWebProcessTerminationReason reason, gpointer data) {
    (void)view;
    kiosk_web_page *page = data;
    const char *why = reason == WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT ? "the web process went over its memory limit"
                    : reason == WEBKIT_WEB_PROCESS_CRASHED ? "the web process crashed" : "the web process was ended";
    page->event(page->context, KIOSK_WEB_EVENT_WEB_PROCESS_ENDED, why);
}

/* Navigations (links, location changes, frames, new windows) stay inside the page's folder; everything else
 * (responses) takes WebKit's default. */
static gboolean on_decide_policy(WebKitWebView *view, WebKitPolicyDecision *decision, WebKitPolicyDecisionType type,
                                 gpointer data) {
    (void)view;
    kiosk_web_page *page = data;
    if (type != WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION && type != WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION)
        return FALSE;
    WebKitNavigationAction *action =
        webkit_navigation_policy_decision_get_navigation_action(WEBKIT_NAVIGATION_POLICY_DECISION(decision));
    WebKitURIRequest *request = action ? webkit_navigation_action_get_request(action) : NULL;
    const char *uri = request ? webkit_uri_request_get_uri(request) : NULL;
    if (uri != NULL && type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION
        && strncmp(uri, page->allowed_prefix, strlen(page->allowed_prefix)) == 0)
        return FALSE;
    webkit_policy_decision_ignore(decision);
    page->event(page->context, KIOSK_WEB_EVENT_NAVIGATION_REFUSED, uri ? uri : "");
    return TRUE;
}

/* The parent's end of the socket: its end (or an error, or 'q') ends the loop. */
static gboolean on_control(gint fd, GIOCondition condition, gpointer data) {
    kiosk_web_page *page = data;
    if (condition & G_IO_IN) {
        char byte[64];
        ssize_t n = recv(fd, byte, sizeof byte, MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) return G_SOURCE_CONTINUE;
        if (n > 0 && byte[0] != 'q') return G_SOURCE_CONTINUE;
    }
    g_main_loop_quit(page->loop);
    return G_SOURCE_REMOVE;
}

static const struct wpe_view_backend_exportable_fdo_client exportable_client = {
    .export_shm_buffer = on_shm_buffer,
};

int kiosk_web_run(const char *uri, const char *allowed_prefix, unsigned int width, unsigned int height, int control_fd,
                  kiosk_web_frame_hook frame, kiosk_web_event_hook event, void *context, char *error, size_t error_size) {
    if (!wpe_loader_init("libWPEBackend-fdo-1.0.so.1")) {
        snprintf(error, error_size, "cannot load libWPEBackend-fdo-1.0.so.1");
        return -1;
    }
    if (!wpe_fdo_initialize_shm()) {
        snprintf(error, error_size, "wpebackend-fdo's shared-memory export did not start");
        return -1;
    }
    WebKitUserContentFilter *filter = kiosk_web_folder_filter(allowed_prefix, error, error_size);
    if (filter == NULL) return -1;
    kiosk_web_page page = { .allowed_prefix = allowed_prefix, .frame = frame, .event = event, .context = context };
    page.exportable = wpe_view_backend_exportable_fdo_create(&exportable_client, &page, width, height);
    if (page.exportable == NULL) {
        snprintf(error, error_size, "cannot make a %ux%u view backend", width, height);
        webkit_user_content_filter_unref(filter);
        return -1;
    }
    struct wpe_view_backend *backend = wpe_view_backend_exportable_fdo_get_view_backend(page.exportable);
    wpe_view_backend_add_activity_state(backend, wpe_view_activity_state_visible | wpe_view_activity_state_focused
                                                 | wpe_view_activity_state_in_window);
    WebKitWebContext *web_context = webkit_web_context_new_ephemeral();
    WebKitWebsiteDataManager *data = webkit_web_context_get_website_data_manager(web_context);
    /* offline: http and https go to a proxy on a port nothing listens on (the discard port) */
    WebKitNetworkProxySettings *proxy = webkit_network_proxy_settings_new("http://127.0.0.1:9", NULL);
    webkit_website_data_manager_set_network_proxy_settings(data, WEBKIT_NETWORK_PROXY_MODE_CUSTOM, proxy);
    webkit_network_proxy_settings_free(proxy);
    WebKitWebViewBackend *view_backend = webkit_web_view_backend_new(
        backend, (GDestroyNotify)wpe_view_backend_exportable_fdo_destroy, page.exportable);
    /* every load outside the page's folder is blocked: other files, http, https */
    WebKitUserContentManager *content = webkit_user_content_manager_new();
    webkit_user_content_manager_add_filter(content, filter);
    webkit_user_content_filter_unref(filter);
    WebKitUserScript *script = webkit_user_script_new(page_script, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
                                                      WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_END, NULL, NULL);
    webkit_user_content_manager_add_script(content, script);
    webkit_user_script_unref(script);
    webkit_user_content_manager_register_script_message_handler(content, "kiosk");
    g_signal_connect(content, "script-message-received::kiosk", G_CALLBACK(on_script_message), &page);
    WebKitWebView *view = WEBKIT_WEB_VIEW(g_object_new(WEBKIT_TYPE_WEB_VIEW, "backend", view_backend, "web-context", web_context,
                                                       "user-content-manager", content, NULL));
    WebKitSettings *settings = webkit_web_view_get_settings(view);
    webkit_settings_set_allow_file_access_from_file_urls(settings, FALSE);
    webkit_settings_set_allow_universal_access_from_file_urls(settings, FALSE);
    webkit_settings_set_javascript_can_open_windows_automatically(settings, FALSE);
    webkit_settings_set_enable_page_cache(settings, FALSE);
    webkit_settings_set_enable_developer_extras(settings, FALSE);
    g_signal_connect(view, "load-changed", G_CALLBACK(on_load_changed), &page);
    g_signal_connect(view, "load-failed", G_CALLBACK(on_load_failed), &page);
    g_signal_connect(view, "web-process-terminated", G_CALLBACK(on_web_process_terminated), &page);
    g_signal_connect(view, "decide-policy", G_CALLBACK(on_decide_policy), &page);

    page.loop = g_main_loop_new(NULL, FALSE);
    guint watch = g_unix_fd_add(control_fd, G_IO_IN | G_IO_HUP | G_IO_ERR, on_control, &page);
    webkit_web_view_load_uri(view, uri);
    g_main_loop_run(page.loop);
    g_source_remove(watch);
    if (page.paint_timeout != 0) g_source_remove(page.paint_timeout);
    if (page.load_timeout != 0) g_source_remove(page.load_timeout);
    g_signal_handlers_disconnect_by_data(view, &page);
    g_signal_handlers_disconnect_by_data(content, &page);
    g_object_unref(view);
    g_object_unref(content);
    g_object_unref(web_context);
    g_main_loop_unref(page.loop);
    return 0;
}
