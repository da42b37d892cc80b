#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

/// DRM_FORMAT_XRGB8888 (a function-like macro expansion Swift does not import).
static inline uint32_t kiosk_drm_format_xrgb8888(void) { return DRM_FORMAT_XRGB8888; }

// The output's waits poll DRM events together with an eventfd that wakes them from other threads.
#include <sys/eventfd.h>

/// A non-blocking, close-on-exec eventfd starting at 0 (the flags are macros over an enum Swift sees as Int32).
static inline int kiosk_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }
