#!/usr/bin/env python3
"""Sends the same raw JSON IPC script to two servers and checks that they answer alike.

usage: compare_with_mpv.py --a SOCK_A --b SOCK_B [--shots DIR] [--ignore-event NAME ...] [--verbose]

Both servers must be running in the same state: idle-capable, the same two pictures as their playlist, playing
the first, each shown until told otherwise, e.g.
    mpv --idle --vo=null --ao=null --image-display-duration=inf --input-ipc-server=SOCK FIRST SECOND
A is the reference (mpv). For each request the script checks that both gave the same number of replies, that
the replies have the same set of keys, the same `error` string and the same `request_id` (value and type), and
that the events seen after it agree: their names, their keys, end-file's `reason` and property-change's `id` and
`name` (values may differ). Some steps also require an event (or its absence) on both. It prints one
`PASS name: detail` or `FAIL name: detail` line per request and exits 1 if any failed (2 on bad usage). The run is
bounded (--limit seconds, default 40).

screenshot-to-file writes DIR/compare-shot-a.png and DIR/compare-shot-b.png (DIR: --shots, default /tmp); both must
exist after it (mpv takes it from the decoded picture, even with --vo=null, while a file is playing; when idle it
answers "error running command"). The last request is `quit`: both servers exit and close the connection.
"""
import argparse
import json
import os
import select
import signal
import socket
import sys
import time
import traceback

STEP_LIMIT = 3.0  # the most a step waits for its replies and events


class Server:
    """One connection, reading lines as they come."""

    def __init__(self, label, path, timeout=5.0):
        self.label = label
        self.path = path
        self.buffer = b""
        self.closed = False
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(path)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                self.sock.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def send(self, line):
        try:
            self.sock.sendall(line.encode() + b"\n")
        except OSError:
            self.closed = True

    def read(self, until):
        """Lines that arrive before `until` (monotonic seconds); an empty list at the deadline."""
        lines = []
        while not lines and not self.closed:
            left = until - time.monotonic()
            if left <= 0:
                break
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                break
            except OSError:
                chunk = b""
            if not chunk:
                self.closed = True
                break
            self.buffer += chunk
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                lines.append(line.decode("utf-8", "replace"))
        return lines

    def request(self, command, request_id):
        """One request outside the compared script (setup): its reply, or None."""
        self.send(json.dumps({"command": command, "request_id": request_id}))
        deadline = time.monotonic() + STEP_LIMIT
        while time.monotonic() < deadline and not self.closed:
            for line in self.read(deadline):
                message = json.loads(line)
                if message.get("request_id") == request_id:
                    return message
        return None


def collect(servers, replies_expected, quiet):
    """For each server, (replies, events, raw lines) after a request: until its replies came and it was then quiet
    for `quiet` seconds (or STEP_LIMIT passed). The servers are read together."""
    results = {server.label: ([], [], []) for server in servers}
    start = time.monotonic()
    quiet_from = {server.label: start for server in servers}

    def done(server):
        replies = results[server.label][0]
        return server.closed or (len(replies) >= replies_expected and time.monotonic() - quiet_from[server.label] > quiet)

    while time.monotonic() - start < STEP_LIMIT:
        waiting = [server for server in servers if not done(server)]
        if not waiting:
            break
        ready, _, _ = select.select([server.sock for server in waiting], [], [], 0.02)
        for server in waiting:
            if server.sock not in ready:
                continue
            replies, events, raw = results[server.label]
            for line in server.read(time.monotonic() + 0.01):
                raw.append(line)
                quiet_from[server.label] = time.monotonic()
                try:
                    message = json.loads(line)
                except ValueError:
                    message = {"unparsable": line}
                (events if isinstance(message, dict) and "event" in message else replies).append(message)
    return [results[server.label] for server in servers]


def step(name, line, replies=1, must=(), must_not=(), files=()):
    """One request of the script: its raw line (or a function of the server's label), how many replies it gets
    (0 for a text command), events it must cause ((name, {field: value})) or must not, files ("%s": the label)
    it must write."""
    return {"name": name, "line": line, "replies": replies, "must": must, "must_not": must_not, "files": files}


def request(command, request_id, **extra):
    return json.dumps(dict({"command": command, "request_id": request_id}, **extra))


def screenshot(shots, request_id):
    """screenshot-to-file into a file of each server's own."""
    return lambda label: request(["screenshot-to-file", os.path.join(shots, "compare-shot-%s.png" % label)], request_id)


def script(shots):
    n = iter(range(1, 1000))
    return [
        step("get_version", request(["get_version"], next(n))),
        step("client_name", request(["client_name"], next(n))),
        step("get_time_us", request(["get_time_us"], next(n))),
        step("get_property pause", request(["get_property", "pause"], next(n))),
        step("get_property volume", request(["get_property", "volume"], next(n))),
        step("get_property playlist-count", request(["get_property", "playlist-count"], next(n))),
        step("get_property playlist-pos", request(["get_property", "playlist-pos"], next(n))),
        step("get_property idle-active", request(["get_property", "idle-active"], next(n))),
        step("get_property nonexistent-property", request(["get_property", "nonexistent-property"], next(n))),
        step("set_property pause true", request(["set_property", "pause", True], next(n))),
        step("set_property pause false", request(["set_property", "pause", False], next(n))),
        step("set_property volume \"abc\" (invalid)", request(["set_property", "volume", "abc"], next(n))),
        step("set_property playlist-count (read-only)", request(["set_property", "playlist-count", 5], next(n))),
        step("unknown command", request(["frobnicate"], next(n))),
        step("loadfile without its argument", request(["loadfile"], next(n))),
        step("get_property without its argument", request(["get_property"], next(n))),
        step("observe_property 1 pause", request(["observe_property", 1, "pause"], next(n)),
             must=[("property-change", {"id": 1, "name": "pause"})]),
        step("set_property pause true (observed)", request(["set_property", "pause", True], next(n)),
             must=[("property-change", {"id": 1, "name": "pause", "data": True})]),
        step("unobserve_property 1", request(["unobserve_property", 1], next(n))),
        step("set_property pause false (not observed)", request(["set_property", "pause", False], next(n)),
             must_not=["property-change"]),
        step("disable_event start-file", request(["disable_event", "start-file"], next(n))),
        step("playlist-next (start-file disabled)", request(["playlist-next"], next(n)),
             must=[("file-loaded", {})], must_not=["start-file"]),
        step("enable_event start-file", request(["enable_event", "start-file"], next(n))),
        step("playlist-prev", request(["playlist-prev"], next(n)), must=[("start-file", {}), ("end-file", {"reason": "stop"})]),
        step("enable_event of an unknown event", request(["enable_event", "no-such-event"], next(n))),
        step("malformed JSON", '{"command": ["get_property", "pause"'),
        step("request without request_id", json.dumps({"command": ["get_property", "pause"]})),
        step("string request_id", request(["get_property", "pause"], "abc")),
        step("text command 'set pause yes'", "set pause yes", replies=0),
        step("get_property pause after the text command", request(["get_property", "pause"], next(n))),
        step("set_property pause false again", request(["set_property", "pause", False], next(n))),
        step("seek 1 on a still", request(["seek", 1], next(n))),
        # Numbers past Int64 (issue 23 item 1): refused as mpv refuses them, and nothing moves (nor quits).
        step("set_property_string playlist-pos 1e19", request(["set_property_string", "playlist-pos", "1e19"], next(n)),
             must_not=["start-file"]),
        step("set_property playlist-pos 2^63-1", request(["set_property", "playlist-pos", 2**63 - 1], next(n))),
        step("set_property playlist-pos 1e19 (a double)", request(["set_property", "playlist-pos", 1e19], next(n))),
        step("set_property_string playlist-pos nan", request(["set_property_string", "playlist-pos", "nan"], next(n))),
        step("playlist-play-index 1e19", request(["playlist-play-index", 1e19], next(n))),
        step("playlist-play-index -2^63", request(["playlist-play-index", -2**63], next(n))),
        step("playlist-play-index 2^31", request(["playlist-play-index", 2**31], next(n))),
        step("seek nan", request(["seek", "nan"], next(n))),
        step("show-text with a duration of 1e19", request(["show-text", "x", 1e19], next(n))),
        step("set_property volume 1e19", request(["set_property", "volume", 1e19], next(n))),
        step("add playlist-pos nan", request(["add", "playlist-pos", "nan"], next(n))),
        step("quit 1e19 (not a code)", request(["quit", 1e19], next(n))),
        step("set_property loop-playlist 2^63-1", request(["set_property", "loop-playlist", 2**63 - 1], next(n))),
        step("set_property loop-playlist 1e19 (a double)", request(["set_property", "loop-playlist", 1e19], next(n))),
        step("set_property loop-playlist -1e19 (a double)", request(["set_property", "loop-playlist", -1e19], next(n))),
        step("set_property loop-playlist 2^31", request(["set_property", "loop-playlist", 2**31], next(n))),
        step("set_property_string loop-playlist 2^63", request(["set_property_string", "loop-playlist", str(2**63)], next(n))),
        step("set_property_string loop-playlist 1e19", request(["set_property_string", "loop-playlist", "1e19"], next(n))),
        step("set_property_string loop-playlist -inf", request(["set_property_string", "loop-playlist", "-inf"], next(n))),
        step("set_property_string loop-playlist 1 (no)", request(["set_property_string", "loop-playlist", "1"], next(n))),
        step("add playlist-pos 2^63-1 (from the first: clamped to the last)",
             request(["add", "playlist-pos", 2**63 - 1], next(n)), must=[("start-file", {})]),
        step("screenshot-to-file", screenshot(shots, next(n)), files=[os.path.join(shots, "compare-shot-%s.png")]),
        step("playlist-play-index out of range", request(["playlist-play-index", 99], next(n)),
             must=[("end-file", {"reason": "stop"}), ("idle", {})]),
        step("get_property idle-active when idle", request(["get_property", "idle-active"], next(n))),
        step("loadfile of a missing file", request(["loadfile", os.path.join(shots, "no-such-file.png"), "replace"], next(n)),
             must=[("start-file", {}), ("end-file", {"reason": "error"})]),
        step("get_property playlist-count after it", request(["get_property", "playlist-count"], next(n))),
        step("quit", request(["quit"], next(n))),
    ]


def signature(event):
    """What of an event is compared: its name and keys, end-file's reason, property-change's id and name."""
    extra = ()
    if event.get("event") == "end-file":
        extra = (("reason", event.get("reason")),)
    elif event.get("event") == "property-change":
        extra = (("id", json.dumps(event.get("id"))), ("name", event.get("name")))
    return (event.get("event"), tuple(sorted(event)), extra)


def shown(signatures):
    return sorted(name + ("" if not extra else str(dict(extra))) for name, _, extra in signatures)


def matches(event, name, fields):
    return event.get("event") == name and all(event.get(k) == v for k, v in fields.items())


def judge(s, a, b, ignored):
    """Problems with one step: (replies, events) of A and of B."""
    (ra, ea, _), (rb, eb, _) = a, b
    problems = []
    if len(ra) != len(rb) or len(ra) != s["replies"]:
        problems.append("replies: a %d, b %d, expected %d" % (len(ra), len(rb), s["replies"]))
    for x, y in zip(ra, rb):
        if sorted(x) != sorted(y):
            problems.append("keys: a %s, b %s" % (sorted(x), sorted(y)))
        if x.get("error") != y.get("error"):
            problems.append("error: a %r, b %r" % (x.get("error"), y.get("error")))
        if json.dumps(x.get("request_id")) != json.dumps(y.get("request_id")):
            problems.append("request_id: a %s, b %s" % (json.dumps(x.get("request_id")), json.dumps(y.get("request_id"))))
    sa = {signature(e) for e in ea if e.get("event") not in ignored}
    sb = {signature(e) for e in eb if e.get("event") not in ignored}
    if sa != sb:
        problems.append("events: only a %s, only b %s" % (shown(sa - sb), shown(sb - sa)))
    for label, events in (("a", ea), ("b", eb)):
        for name, fields in s["must"]:
            if not any(matches(e, name, fields) for e in events):
                problems.append("%s: no %s event %s" % (label, name, fields or ""))
        for name in s["must_not"]:
            if any(e.get("event") == name for e in events):
                problems.append("%s: a %s event, which should not come" % (label, name))
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--a", required=True, help="the reference server's socket (mpv)")
    parser.add_argument("--b", required=True, help="the socket of the server under test")
    parser.add_argument("--shots", default="/tmp", help="folder for the screenshot request's file")
    parser.add_argument("--ignore-event", action="append", default=[], help="an event name left out of the comparison")
    parser.add_argument("--limit", type=float, default=40)
    parser.add_argument("--quiet", type=float, default=0.25,
                        help="a step's events are those that come until the server was quiet this long after its reply")
    parser.add_argument("--verbose", action="store_true", help="print every line each server sent")
    args = parser.parse_args()

    def overrun(*_):
        print("FAIL time: the run took longer than %g s" % args.limit, flush=True)
        os._exit(1)

    signal.signal(signal.SIGALRM, overrun)
    signal.setitimer(signal.ITIMER_REAL, args.limit)

    servers = [Server("a", args.a), Server("b", args.b)]
    # Both must be playing before the script starts: wait until each has a path, then let startup events pass.
    for server in servers:
        deadline = time.monotonic() + 5
        reply = None
        while time.monotonic() < deadline:
            reply = server.request(["get_property", "path"], 900)
            if reply and reply.get("error") == "success":
                break
            time.sleep(0.05)
        if not (reply and reply.get("error") == "success"):
            print("FAIL setup: %s (%s) is not playing: %r" % (server.label, server.path, reply), flush=True)
            return 1
        collect([server], 0, args.quiet)

    failed = 0
    for s in script(args.shots):
        for template in s["files"]:  # a file left by an earlier run must not count
            for server in servers:
                if os.path.exists(template % server.label):
                    os.remove(template % server.label)
        for server in servers:
            line = s["line"]
            server.send(line(server.label) if callable(line) else line)
        a, b = collect(servers, s["replies"], args.quiet)
        if args.verbose:
            for label, (_, _, raw) in (("a", a), ("b", b)):
                for line in raw:
                    print("  %s< %s" % (label, line[:300]))
        problems = judge(s, a, b, set(args.ignore_event))
        for template in s["files"]:
            for label in ("a", "b"):
                path = template % label
                if not (os.path.isfile(path) and os.path.getsize(path) > 0):
                    problems.append("%s: no file %s" % (label, path))
        reply = a[0][0] if a[0] else None
        detail = "; ".join(problems) if problems else (
            "error %r, keys %s, events %s" % (reply.get("error"), sorted(reply), shown({signature(e) for e in a[1]}))
            if reply else "no reply; events %s" % shown({signature(e) for e in a[1]}))
        print("%s %s: %s" % ("FAIL" if problems else "PASS", s["name"], detail), flush=True)
        failed += bool(problems)
    # quit: both close the connection.
    for server in servers:
        deadline = time.monotonic() + STEP_LIMIT
        while not server.closed and time.monotonic() < deadline:
            server.read(deadline)
    closed = [server.closed for server in servers]
    print("%s quit closes: a %s, b %s" % ("PASS" if all(closed) else "FAIL",
                                          *("closed" if c else "still open" for c in closed)), flush=True)
    failed += not all(closed)
    print("compare_with_mpv: %d failed" % failed, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as error:  # an exception is a failed check too, with its line
        traceback.print_exc()
        print("FAIL %s: %s" % (type(error).__name__, error), flush=True)
        os._exit(1)
