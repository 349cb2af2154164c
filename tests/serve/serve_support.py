"""Starting `tanbo serve` on 127.0.0.1 and a free port, talking JSON and raw bytes to it, and
running a test file's test_* functions."""
import http.client
import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request


class Server:
    """A `tanbo serve --port 0` in `folder`; stop() ends it (kill() as kill -9 would)."""

    def __init__(self, tanbo, folder, *args, db="games.sqlite"):
        self.proc = subprocess.Popen(
            [tanbo, "serve", "--host", "127.0.0.1", "--port", "0",
             "--db", os.path.join(folder, db), *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=folder)
        line = self.proc.stdout.readline()
        prefix = "tanbo serve: listening on "
        if not line.startswith(prefix):
            self.proc.kill()
            raise RuntimeError("no listening line: %r %s" % (line, self.proc.stderr.read()))
        self.base = line[len(prefix):].strip().rstrip("/")

    def stop(self):
        """Ends the server: its status, and what it wrote (standard output, then error)."""
        self.proc.terminate()
        out, err = self.proc.communicate(timeout=20)
        return self.proc.returncode, out + err

    def kill(self):
        self.proc.kill()
        self.proc.communicate(timeout=20)

    def request(self, method, path, body=None, raw=None):
        """(status, parsed JSON or text) of one request."""
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                status, text, ctype = r.status, r.read().decode(), r.headers["Content-Type"]
        except urllib.error.HTTPError as e:
            status, text, ctype = e.code, e.read().decode(), e.headers["Content-Type"]
        if ctype and ctype.startswith("application/json"):
            return status, json.loads(text)
        return status, text

    def get(self, path):
        return self.request("GET", path)

    def post(self, path, body=None, raw=None):
        return self.request("POST", path, body, raw)

    def new_game(self, topology="grid 5x5", players=("human", "human"), **extra):
        status, g = self.post("/api/games", dict(topology=topology, players=list(players), **extra))
        assert status == 201, (status, g)
        return g


def error_of(status, body, expected):
    assert status == expected, (status, body)
    assert isinstance(body, dict) and body["error"], body
    return body["error"]


def play(server, game, seat, point, **extra):
    return server.post("/api/games/%s/moves" % game["id"],
                       dict(seat=game["seats"][seat]["token"], point=point, **extra))


def read_event(resp):
    event = {}
    while True:
        line = resp.readline().decode()
        if line in ("\n", ""):
            if "data" in event:
                return event
            continue
        if line.startswith(":"):
            continue
        key, _, value = line.rstrip("\n").partition(": ")
        event[key] = value


def open_stream(server, game):
    host = urllib.parse.urlparse(server.base)
    conn = http.client.HTTPConnection(host.hostname, host.port, timeout=20)
    conn.request("GET", "/api/games/%s/events" % game["id"])
    return conn, conn.getresponse()


def exchange(server, data, half_close=False, read_all=True):
    """Sends raw bytes on a new connection; everything the server answers until it closes (or
    its first answer, read_all=False)."""
    host = urllib.parse.urlparse(server.base)
    with socket.create_connection((host.hostname, host.port), timeout=20) as sock:
        try:
            sock.sendall(data)
            if half_close:
                sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the server may close before it has read everything
        answer = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            answer += chunk
            if not read_all and b"\r\n\r\n" in answer:
                break
        return answer


def wait_for_winner(server, game):
    """Polls an engines' game for up to 20 s until it has a winner; its state."""
    for _ in range(400):
        st = server.get("/api/games/" + game["id"])[1]
        if st["winner"]:
            break
        time.sleep(0.05)
    assert st["winner"], st
    return st


class Skip(Exception):
    """Raised by a test that cannot measure what it checks in this build (its message says
    why); run_tests reports it as skipped, not passed."""


def run_tests(namespace, shared_server=None):
    """Runs the test_* functions of a test file's `namespace` in name order, a line for each
    ("ok NAME", or "skipped NAME: reason" for a test that raised Skip); the first failure ends
    the run. `shared_server`, when given, makes a Server that the tests share as
    namespace["SERVER"]; it is stopped at the end and must say it stopped."""
    tests = sorted((n, f) for n, f in namespace.items() if n.startswith("test_") and callable(f))
    server = shared_server() if shared_server else None
    namespace["SERVER"] = server
    skipped = 0
    try:
        for name, f in tests:
            start = time.time()
            try:
                f()
            except Skip as why:
                skipped += 1
                print("skipped %s: %s" % (name, why), flush=True)
                continue
            print("ok %s (%.1f s)" % (name, time.time() - start), flush=True)
    finally:
        if server:
            code, out = server.stop()
    if server:
        assert code == 0 and "stopped" in out, (code, out)
    if skipped:
        print("%d passed, %d skipped" % (len(tests) - skipped, skipped))
    else:
        print("all %d passed" % len(tests))
