#!/usr/bin/env python3
"""Makes every read of FILE by another process block, for SECONDS at most: a regular file whose read is stuck,
as on a dead network mount, without FUSE. fanotify's FAN_ACCESS_PERM (root) puts each read on hold until this
listener answers; it never answers, and prints one line per read it holds. When it exits (SECONDS, or killed)
the kernel lets the held reads go on. Usage: hold_reads.py FILE SECONDS"""
import ctypes
import os
import select
import struct
import sys
import time

FAN_CLASS_CONTENT = 0x04
FAN_ACCESS_PERM = 0x00020000
FAN_MARK_ADD = 0x01
AT_FDCWD = -100

libc = ctypes.CDLL(None, use_errno=True)
libc.fanotify_mark.argtypes = [ctypes.c_int, ctypes.c_uint, ctypes.c_uint64, ctypes.c_int, ctypes.c_char_p]


def fail(what):
    print(f"hold_reads: {what}: {os.strerror(ctypes.get_errno())}", flush=True)
    sys.exit(1)


path, seconds = sys.argv[1], float(sys.argv[2])
fan = libc.fanotify_init(FAN_CLASS_CONTENT, os.O_RDONLY)
if fan < 0:
    fail("fanotify_init")
if libc.fanotify_mark(fan, FAN_MARK_ADD, FAN_ACCESS_PERM, AT_FDCWD, path.encode()) < 0:
    fail("fanotify_mark")
print("ready", flush=True)
end = time.monotonic() + seconds
held = []  # the events' descriptors, kept open and never answered
while time.monotonic() < end:
    ready, _, _ = select.select([fan], [], [], max(0.0, end - time.monotonic()))
    if not ready:
        break
    data = os.read(fan, 4096)
    while len(data) >= 24:  # struct fanotify_event_metadata: u32 len, u8 vers, u8 res, u16 mlen, u64 mask, s32 fd, s32 pid
        length, _, _, _, mask, fd, pid = struct.unpack_from("=IBBHQii", data)
        held.append(fd)
        print(f"holding a read by pid {pid}", flush=True)
        data = data[length:]
