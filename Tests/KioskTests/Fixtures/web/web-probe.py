#!/usr/bin/env python3
"""Hostile clients for the web server, with Python's own sockets (no kiosk code, no HTTP library that would clean
what it sends):

  web-probe.py crowd HOST PORT ADDRESSES EACH     opens EACH connections from each of ADDRESSES loopback source
                                                  addresses (127.0.0.2, 127.0.0.3, ...), each sending half a request
                                                  and then nothing; then a fresh client from 127.0.0.1 asks for
                                                  /login. Prints {"opened", "status", "answered_after"} (seconds;
                                                  null: no answer within 15 s)
  web-probe.py raw HOST PORT FILE                 sends FILE's bytes as they are (a request's head, CRLFs included);
                                                  prints {"status", "closed", "body"} of the answer (status null:
                                                  the connection ended without one)
"""
import json
import socket
import sys
import time


def answer(s, limit):
    """The status and body of the one answer on s, read until it is whole, closed, or `limit` seconds pass."""
    s.settimeout(0.2)
    data, closed, stop = b"", False, time.monotonic() + limit
    while time.monotonic() < stop:
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            continue
        except OSError:
            closed = True
            break
        if not chunk:
            closed = True
            break
        data += chunk
        head, sep, body = data.partition(b"\r\n\r\n")
        if sep:
            length = [l.split(b":", 1)[1].strip() for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")]
            if length and len(body) >= int(length[0]):
                break
    status = None
    if data.startswith(b"HTTP/1.1 "):
        status = int(data[9:12])
    return status, closed, data.partition(b"\r\n\r\n")[2].decode("utf-8", "replace")


def crowd(host, port, addresses, each):
    held = []
    for a in range(addresses):
        for _ in range(each):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.%d" % (a + 2), 0))
            s.setblocking(False)
            s.connect_ex((host, port))  # queued in the listen backlog if the server is not accepting
            held.append(s)
    time.sleep(1)  # every connection is made (or queued)
    opened = 0
    for s in held:
        try:
            s.send(b"GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            opened += 1
        except OSError:
            pass
    time.sleep(1)
    start = time.monotonic()
    fresh = socket.create_connection((host, port), timeout=15, source_address=("127.0.0.1", 0))
    fresh.sendall(b"GET /login HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    status, _, _ = answer(fresh, 15)
    after = time.monotonic() - start if status is not None else None
    fresh.close()
    for s in held:
        s.close()
    print(json.dumps({"opened": opened, "status": status, "answered_after": after}))


def raw(host, port, path):
    with open(path, "rb") as f:
        request = f.read()
    s = socket.create_connection((host, port), timeout=10)
    s.sendall(request)
    status, closed, body = answer(s, 10)
    s.close()
    print(json.dumps({"status": status, "closed": closed, "body": body[:300]}))


if __name__ == "__main__":
    what = sys.argv[1]
    if what == "crowd":
        crowd(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    elif what == "raw":
        raw(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        sys.exit(__doc__)
