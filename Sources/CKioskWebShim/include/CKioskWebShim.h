#ifndef CKIOSK_WEB_SHIM_H
#define CKIOSK_WEB_SHIM_H

#include <stddef.h>

/* The web helper's glue to WPE WebKit, in C because Swift cannot connect GObject signals (g_signal_connect is a
 * macro over variadic marshalling) and wpebackend-fdo's client table wants plain C callbacks. No GLib or WPE type
 * appears here, so Swift sees only this header. Used only by KioskWebHelper (the kiosk-web-helper program). */

/* What the page did, for kiosk_web_event_hook. */
enum kiosk_web_event {
    /* The page and its resources finished loading (WEBKIT_LOAD_FINISHED without a failure). */
    KIOSK_WEB_EVENT_LOADED = 1,
    /* The page could not be loaded: text is "URI: reason". */
    KIOSK_WEB_EVENT_LOAD_FAILED = 2,
    /* The web process ended: text says why (crashed, over its memory limit). */
    KIOSK_WEB_EVENT_WEB_PROCESS_ENDED = 3,
    /* A navigation outside the page's folder was refused: text is the URI asked for. */
    KIOSK_WEB_EVENT_NAVIGATION_REFUSED = 4,
    /* The loaded page has painted: the frame just handed over (or, when none came within 150 ms of the page's second
     * animation frame after its load event, the latest one) shows it. Frames before this one may be blank. */
    KIOSK_WEB_EVENT_PAINTED = 5,
    /* The page called kiosk.done(). */
    KIOSK_WEB_EVENT_DONE = 6,
};

/* One painted frame: `pixels` (valid only during the call) holds `height` rows `stride` bytes apart, in the wl_shm
 * `format` (0: ARGB8888, 1: XRGB8888; little-endian, so B, G, R, A in memory; premultiplied alpha). */
typedef void (*kiosk_web_frame_hook)(void *context, const unsigned char *pixels, unsigned int width,
                                     unsigned int height, unsigned int stride, unsigned int format);

/* One event of `enum kiosk_web_event`; `text` (valid only during the call) may be "". */
typedef void (*kiosk_web_event_hook)(void *context, int event, const char *text);

/* Loads `uri` in an offscreen WPE web view of `width` x `height` device pixels (wpebackend-fdo's SHM export) and runs
 * the GLib main loop until `control_fd` reaches its end or an error (the parent went away) or a byte 'q' arrives on
 * it. Navigations whose URI does not start with `allowed_prefix` are refused, and so is every load from outside it (a
 * content filter: other files, http, https); http and https also go to a proxy that does not exist. The web context is
 * ephemeral (nothing is stored). Each painted frame goes to `frame`, each event to
 * `event`, both on the calling thread. Returns 0 when the loop ended, -1 when the view could not be made (the reason
 * in `error`, at most `error_size` bytes with its NUL). */
int kiosk_web_run(const char *uri, const char *allowed_prefix, unsigned int width, unsigned int height, int control_fd,
                  kiosk_web_frame_hook frame, kiosk_web_event_hook event, void *context, char *error, size_t error_size);

#endif
