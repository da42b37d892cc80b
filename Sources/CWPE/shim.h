// WPE WebKit 2.38's UI-process API (Debian's libwpewebkit-1.1-dev) and GLib, for the web helper's shim
// (CKioskWebShim): the web view, its settings, signals and the main loop.
#include <wpe/webkit.h>
