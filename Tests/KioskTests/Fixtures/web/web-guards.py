#!/usr/bin/env python3
"""The web server's guards from outside, with Python's own sockets and HTTP client (no kiosk code):

  web-guards.py slowloris HOST PORT SECONDS   a client that sends a request's headers one byte every 2 s; prints
                                              {"closed_after": S} when the server cut it off (null: it never did)
  web-guards.py slowbody HOST PORT SECONDS    a login whose headers come at once and whose body (200 bytes) comes
                                              one byte every 2 s; prints {"closed_after": S} as above
  web-guards.py load HOST PORT CLIENTS SECONDS TOKEN
                                              CLIENTS threads asking GET /api/status (bearer TOKEN) for SECONDS;
                                              prints {"requests", "ok", "statuses", "errors"}
"""
import http.client
import json
import socket
import sys
import threading
import time


def trickle(host, port, seconds, head):
    """Sends head, then a byte every 2 s until the server closes the connection or SECONDS pass."""
    s = socket.create_connection((host, port), timeout=seconds + 5)
    start = time.monotonic()
    s.sendall(head)
    closed = None
    while time.monotonic() - start < seconds:
        time.sleep(2)
        try:
            s.sendall(b"x")
            s.settimeout(0.05)
            try:
                if s.recv(1) == b"":
                    closed = time.monotonic() - start
                    break
            except socket.timeout:
                pass
        except OSError:
            closed = time.monotonic() - start
            break
    s.close()
    print(json.dumps({"closed_after": closed}))


def slowloris(host, port, seconds):
    trickle(host, port, seconds, b"GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")


def slowbody(host, port, seconds):
    trickle(host, port, seconds, b"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 200\r\n\r\npassword=")


def load(host, port, clients, seconds, token):
    lock = threading.Lock()
    totals = {"requests": 0, "ok": 0, "statuses": {}, "errors": []}
    stop = time.monotonic() + seconds

    def client():
        conn = None
        while time.monotonic() < stop:
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(host, port, timeout=10)
                conn.request("GET", "/api/status", headers={"Authorization": "Bearer " + token})
                r = conn.getresponse()
                body = r.read()
                ok = r.status == 200 and body.startswith(b"{")
                with lock:
                    totals["requests"] += 1
                    totals["ok"] += ok
                    totals["statuses"][str(r.status)] = totals["statuses"].get(str(r.status), 0) + 1
                if r.getheader("Connection", "").lower() == "close":
                    conn.close()
                    conn = None
            except (OSError, http.client.HTTPException) as e:
                with lock:
                    totals["requests"] += 1
                    if len(totals["errors"]) < 5:
                        totals["errors"].append(repr(e))
                    totals["statuses"]["error"] = totals["statuses"].get("error", 0) + 1
                if conn is not None:
                    conn.close()
                conn = None
                time.sleep(0.05)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(json.dumps(totals))


if __name__ == "__main__":
    what = sys.argv[1]
    if what == "slowloris":
        slowloris(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
    elif what == "slowbody":
        slowbody(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
    elif what == "load":
        load(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), sys.argv[6])
    else:
        sys.exit(__doc__)
