#include <gbm.h>

/// GBM_FORMAT_XRGB8888 (a function-like macro expansion Swift does not import).
static inline uint32_t kiosk_gbm_format_xrgb8888(void) { return GBM_FORMAT_XRGB8888; }
