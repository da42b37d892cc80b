#ifndef CKIOSK_FD_SHIM_H
#define CKIOSK_FD_SHIM_H

#include <stddef.h>
#include <sys/types.h>

/* Descriptor passing for the web helper's socket, in C because CMSG_* are macros and memfd_create's flags and the
 * seal constants do not import: memfds for frames, sealed, sent with SCM_RIGHTS. Used only by KioskWebContent. */

/* A new anonymous shared-memory file (memfd_create, close-on-exec, sealable) named `name`; -1 with errno. */
int kiosk_web_memfd(const char *name);

/* Seals the memfd `fd` against shrinking, growing and writing, so the reader's mapping cannot fault; 0 or -1. */
int kiosk_web_seal(int fd);

/* 1 when the memfd `fd` is sealed against shrinking (kiosk_web_seal), else 0. */
int kiosk_web_is_sealed(int fd);

/* Sends `length` bytes of `bytes` as one message on the socket `socket_fd`, with the descriptor `fd` attached
 * (SCM_RIGHTS) unless it is -1. `dont_wait`: MSG_DONTWAIT. Never raises SIGPIPE. Returns the bytes sent, or -1 with
 * errno. */
ssize_t kiosk_web_send(int socket_fd, const void *bytes, size_t length, int fd, int dont_wait);

/* Receives one message of at most `capacity` bytes into `bytes` from `socket_fd`; `*fd` is the descriptor that came
 * with it (close-on-exec) or -1. Returns the bytes received (0 at the end), or -1 with errno (EMSGSIZE when the
 * message or its descriptors did not fit; any descriptor received is then closed). */
ssize_t kiosk_web_receive(int socket_fd, void *bytes, size_t capacity, int *fd);

#endif
