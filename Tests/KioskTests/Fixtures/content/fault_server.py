#!/usr/bin/env python3
"""A small HTTP/1.1 server with faults, for the content fetcher's tests (ContentFaultTests).

Usage: fault_server.py --root DIR --log FILE --lifetime SECONDS

Binds 127.0.0.1 on a free port and prints "PORT N" on its first line; exits after SECONDS whatever happens.
Every request is logged to FILE as one JSON line (method, path, the Range, If-Range, If-None-Match and
If-Modified-Since headers). The first path segment picks the behaviour; the rest names a file in DIR:

  /ok/NAME             the file, with an ETag (its SHA-1), Last-Modified, 304s and single ranges (bytes=N-) under If-Range
  /cut/NAME            as /ok, but the first whole-body GET of NAME sends half of it, then the connection is cut
  /changing/NAME       the first GET sends half of NAME.old (its own ETag) and cuts; later GETs serve NAME as /ok
  /mixed/NAME          NAME's length and ETag, but the second half of the body is changed while it is sent
  /short/NAME          a Content-Length 1000 bytes more than the body, then the connection is closed
  /status/CODE/NAME    that status, with a short body
  /slow/NAME           the headers, then one byte every half second
  /chunked/N           N KiB in chunks, without a Content-Length
  /redirect/file       302 to file:///etc/passwd
  /redirect/ftp        302 to ftp://127.0.0.1/x
  /redirect/loop/N     302 to /redirect/loop/N+1
  /redirect/to/NAME    302 to /ok/NAME
  PUT or POST /echo    201 with the body's length and SHA-256 as text (both logged too, with the Content-Type)
  /concurrent/NAME     as /ok, slowly (0.3 s per request); the log's "open" says how many such requests ran at once
"""
import argparse
import email.utils
import hashlib
import http.server
import json
import os
import socket
import sys
import threading
import time

ARGS = None
LOG_LOCK = threading.Lock()
SERVED = set()  # names whose first whole-body GET was already cut
SERVED_LOCK = threading.Lock()
OPEN = [0]  # /concurrent requests running now


def first_time(key):
    with SERVED_LOCK:
        if key in SERVED:
            return False
        SERVED.add(key)
        return True


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self, **more):
        line = {"method": self.command, "path": self.path, "range": self.headers.get("Range"),
                "if_range": self.headers.get("If-Range"), "if_none_match": self.headers.get("If-None-Match"),
                "if_modified_since": self.headers.get("If-Modified-Since"), "user_agent": self.headers.get("User-Agent")}
        line.update(more)
        with LOG_LOCK, open(ARGS.log, "a") as log:
            log.write(json.dumps(line) + "\n")

    def do_HEAD(self):
        self.do_GET()

    def do_PUT(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        digest = hashlib.sha256(body).hexdigest()
        self.record(length=str(len(body)), sha256=digest, content_type=self.headers.get("Content-Type"))
        answer = ("%d %s\n" % (len(body), digest)).encode()
        self.send_response(201)
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def do_POST(self):
        self.do_PUT()

    def do_GET(self):
        self.record()
        parts = self.path.split("?")[0].strip("/").split("/")
        kind, rest = parts[0], parts[1:]
        try:
            handler = getattr(self, "serve_" + kind, None)
            if handler is None:
                return self.status(404)
            handler(rest)
        except (BrokenPipeError, ConnectionResetError):
            pass

    # helpers

    def read(self, name):
        path = os.path.join(ARGS.root, os.path.basename(name))
        with open(path, "rb") as f:
            return f.read(), os.stat(path).st_mtime

    def status(self, code, headers=None):
        body = ("status %d\n" % code).encode()
        self.send_response(code)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def cut(self):
        self.wfile.flush()
        self.connection.shutdown(socket.SHUT_RDWR)
        self.connection.close()
        self.close_connection = True

    def whole(self, body, etag, mtime, part=None, length=None):
        """Headers for the whole body (or a half part followed by a cut)."""
        self.send_response(200)
        self.send_header("Content-Length", str(length if length is not None else len(body)))
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", email.utils.formatdate(mtime, usegmt=True))
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Content-Type", "application/octet-stream")
        self.end_headers()
        if self.command == "HEAD":
            return
        self.wfile.write(body if part is None else body[:part])

    def serve_file(self, body, mtime, etag):
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return
        wanted = self.headers.get("Range")
        if_range = self.headers.get("If-Range")
        if wanted and wanted.startswith("bytes=") and wanted.endswith("-") and (if_range is None or if_range == etag):
            start = int(wanted[6:-1])
            if start >= len(body):
                return self.status(416, {"Content-Range": "bytes */%d" % len(body)})
            self.send_response(206)
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, len(body) - 1, len(body)))
            self.send_header("Content-Length", str(len(body) - start))
            self.send_header("ETag", etag)
            self.send_header("Content-Type", "application/octet-stream")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body[start:])
            return
        self.whole(body, etag, mtime)

    @staticmethod
    def etag(body):
        return '"%s"' % hashlib.sha1(body).hexdigest()[:16]

    # behaviours

    def serve_ok(self, rest):
        body, mtime = self.read(rest[0])
        self.serve_file(body, mtime, self.etag(body))

    def serve_cut(self, rest):
        body, mtime = self.read(rest[0])
        if self.command == "GET" and not self.headers.get("Range") and first_time("cut/" + rest[0]):
            self.whole(body, self.etag(body), mtime, part=len(body) // 2)
            return self.cut()
        self.serve_file(body, mtime, self.etag(body))

    def serve_changing(self, rest):
        if self.command == "GET" and first_time("changing/" + rest[0]):
            old, mtime = self.read(rest[0] + ".old")
            self.whole(old, self.etag(old), mtime, part=len(old) // 2)
            return self.cut()
        body, mtime = self.read(rest[0])
        self.serve_file(body, mtime, self.etag(body))

    def serve_mixed(self, rest):
        body, mtime = self.read(rest[0])
        half = len(body) // 2
        changed = body[:half] + bytes(b ^ 0xFF for b in body[half:])
        self.whole(changed, self.etag(body), mtime)

    def serve_short(self, rest):
        body, mtime = self.read(rest[0])
        self.whole(body, self.etag(body), mtime, length=len(body) + 1000)
        self.cut()

    def serve_status(self, rest):
        self.status(int(rest[0]))

    def serve_slow(self, rest):
        body, mtime = self.read(rest[0])
        self.whole(body, self.etag(body), mtime, part=0)
        for i in range(len(body)):
            self.wfile.write(body[i:i + 1])
            self.wfile.flush()
            time.sleep(0.5)

    def serve_chunked(self, rest):
        self.send_response(200)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        chunk = b"x" * 1024
        for _ in range(int(rest[0])):
            self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        self.wfile.write(b"0\r\n\r\n")

    def serve_concurrent(self, rest):
        with SERVED_LOCK:
            OPEN[0] += 1
            now = OPEN[0]
        with LOG_LOCK, open(ARGS.log, "a") as log:
            log.write(json.dumps({"method": "OPEN", "path": self.path, "open": str(now)}) + "\n")
        time.sleep(0.3)
        with SERVED_LOCK:
            OPEN[0] -= 1
        self.serve_ok(rest)

    def serve_redirect(self, rest):
        targets = {"file": "file:///etc/passwd", "ftp": "ftp://127.0.0.1/x"}
        if rest[0] == "loop":
            target = "/redirect/loop/%d" % (int(rest[1]) + 1)
        elif rest[0] == "to":
            target = "/ok/" + rest[1]
        else:
            target = targets[rest[0]]
        self.status(302, {"Location": target})


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--lifetime", type=float, default=120)
    ARGS = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("PORT %d" % server.server_address[1], flush=True)
    threading.Timer(ARGS.lifetime, lambda: os._exit(0)).start()
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
