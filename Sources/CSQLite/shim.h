#include <sqlite3.h>

/// SQLITE_TRANSIENT (a cast macro Swift does not import): SQLite copies a bound text before the call returns.
static inline sqlite3_destructor_type kiosk_sqlite_transient(void) { return SQLITE_TRANSIENT; }
