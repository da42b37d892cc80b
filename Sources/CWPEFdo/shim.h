// wpebackend-fdo 1.14 (Debian's libwpebackend-fdo-1.0-dev): the exportable view backend whose frames arrive as
// shared-memory buffers (wl_shm, read with libwayland-server), for the web helper's shim (CKioskWebShim). The
// EGLImage path needs EGL_WL_bind_wayland_display, which Mesa's surfaceless platform does not offer.
#include <wpe/fdo.h>
#include <wpe/unstable/fdo-shm.h>
#include <wayland-server.h>
