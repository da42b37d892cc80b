#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

/// DRM_FORMAT_XRGB8888 (a function-like macro expansion Swift does not import).
static inline uint32_t kiosk_drm_format_xrgb8888(void) { return DRM_FORMAT_XRGB8888; }
