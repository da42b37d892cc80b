#ifndef CKIOSK_OPEN_SHIM_H
#define CKIOSK_OPEN_SHIM_H

#include <stdint.h>

/* openat2(2) through syscall(SYS_openat2, ...), which Swift cannot call (syscall is variadic). Opens `path`
 * relative to the folder `dirfd` with open(2)'s `flags` and `mode`, and `resolve` (RESOLVE_* bits) confining
 * the lookup. Returns the descriptor, or -1 with errno set (ENOSYS: the kernel is older than 5.6). */
int kiosk_openat2(int dirfd, const char *path, uint64_t flags, uint64_t mode, uint64_t resolve);

/* RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS from linux/openat2.h: the lookup stays under `dirfd` (no `..` above
 * it, no absolute path or symlink leaving it) and follows no /proc magic link. */
uint64_t kiosk_resolve_beneath(void);

/* O_PATH (a descriptor that only names a place; Glibc leaves it out without _GNU_SOURCE). */
int kiosk_o_path(void);

#endif
