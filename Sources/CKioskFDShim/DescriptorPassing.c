#define _GNU_SOURCE
#include "CKioskFDShim.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

int kiosk_web_memfd(const char *name) {
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

int kiosk_web_seal(int fd) {
    return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
}

int kiosk_web_is_sealed(int fd) {
    int seals = fcntl(fd, F_GET_SEALS);
    return seals >= 0 && (seals & F_SEAL_SHRINK) && (seals & F_SEAL_WRITE) ? 1 : 0;
}

ssize_t kiosk_web_send(int socket_fd, const void *bytes, size_t length, int fd, int dont_wait) {
    struct iovec io = { .iov_base = (void *)bytes, .iov_len = length };
    union { char buffer[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
    struct msghdr message;
    memset(&message, 0, sizeof message);
    memset(&control, 0, sizeof control);
    message.msg_iov = &io;
    message.msg_iovlen = 1;
    if (fd >= 0) {
        message.msg_control = control.buffer;
        message.msg_controllen = sizeof control.buffer;
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(header), &fd, sizeof(int));
    }
    ssize_t sent;
    do {
        sent = sendmsg(socket_fd, &message, MSG_NOSIGNAL | (dont_wait ? MSG_DONTWAIT : 0));
    } while (sent < 0 && errno == EINTR);
    return sent;
}

ssize_t kiosk_web_receive(int socket_fd, void *bytes, size_t capacity, int *fd) {
    *fd = -1;
    struct iovec io = { .iov_base = bytes, .iov_len = capacity };
    union { char buffer[CMSG_SPACE(sizeof(int) * 4)]; struct cmsghdr align; } control;
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = &io;
    message.msg_iovlen = 1;
    message.msg_control = control.buffer;
    message.msg_controllen = sizeof control.buffer;
    ssize_t received;
    do {
        received = recvmsg(socket_fd, &message, MSG_CMSG_CLOEXEC);
    } while (received < 0 && errno == EINTR);
    if (received < 0) return -1;
    int kept = -1;
    for (struct cmsghdr *h = CMSG_FIRSTHDR(&message); h != NULL; h = CMSG_NXTHDR(&message, h)) {
        if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int got;
            memcpy(&got, CMSG_DATA(h) + i * sizeof(int), sizeof(int));
            if (kept < 0) kept = got; else close(got);  /* one descriptor a message: any other is closed */
        }
    }
    if (message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
        if (kept >= 0) close(kept);
        errno = EMSGSIZE;
        return -1;
    }
    *fd = kept;
    return received;
}
