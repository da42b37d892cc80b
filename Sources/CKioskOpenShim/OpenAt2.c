#define _GNU_SOURCE
#include "CKioskOpenShim.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

int kiosk_openat2(int dirfd, const char *path, uint64_t flags, uint64_t mode, uint64_t resolve) {
    struct open_how how = { .flags = flags, .mode = mode, .resolve = resolve };
    return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
}

uint64_t kiosk_resolve_beneath(void) { return RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS; }

int kiosk_o_path(void) { return O_PATH; }
