"""`tanbo serve` against hostile clients: floods (429), streams and connections over their
limits (503), requests and reads too slow (slowloris), and requests framed to mislead or to
make the server grow (an 8 MB request line, a gzip bomb, thousands of ranges, smuggled bodies).

usage: python3 test_clients.py TANBO  (every test_* function runs; the first failure ends it)
"""
import gzip
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_support import (  # noqa: E402
    Server, error_of, exchange, open_stream, play, read_event, run_tests)

TANBO = sys.argv[1] if len(sys.argv) > 1 else "tanbo"
TMP = tempfile.mkdtemp(prefix="tanbo-serve-")


def test_429():
    server = Server(TANBO, TMP, "--rate", "1", db="rate.sqlite")
    try:
        statuses = [server.get("/api/games")[0] for _ in range(12)]
        assert statuses[0] == 200 and 429 in statuses, statuses
        assert "too many" in server.get("/api/games")[1]["error"]
    finally:
        server.stop()


def test_stream_limit_503():
    server = Server(TANBO, TMP, "--max-streams", "1", db="streams.sqlite")
    try:
        g = server.new_game()
        conn, resp = open_stream(server, g)
        assert resp.status == 200 and read_event(resp)["id"] == "0"
        assert "streams" in error_of(*server.get("/api/games/%s/events" % g["id"]), 503)
        conn.close()
        # The place comes back within a second or so of the close, with no event to write (it
        # came back at the stream's next write, up to 15 s later).
        start = time.time()
        while True:
            conn, resp = open_stream(server, g)
            conn.close()
            if resp.status == 200 or time.time() - start > 5:
                break
            time.sleep(0.1)
        assert resp.status == 200 and time.time() - start < 3, (resp.status, time.time() - start)
    finally:
        server.stop()


class SlowClients:
    """Connections that send a request's head one line at a time, half a second apart, until
    the with block ends; the block's end closes them and stops the server (status 0)."""

    def __init__(self, server):
        self.server = server
        self.stop = threading.Event()
        self.socks = []

    def open(self, count):
        host = urllib.parse.urlparse(self.server.base)
        for _ in range(count):
            sock = socket.create_connection((host.hostname, host.port), timeout=30)
            threading.Thread(target=self.trickle, args=(sock,), daemon=True).start()
            self.socks.append(sock)
        return self.socks

    def trickle(self, sock):
        try:
            sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
            n = 0
            while not self.stop.is_set():
                time.sleep(0.5)
                sock.sendall(b"X-Slow-%d: y\r\n" % n)
                n += 1
        except OSError:
            pass  # closed by the server

    def close(self):
        self.stop.set()
        for sock in self.socks:
            sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *failure):
        self.close()
        code, out = self.server.stop()
        assert code == 0, (code, out)


def test_slow_requests_are_cut():
    # 17 connection threads (--max-streams + 16), no limit by address: 30 clients that never
    # finish their requests hold every thread until the request timeout cuts them.
    server = Server(TANBO, TMP, "--max-streams", "1", "--max-connections", "0",
                    "--request-timeout", "2", db="slow.sqlite")
    with SlowClients(server) as slow:
        g = server.new_game()
        stream, events = open_stream(server, g)
        assert events.status == 200 and read_event(events)["id"] == "0"
        socks = slow.open(30)
        time.sleep(0.5)
        start = time.time()
        status, games = server.get("/api/games")
        waited = time.time() - start
        assert status == 200 and games, (status, games)
        assert waited < 8, waited
        # The slow ones were answered 408 and closed.
        for sock in socks:
            sock.settimeout(10)
            answer = b""
            while True:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 408 "), answer
            assert b"did not arrive within 2 s (--request-timeout)" in answer, answer
        # The event stream has no time limit: it still follows the game after the timeout.
        legal = server.get("/api/games/" + g["id"])[1]["legal"]
        assert play(server, g, 0, legal[0])[0] == 200
        assert read_event(events)["id"] == "1"
        stream.close()
        # A client that sends its requests in time is served on one connection for longer.
        host = urllib.parse.urlparse(server.base)
        conn = http.client.HTTPConnection(host.hostname, host.port, timeout=20)
        for _ in range(4):
            conn.request("GET", "/api/games")
            resp = conn.getresponse()
            assert resp.status == 200 and json.loads(resp.read())
            time.sleep(0.8)
        conn.close()


def test_slow_readers_are_cut():
    """18 clients reading a 6 MB board at 200 bytes a second do not hold the 17 connection
    threads: a write waits at most 5 s for the socket, which takes more only once much of its
    buffer has been read."""
    server = Server(TANBO, TMP, "--request-timeout", "2", "--max-streams", "1",
                    "--max-connections", "0", "--max-points", "200000", db="slowread.sqlite")
    stop = threading.Event()
    try:
        g = server.new_game("grid 400x400")
        host = urllib.parse.urlparse(server.base)
        request = b"GET /api/games/%s/board HTTP/1.1\r\nHost: x\r\n\r\n" % g["id"].encode()

        def read_slowly():
            with socket.socket() as sock:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
                sock.settimeout(20)
                sock.connect((host.hostname, host.port))
                sock.sendall(request)
                while not stop.wait(0.5) and sock.recv(100):
                    pass
        readers = [threading.Thread(target=read_slowly, daemon=True) for _ in range(18)]
        for r in readers:
            r.start()
        time.sleep(1)
        start = time.time()
        status, games = server.get("/api/games")  # 17 threads: it waits for one to come back
        # (about 11 s in a release build, 17 s under AddressSanitizer, which builds the 6 MB
        # answers slowly, 28 s on a machine busy with builds; a thread held by its reader would
        # be held for hours)
        assert status == 200 and time.time() - start < 90, (status, time.time() - start)
        # A reader at full speed gets the whole board.
        status, board = server.get("/api/games/%s/board" % g["id"])
        assert status == 200 and len(board["points"]) == 400 * 400
    finally:
        stop.set()
        server.stop()


def test_connections_per_address():
    server = Server(TANBO, TMP, "--max-connections", "4", db="per-address.sqlite")
    with SlowClients(server) as slow:
        slow.open(4)
        time.sleep(0.5)
        status, body = server.get("/api/games")
        assert "too many connections from 127.0.0.1 (at most 4" in error_of(status, body, 503)
        slow.close()
        # The places come back as the connections close.
        for _ in range(100):
            status, body = server.get("/api/games")
            if status == 200:
                break
            time.sleep(0.05)
        assert status == 200, (status, body)


def counted_for(server, *forwarded):
    """The client the server counts requests for when they carry these X-Forwarded-For headers
    (one per argument): requests are sent until one is refused 429, whose message names it."""
    host = urllib.parse.urlparse(server.base)
    conn = http.client.HTTPConnection(host.hostname, host.port, timeout=20)
    try:
        for _ in range(40):
            conn.putrequest("GET", "/api/games")
            for value in forwarded:
                conn.putheader("X-Forwarded-For", value)
            conn.endheaders()
            resp = conn.getresponse()
            body = resp.read()
            if resp.status == 429:
                reason = json.loads(body)["error"]
                assert reason.startswith("too many requests from "), reason
                return reason[len("too many requests from "):].split(";")[0]
            assert resp.status == 200, (resp.status, body)
    finally:
        conn.close()
    raise AssertionError("40 requests a second were not refused (--rate 1)")


def test_trusted_proxy():
    # Behind a trusted proxy, a request counts for the address the proxy appended last to
    # X-Forwarded-For: one client's flood leaves the others served; addresses written before
    # it (by anyone) do not count, nor do other trusted proxies'.
    server = Server(TANBO, TMP, "--rate", "1", "--trusted-proxy", "127.0.0.1", "--trusted-proxy",
                    "::ffff:10.9.9.9", "--max-connections", "2", db="proxy.sqlite")
    try:
        assert counted_for(server, "203.0.113.5") == "203.0.113.5"
        assert server.request("GET", "/api/games")[0] == 200  # (the proxy's own: another client)
        assert counted_for(server, "203.0.113.6, 203.0.113.5") == "203.0.113.5"
        assert counted_for(server, "203.0.113.5, 10.9.9.9 ,127.0.0.1") == "203.0.113.5"
        assert counted_for(server, "198.51.100.1", "203.0.113.7") == "203.0.113.7"
        assert counted_for(server, "2001:db8:1:2::5") == "2001:db8:1:2::/64"
        assert counted_for(server) == "127.0.0.1"
        for junk in ("nobody", "", "127.0.0.1", "203.0.113.5:8080"):
            assert counted_for(server, junk) == "127.0.0.1", junk
        # Its connections carry many clients: --max-connections does not hold them.
        with SlowClients(server) as slow:
            slow.open(4)
            time.sleep(0.5)
            status, body = server.request("GET", "/")
            assert status == 200, (status, body)
            slow.close()
    finally:
        server.stop()
    # Without --trusted-proxy the header is anyone's word: every request counts for its peer.
    server = Server(TANBO, TMP, "--rate", "1", db="no-proxy.sqlite")
    try:
        assert counted_for(server, "203.0.113.5") == "127.0.0.1"
    finally:
        server.stop()
    # A proxy that is not an address is refused before the database is made.
    run = subprocess.run([TANBO, "serve", "--port", "0", "--db", os.path.join(TMP, "never.sqlite"),
                          "--trusted-proxy", "proxy.local"], capture_output=True, text=True,
                         timeout=20)
    assert run.returncode == 2 and not run.stdout, run
    assert run.stderr == ('tanbo serve: --trusted-proxy "proxy.local" is not an IP address (such '
                          'as 127.0.0.1 or ::1)\n'), run.stderr
    assert not os.path.exists(os.path.join(TMP, "never.sqlite"))


def peak_memory_kb(server):
    with open("/proc/%d/status" % server.proc.pid) as f:
        return int(next(line for line in f if line.startswith("VmHWM")).split()[1])


def test_requests_httplib_would_mishandle():
    server = Server(TANBO, TMP, db="odd.sqlite")
    try:
        g = server.new_game()
        head = b"GET /api/games HTTP/1.1\r\nHost: x\r\n"
        # A client that closes its sending side after its request still gets the answer.
        assert exchange(server, head + b"\r\n", half_close=True).startswith(b"HTTP/1.1 200 ")
        # A head httplib cannot read (a header line over 8 KB) is answered 400 and the
        # connection closed: the rest of it was answered as the next request, and every answer
        # after that came one request late.
        answer = exchange(server, head + b"Cookie: " + b"c" * 9000 + b"\r\n\r\n" + head + b"\r\n")
        assert answer.startswith(b"HTTP/1.1 400 ") and answer.count(b"HTTP/1.1") == 1, answer
        # A request line or head without end is cut at 160 KB, not read into memory for ever.
        before = peak_memory_kb(server)
        answer = exchange(server, b"GET /" + b"a" * (8 << 20))
        assert answer == b"" or answer.startswith(b"HTTP/1.1 4"), answer[:100]
        answer = exchange(server, head + b"X-A: b\r\n" * 1000000)
        assert answer == b"" or answer.startswith(b"HTTP/1.1 4"), answer[:100]
        # A head over the limit of a whole request is told so, not that its body is too large.
        answer = exchange(server, head + b"X-A: %s\r\n" % (b"b" * 4000) * 42 + b"\r\n")
        assert answer == b"" or (answer.startswith(b"HTTP/1.1 413 ") and
                                 b"the request is too large: at most 160 KB in all" in answer), \
            answer[:300]
        assert peak_memory_kb(server) - before < 32 * 1024, (before, peak_memory_kb(server))
        # A chunked body over 64 KB is refused as one with a Content-Length is.
        chunk = b"x" * 4096
        body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(20)) + b"0\r\n\r\n"
        answer = exchange(server, b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: "
                          b"application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + body)
        assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
        # So is a body announced over 64 KB behind Expect: 100-continue, before it is sent.
        answer = exchange(server, b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: "
                          b"100000\r\nExpect: 100-continue\r\n\r\n", read_all=False)
        assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
        # A compressed body (61 KB of gzip made 60 MB in memory) is refused unread.
        packed = gzip.compress(json.dumps({"topology": "grid 5x5", "players": ["human"] * 2}).encode())
        answer = exchange(server, b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: "
                          b"application/json\r\nContent-Encoding: gzip\r\nContent-Length: %d"
                          b"\r\n\r\n%s" % (len(packed), packed))
        assert answer.startswith(b"HTTP/1.1 415 ") and b"gzip" in answer, answer[:300]
        # Several ranges get the whole answer (httplib made them whole in memory), one range its
        # part.
        answer = exchange(server, b"GET /api/games HTTP/1.1\r\nHost: x\r\nRange: bytes=0-,0-,0-"
                          b"\r\nConnection: close\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 200 ") and b"multipart" not in answer, answer[:300]
        answer = exchange(server, b"GET /api/games HTTP/1.1\r\nHost: x\r\nRange: bytes=0-9"
                          b"\r\nConnection: close\r\n\r\n")
        assert b"Content-Range: bytes 0-9/" in answer and answer.endswith(b'{"games":['), answer
        # Answers are compressed with gzip, never brotli (seconds of CPU for the 3D view).
        for accepted, used in [(b"gzip, deflate, br", b"Content-Encoding: gzip"), (b"br", None)]:
            answer = exchange(server, head + b"Accept-Encoding: " + accepted +
                              b"\r\nConnection: close\r\n\r\n")
            assert answer.startswith(b"HTTP/1.1 200 "), answer[:200]
            assert (b"Content-Encoding" not in answer) if used is None else (used in answer), answer[:300]
        # A POST without a length has no body: answered at once (after 5 s before).
        start = time.time()
        answer = exchange(server, b"POST /api/games HTTP/1.1\r\nHost: x\r\n\r\n", read_all=False)
        assert answer.startswith(b"HTTP/1.1 400 ") and time.time() - start < 2, answer
        # A body whose length is given twice is refused, and its connection closed.
        for twice in [b"Content-Length: 2\r\nContent-Length: 40", b"Content-Length: 2\r\n"
                      b"Transfer-Encoding: chunked"]:
            answer = exchange(server, b"POST /api/games HTTP/1.1\r\nHost: x\r\n" + twice +
                              b"\r\n\r\n{}")
            assert answer.startswith(b"HTTP/1.1 400 ") and b"length is given twice" in answer, answer
            assert (b"two Content-Length headers" in answer) == (b"Transfer" not in twice), answer
        # A number beyond a double's range is bad JSON (400), not an internal error (500).
        status, body = server.post("/api/games/%s/moves" % g["id"], raw=b'{"ply": 1e999}')
        assert "number overflow" in error_of(status, body, 400)
        assert server.get("/api/games")[0] == 200
    finally:
        code, out = server.stop()
    assert code == 0, (code, out)


def test_request_framing():
    """Where a request's body ends is settled before anything answers it: httplib read a
    malformed length as a number's start, any coding but "chunked" until the client closed,
    and no body of a GET (nor of a request refused early, 429); the rest was then read and
    answered as another request, which a proxy in front sees as part of the first."""
    server = Server(TANBO, TMP, "--rate", "1", db="framing.sqlite")
    try:
        inner = b"GET /api/games/framingfram HTTP/1.1\r\nHost: x\r\n\r\n"
        for head, status, words in [
                (b"POST /api/games HTTP/1.1\r\nContent-Length: 5x", 400, b"is not a number"),
                (b"POST /api/games HTTP/1.1\r\nContent-Length: +5", 400, b"is not a number"),
                (b"POST /api/games HTTP/1.1\r\nContent-Length: 0x10", 400, b"is not a number"),
                (b"POST /api/games HTTP/1.1\r\nTransfer-Encoding: gzip, chunked", 501,
                 b"send it chunked or with a Content-Length"),
                (b"GET /api/games HTTP/1.1\r\nContent-Length: %d" % len(inner), 400,
                 b"GET requests take no body"),
                (b"OPTIONS /api/games HTTP/1.1\r\nTransfer-Encoding: chunked", 400,
                 b"OPTIONS requests take no body"),
                # (httplib took a multipart body apart and left none: "not JSON: unexpected end
                # of input")
                (b"POST /api/games HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                 b"Content-Length: %d" % len(inner), 415, b"send it as JSON")]:
            body = b"%x\r\n%s\r\n0\r\n\r\n" % (len(inner), inner) if b"Transfer" in head \
                else inner
            answer = exchange(server, head + b"\r\nHost: x\r\n\r\n" + body + inner)
            assert answer.startswith(b"HTTP/1.1 %d " % status) and words in answer, (head, answer)
            # One answer, and the connection closed: nothing of the body was taken as a request.
            assert answer.count(b"HTTP/1.1 ") == 1 and b"framingfram" not in answer, (head, answer)
        # A request refused before its body is read (429) closes its connection too.
        while server.get("/api/games")[0] != 429:
            pass
        answer = exchange(server, b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: %d"
                          b"\r\n\r\n%s" % (len(inner), inner))
        assert answer.startswith(b"HTTP/1.1 429 ") and answer.count(b"HTTP/1.1 ") == 1, answer
    finally:
        code, out = server.stop()
    assert code == 0, (code, out)


if __name__ == "__main__":
    run_tests(globals())
