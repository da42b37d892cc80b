#!/usr/bin/env python3
"""Drives an mpv JSON IPC server with python-mpv-jsonipc, the way a third-party program would.

usage: jsonipc_client.py --socket SOCK [--server mpv|kiosk] FIRST SECOND THIRD

The server must be running, idle-capable, with FIRST and SECOND as its playlist, playing FIRST, each picture shown
until told otherwise, e.g.
    mpv --idle --vo=null --ao=null --image-display-duration=inf --input-ipc-server=SOCK FIRST SECOND
THIRD is appended with loadfile. Prints one `PASS name: detail` or `FAIL name: detail` line per check and exits 1
if any check failed (2 on bad usage). The whole run is bounded (--limit seconds, default 25): past it, the
script prints a FAIL line and exits. The server is left running: with start_mpv=False, MPV.terminate() only
closes the connection.

--server kiosk relaxes only what the mpv documentation leaves to the player; each such place says why.
"""
import argparse
import json
import os
import queue
import signal
import socket
import time
import traceback

import python_mpv_jsonipc
from python_mpv_jsonipc import MPV, MPVError

failures = 0
checks = 0


def report(ok, name, detail):
    """One PASS/FAIL line; counts checks and failures."""
    global failures, checks
    checks += 1
    if not ok:
        failures += 1
    print(("PASS" if ok else "FAIL") + " " + name + ": " + detail, flush=True)
    return ok


def wait_for(read, want, timeout=3.0):
    """Polls read() until it returns want (or timeout); returns the last value read."""
    deadline = time.monotonic() + timeout
    value = None
    while True:
        try:
            value = read()
        except MPVError as e:
            value = "MPVError(%s)" % e
        if value == want or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


def take(q, timeout=2.0):
    """The next item of q, or None after timeout."""
    try:
        return q.get(timeout=timeout)
    except queue.Empty:
        return None


def drain(q, quiet=0.3):
    """Forgets what q holds and what comes until it has been quiet `quiet` seconds."""
    while take(q, quiet) is not None:
        pass


def raw_request(sock_path, command, timeout=3.0):
    """One request on a fresh raw connection: the reply object (events skipped)."""
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(timeout)
    s.connect(sock_path)
    try:
        s.sendall((json.dumps({"command": command, "request_id": 77}) + "\n").encode())
        f = s.makefile("rb")
        while True:
            line = f.readline()
            if not line:
                return None
            reply = json.loads(line)
            if reply.get("request_id") == 77:
                return reply
    finally:
        s.close()


def connect(sock_path, timeout=5.0):
    """MPV(start_mpv=False) on sock_path, retried while the server is still starting (no socket yet)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return MPV(start_mpv=False, ipc_socket=sock_path)
        except (FileNotFoundError, ConnectionRefusedError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--socket", required=True)
    parser.add_argument("--server", choices=["mpv", "kiosk"], default="mpv")
    parser.add_argument("--limit", type=float, default=25)
    parser.add_argument("files", nargs=3)
    args = parser.parse_args()
    first, second, third = args.files

    def overrun(*_):
        print("FAIL time: the run took longer than %g s" % args.limit, flush=True)
        os._exit(1)

    signal.signal(signal.SIGALRM, overrun)
    signal.setitimer(signal.ITIMER_REAL, args.limit)
    python_mpv_jsonipc.TIMEOUT = 5  # seconds per command (the library's default is 120)

    # Connecting reads property-list and command-list; commands become methods, properties attributes.
    m = connect(args.socket)
    needed = {"pause", "volume", "playlist_count", "playlist_pos", "playlist", "path", "idle_active"}
    missing = sorted(needed - m.properties)
    report(not missing, "connect", "%d properties, missing %s" % (len(m.properties), missing or "none"))
    methods = [name for name in ("loadfile", "playlist_next", "playlist_prev", "cycle") if not callable(getattr(m, name, None))]
    report(not methods, "command-list", "methods missing: %s" % (methods or "none"))

    # Reading properties.
    report(wait_for(lambda: m.path, first) == first, "path", "playing %r" % m.path)
    report(m.pause is False, "get pause", repr(m.pause))
    report(m.playlist_count == 2, "get playlist-count", repr(m.playlist_count))
    report(m.playlist_pos == 0, "get playlist-pos", repr(m.playlist_pos))
    playlist = m.playlist
    names = [entry.get("filename") for entry in playlist] if isinstance(playlist, list) else playlist
    report(names == [first, second], "get playlist", repr(names))
    volume = m.volume
    report(isinstance(volume, (int, float)) and not isinstance(volume, bool), "get volume", repr(volume))
    report(m.idle_active is False, "get idle-active", repr(m.idle_active))

    # Observing pause: the current value first, then each change.
    changes = queue.Queue()
    observer = m.bind_property_observer("pause", lambda name, value: changes.put((name, value)))
    initial = take(changes)
    report(initial == ("pause", False), "observe pause", "first change %r" % (initial,))
    m.pause = True
    report(take(changes) == ("pause", True), "set pause true", "observed change; reads back %r" % m.pause)
    m.pause = False
    report(take(changes) == ("pause", False), "set pause false", "observed change; reads back %r" % m.pause)
    m.cycle("pause")  # a command from command-list, called as a method
    report(take(changes) == ("pause", True) and m.pause is True, "cycle pause", "pause is %r" % m.pause)
    m.command("set_property", "pause", False)
    report(take(changes) == ("pause", False), "command set_property", "pause is %r" % m.pause)

    m.volume = 50
    report(wait_for(lambda: m.volume, 50) == 50, "set volume", "reads back %r" % m.volume)

    # Events and playlist moves.
    starts = queue.Queue()

    @m.on_event("start-file")
    def started(event):
        starts.put(event.get("event"))

    m.command("playlist-play-index", 1)
    report(take(starts) == "start-file", "start-file event", "after playlist-play-index 1")
    report(wait_for(lambda: m.playlist_pos, 1) == 1, "playlist-play-index", "playlist-pos %r" % m.playlist_pos)
    report(wait_for(lambda: m.path, second) == second, "path follows", repr(m.path))
    m.playlist_prev()
    report(wait_for(lambda: m.playlist_pos, 0) == 0 and wait_for(lambda: m.path, first) == first, "playlist-prev",
           "playlist-pos %r, path %r" % (m.playlist_pos, m.path))
    m.playlist_next()
    report(wait_for(lambda: m.playlist_pos, 1) == 1, "playlist-next", "playlist-pos %r" % m.playlist_pos)
    drain(starts)  # forget the moves' start-file events

    # loadfile append, then play what was appended.
    loaded = m.loadfile(third, "append")
    if args.server == "mpv":
        # mpv 0.34+ answers loadfile with the new entry's id; the IPC document does not promise it, so kiosk may
        # answer null.
        report(isinstance(loaded, dict) and "playlist_entry_id" in loaded, "loadfile reply", repr(loaded))
    report(wait_for(lambda: m.playlist_count, 3) == 3, "loadfile append", "playlist-count %r" % m.playlist_count)
    report(wait_for(lambda: m.playlist_pos, 1) == 1, "append keeps playing", "playlist-pos %r" % m.playlist_pos)
    m.command("playlist-play-index", 2)
    report(take(starts) == "start-file", "start-file after append", "playlist-play-index 2")
    report(wait_for(lambda: m.path, third) == third, "path of appended", repr(m.path))

    # Errors come back as MPVError with mpv's error string.
    for name, command, expected in [("unknown command", ["frobnicate"], "invalid parameter"),
                                    ("missing property", ["get_property", "nonexistent-property"], "property not found")]:
        try:
            m.command(*command)
            report(False, name, "no error")
        except MPVError as e:
            report(str(e) == expected, name, "MPVError(%r)" % str(e))

    # After unbinding, no more changes arrive.
    m.unbind_property_observer(observer)
    m.pause = True
    late = take(changes, 0.5)
    report(late is None, "unobserve", "late change %r" % (late,))
    m.pause = False

    # terminate() closes the connection and joins the library's threads; the server stays up.
    started_at = time.monotonic()
    m.terminate()
    took = time.monotonic() - started_at
    report(took < 3, "terminate", "%.2f s" % took)
    reader = m.mpv_inter.socket  # the library's reader thread (internal, but the one thing terminate must end)
    reader.join(2)
    report(not reader.is_alive(), "reader ended", "the connection's reader thread %s" % ("is still running" if reader.is_alive() else "ended"))
    reply = raw_request(args.socket, ["get_property", "playlist-count"])
    report(reply is not None and reply.get("data") == 3, "server alive", "after terminate: %r" % (reply,))

    print("jsonipc_client: %d checks, %d failed" % (checks, failures), flush=True)
    os._exit(1 if failures else 0)


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # an exception is a failed check too, with its line
        traceback.print_exc()
        print("FAIL %s: %s" % (type(error).__name__, error), flush=True)
        os._exit(1)
