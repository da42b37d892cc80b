#include <sqlite3.h>

/// SQLITE_TRANSIENT (a cast macro Swift does not import): SQLite copies a bound text before the call returns.
static inline sqlite3_destructor_type kiosk_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#include <sys/types.h>

/// SQLite running as root hands each file it creates (the WAL, the shared-memory index) to the database's owner
/// with fchown(2). kiosk writes its log as the one user it runs as, and its unit's system call filter refuses
/// chown: the unix VFS's fchown is replaced by one that does nothing (SQLite's own hook for its system calls).
static int kiosk_sqlite_no_fchown(int fd, uid_t uid, gid_t gid) { (void)fd; (void)uid; (void)gid; return 0; }
static inline int kiosk_sqlite_keep_owners(void) {
    sqlite3_vfs *vfs = sqlite3_vfs_find(0);
    if (!vfs || vfs->iVersion < 3 || !vfs->xSetSystemCall) return SQLITE_ERROR;
    return vfs->xSetSystemCall(vfs, "fchown", (sqlite3_syscall_ptr)kiosk_sqlite_no_fchown);
}
