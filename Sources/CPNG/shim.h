// libpng 1.6's API (Debian's libpng-dev), for the row-streaming PNG shim (CKioskPNGShim).
#include <png.h>
