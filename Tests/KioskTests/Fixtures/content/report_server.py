#!/usr/bin/env python3
"""A report collector for the report tests (ContentReportTests): what a CMS's report URL does, recorded.

Usage: report_server.py --port N --dir DIR

Binds 127.0.0.1:N (the test runs it under `timeout`, so it ends whatever happens). Every PUT or POST is read
whole and recorded in DIR/requests.jsonl as one JSON line: method, path, Content-Type, the status answered,
whether the body was taken, and the body as text. DIR/mode, read at each request, says how to answer:

  ok                  take the body: 201 to a PUT, 200 to a POST (the default, also when there is no file)
  fail                500, the body not taken
  take-and-fail N     take the body but answer 500 (as if the reply were lost), for the next N requests; then ok
  redirect            302 to /elsewhere, the body not taken

Any other method is answered 405.
"""
import argparse
import http.server
import json
import os
import threading

LOCK = threading.Lock()
ARGS = None


def mode():
    """The mode line, with a take-and-fail count used up (under LOCK)."""
    path = os.path.join(ARGS.dir, "mode")
    try:
        with open(path) as f:
            words = f.read().split()
    except FileNotFoundError:
        return "ok"
    if not words:
        return "ok"
    if words[0] == "take-and-fail":
        left = int(words[1]) if len(words) > 1 else 1
        if left <= 0:
            return "ok"
        with open(path + ".tmp", "w") as f:
            f.write("take-and-fail %d\n" % (left - 1))
        os.replace(path + ".tmp", path)
    return words[0]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def take(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length > 0 else b""
        with LOCK:
            how = mode()
            if how == "fail":
                status, taken = 500, False
            elif how == "take-and-fail":
                status, taken = 500, True
            elif how == "redirect":
                status, taken = 302, False
            else:
                status, taken = (201 if self.command == "PUT" else 200), True
            record = {"method": self.command, "path": self.path, "type": self.headers.get("Content-Type") or "",
                      "status": status, "taken": taken, "body": body.decode("utf-8", "replace")}
            with open(os.path.join(ARGS.dir, "requests.jsonl"), "a") as f:
                f.write(json.dumps(record) + "\n")
        if status == 302:
            self.reply(302, b"moved\n", [("Location", "/elsewhere")])
        else:
            self.reply(status, b'{"ok": %s}\n' % (b"true" if status < 300 else b"false"), [("Content-Type", "application/json")])

    do_PUT = take
    do_POST = take

    def do_GET(self):
        self.reply(405)


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--dir", required=True)
    ARGS = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", ARGS.port), Handler)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
