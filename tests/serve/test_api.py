"""API tests of `tanbo serve`: every status of the contract, identical moves at once, kill -9
and SIGTERM during a burst of moves, an engine seat, the event stream, export round trips, the
page's files, games read back from the database when memory holds fewer than there are, requests
framed to mislead, and databases that are shared, read-only, damaged, locked or deleted.

usage: python3 test_api.py TANBO  (every test_* function runs; the first failure ends it)
"""
import gzip
import http.client
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_support import Server  # noqa: E402

TANBO = sys.argv[1] if len(sys.argv) > 1 else "tanbo"
TMP = tempfile.mkdtemp(prefix="tanbo-serve-")
SERVER = None  # the server most tests share


def error_of(status, body, expected):
    assert status == expected, (status, body)
    assert isinstance(body, dict) and body["error"], body
    return body["error"]


def play(server, game, seat, point, **extra):
    return server.post("/api/games/%s/moves" % game["id"],
                       dict(seat=game["seats"][seat]["token"], point=point, **extra))


def test_create_and_state():
    g = SERVER.new_game("grid 5x5x5", ["human", "greedy"], names=["ann", "bot"])
    assert g["url"] == "/games/" + g["id"] and len(g["id"]) >= 10
    seats = g["seats"]
    assert [s["color"] for s in seats] == ["black", "white"]
    assert [s["kind"] for s in seats] == ["human", "greedy"]
    assert [s["name"] for s in seats] == ["ann", "bot"]
    for s in seats:
        assert len(s["token"]) == 32 and int(s["token"], 16) >= 0
        assert s["url"] == "/games/%s?seat=%s" % (g["id"], s["token"])
    status, st = SERVER.get("/api/games/" + g["id"])
    assert status == 200
    assert st["id"] == g["id"] and st["topology"] == "grid 5x5x5" and st["setup"] == "pbmserv"
    assert len(st["points"]) == 125 and st["ply"] == 0 and st["to_move"] == "black"
    assert st["winner"] is None and st["last"] is None and st["moves"] == []
    assert st["players"][1] == {"color": "white", "name": "bot", "kind": "greedy"}
    assert set(st["stones"]) == {"black", "white"} and st["legal"]
    text = json.dumps(st)
    assert seats[0]["token"] not in text and seats[1]["token"] not in text
    # A seat's page checks its token: the state and that seat, never a token; another is 403.
    status, mine = SERVER.get("/api/games/%s?seat=%s" % (g["id"], seats[1]["token"]))
    assert status == 200 and mine["seat"] == {"color": "white", "name": "bot", "kind": "greedy"}
    assert seats[1]["token"] not in json.dumps(mine) and mine["ply"] == 0
    for bad in ("0" * 32, "", seats[0]["token"][:-1]):
        status, body = SERVER.get("/api/games/%s?seat=%s" % (g["id"], bad))
        assert "this token is not a seat of this game" in error_of(status, body, 403)
    status, listing = SERVER.get("/api/games")
    assert status == 200 and listing["games"][0]["id"] == g["id"]
    assert set(listing["games"][0]) == {"id", "topology", "setup", "players", "ply", "to_move",
                                        "winner"}


def test_board():
    g = SERVER.new_game("hex 3")
    status, b = SERVER.get("/api/games/%s/board" % g["id"])
    assert status == 200 and b["kind"] == "hex" and len(b["hex_axial"]) == 19
    assert len(b["points"]) == 19 and all(a < c for a, c in b["edges"])
    g = SERVER.new_game("grid 6x6 wrap")
    status, b = SERVER.get("/api/games/%s/board" % g["id"])
    assert b["kind"] == "lattice" and b["dims"] == [6, 6] and b["wrap"] is True
    assert len(b["edges"]) == 72 and b["positions"] == []
    # A DOT board sent whole (the server reads no files), with every node's position.
    stones = {0: " stone=black", 15: " stone=white"}
    nodes = " ".join('n%d [pos="%d,%d"%s];' % (i, i % 4, i // 4, stones.get(i, ""))
                     for i in range(16))
    edges = " ".join("n%d -- n%d;" % (i, i + 1) for i in range(15) if i % 4 != 3)
    edges += " " + " ".join("n%d -- n%d;" % (i, i + 4) for i in range(12))
    g = SERVER.new_game("graph { %s %s }" % (nodes, edges))
    status, b = SERVER.get("/api/games/%s/board" % g["id"])
    assert status == 200 and b["kind"] == "graph" and len(b["positions"]) == 16, b
    assert b["points"][:2] == ["n0", "n1"] and len(b["edges"]) == 24
    # Boards are written once and kept: two DOT boards (whose specs are alike) keep their own,
    # and the gzip form a browser asks for is the same board.
    other = SERVER.new_game("graph { a [stone=black]; c [stone=white]; a -- b -- c -- d -- a }")
    assert SERVER.get("/api/games/%s/board" % other["id"])[1]["points"] == ["a", "c", "b", "d"]
    assert SERVER.get("/api/games/%s/board" % g["id"])[1] == b
    host = urllib.parse.urlparse(SERVER.base)
    conn = http.client.HTTPConnection(host.hostname, host.port, timeout=20)
    conn.request("GET", "/api/games/%s/board" % g["id"], headers={"Accept-Encoding": "gzip"})
    resp = conn.getresponse()
    packed = resp.read()
    assert resp.status == 200 and resp.getheader("Content-Encoding") == "gzip"
    assert resp.getheader("Content-Type") == "application/json"
    assert json.loads(gzip.decompress(packed)) == b
    conn.close()


def test_refusals_400():
    bad = [
        ({"players": ["human", "human"]}, "topology"),
        ({"topology": "grid 5x5", "players": ["human"]}, "2 to 8"),
        ({"topology": "grid 5x5", "players": ["human"] * 9}, "2 to 8"),
        ({"topology": "grid 0x5", "players": ["human", "human"]}, ""),
        ({"topology": "grid 5x5", "setup": "nosuch", "players": ["human", "human"]}, "nosuch"),
        ({"topology": "grid 5x5", "players": ["human", "mcts:bogus=1"]}, "bogus"),
        ({"topology": "file /etc/passwd", "players": ["human", "human"]}, "reads no files"),
        # Blanks that trim() kept but the spec's parser skips: the server tried to open a file
        # a client named ("e /etc/passwd" here, a path the client chose in part).
        ({"topology": "\vfile /etc/passwd", "players": ["human", "human"]}, "reads no files"),
        ({"topology": "\f\vfile /etc/passwd", "players": ["human", "human"]}, "reads no files"),
        ({"topology": "grid 200x200", "players": ["human", "human"]}, "20000"),
        ({"topology": "grid 5x5", "players": ["human", "human"], "names": ["x" * 41]}, "1 to 40"),
        ({"topology": "grid 5x5", "players": ["human", "human"], "names": [""]}, "1 to 40"),
        ({"topology": "grid 5x5", "players": ["human", "human"], "names": ["a\nb"]}, "control"),
        # C1 controls too: U+0085 breaks a line in some programs, U+009B starts a terminal's
        # escape sequence.
        ({"topology": "grid 5x5", "players": ["human", "human"], "names": ["a\u0085b"]},
         "control"),
        ({"topology": "grid 5x5", "players": ["human", "human"], "names": ["\u009b31m"]},
         "control"),
        ({"topology": "grid 5x5", "players": ["human", "human"], "names": ["   "]}, "1 to 40"),
        # A name that shows nothing would be no name on every page.
        ({"topology": "grid 5x5", "players": ["human", "human"], "names": ["\u200b\u3000\ufeff"]},
         "shows nothing"),
        ({"topology": "grid 5x5", "players": ["human", "human"], "names": ["bob\u202eecila"]},
         "direction of text"),
        # Engine seats think on one of the server's engine threads, for a bounded time.
        ({"topology": "grid 5x5", "players": ["human", "mcts:threads=4"]}, "4 threads"),
        ({"topology": "grid 5x5", "players": ["human", "mcts:time=1000000"]}, "60 s a move"),
        ({"topology": "grid 5x5", "players": ["human", "mcts:gametime=99999"]}, "3600 s a game"),
        ({"topology": "grid 5x5", "players": ["human", "mcts:playouts=99999999"]},
         "10,000,000 playouts"),
        # 1,200 points but 360,000 edges in 10 KB of DOT text: edges are bounded too.
        ({"topology": "graph { {%s} -- {%s} }" % (" ".join("a%d" % i for i in range(600)),
                                                   " ".join("b%d" % i for i in range(600))),
          "players": ["human", "human"]}, "320000 edges are supported"),
        ({"topology": 5, "players": ["human", "human"]}, "string"),
        ([1, 2], "object"),
    ]
    for body, words in bad:
        message = error_of(*SERVER.post("/api/games", body), 400)
        assert words in message, (body, message)
    assert "not JSON" in error_of(*SERVER.post("/api/games", raw=b"{nope"), 400)
    assert "deeper" in error_of(*SERVER.post("/api/games", raw=b"[" * 5000), 400)
    # The same reason as `tanbo new` gives for the same board.
    r = subprocess.run([TANBO, "new", os.path.join(TMP, "x.tanbo"), "--topology", "grid 0x5"],
                       capture_output=True, text=True)
    api = error_of(*SERVER.post("/api/games", {"topology": "grid 0x5",
                                               "players": ["human", "human"]}), 400)
    assert api in r.stderr, (api, r.stderr)


def test_moves_statuses():
    g = SERVER.new_game()
    gid = g["id"]
    status, st = SERVER.get("/api/games/" + gid)
    legal = st["legal"]
    assert error_of(*play(SERVER, g, 0, "C3"), 422).startswith("Black cannot play C3")
    assert "not a point" in error_of(*play(SERVER, g, 0, "Z99"), 422)
    assert "turn" in error_of(*play(SERVER, g, 1, legal[0]), 409)
    assert "ply" in error_of(*play(SERVER, g, 0, legal[0], ply=3), 409)
    bad_seat = {"seat": "0" * 32, "point": legal[0]}
    error_of(*SERVER.post("/api/games/%s/moves" % gid, bad_seat), 403)
    other = SERVER.new_game()
    error_of(*SERVER.post("/api/games/%s/moves" % gid,
                          {"seat": other["seats"][0]["token"], "point": legal[0]}), 403)
    error_of(*SERVER.post("/api/games/%s/moves" % gid, {"point": legal[0]}), 400)
    error_of(*SERVER.post("/api/games/%s/moves" % gid, raw=b"not json"), 400)
    error_of(*play(SERVER, g, 0, legal[0], ply="x"), 400)
    error_of(*SERVER.get("/api/games/nosuchgame"), 404)
    error_of(*SERVER.post("/api/games/nosuchgame/moves", {"seat": "x", "point": "A1"}), 404)
    status, after = play(SERVER, g, 0, legal[0], ply=0)
    assert status == 200 and after["ply"] == 1 and after["last"] == legal[0]
    assert after["moves"] == [{"color": "black", "point": legal[0]}]
    status, back = SERVER.get("/api/games/%s?ply=0" % gid)
    assert status == 200 and back["ply"] == 0 and back["legal"] == legal
    error_of(*SERVER.get("/api/games/%s?ply=7" % gid), 400)
    # Resign: only on one's own turn; then the game is over for everyone.
    assert "turn" in error_of(*SERVER.post("/api/games/%s/resign" % gid,
                                           {"seat": g["seats"][0]["token"]}), 409)
    status, over = SERVER.post("/api/games/%s/resign" % gid, {"seat": g["seats"][1]["token"]})
    assert status == 200 and over["winner"] == "black" and over["to_move"] is None
    assert over["moves"][-1]["point"] is None
    assert "over" in error_of(*play(SERVER, g, 0, legal[1]), 409)


def test_413():
    big = json.dumps({"topology": "grid 5x5", "players": ["human", "human"],
                      "x": "a" * 70000}).encode()
    status, body = SERVER.post("/api/games", raw=big)
    assert status == 413 and "64 KB" in body["error"], (status, body)


def test_identical_moves_at_once():
    g = SERVER.new_game("grid 19x19")
    point = SERVER.get("/api/games/" + g["id"])[1]["legal"][0]
    results = []
    barrier = threading.Barrier(16)

    def send():
        barrier.wait()
        results.append(play(SERVER, g, 0, point)[0])
    threads = [threading.Thread(target=send) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [200] + [409] * 15, results
    assert SERVER.get("/api/games/" + g["id"])[1]["ply"] == 1


def test_engine_seat():
    g = SERVER.new_game("grid 5x5", ["human", "greedy"])
    point = SERVER.get("/api/games/" + g["id"])[1]["legal"][0]
    assert play(SERVER, g, 0, point)[0] == 200
    for _ in range(200):
        st = SERVER.get("/api/games/" + g["id"])[1]
        if st["ply"] >= 2 or st["winner"]:
            break
        time.sleep(0.05)
    assert st["ply"] >= 2 or st["winner"], st
    assert st["moves"][1]["color"] == "white"
    # Nobody resigns for an engine, not even with its seat's token (the creator has it): on the
    # engine's turn the answer is 409, and the engine still moves.
    g = SERVER.new_game("grid 9x9", ["human", "mcts:time=2"])
    point = SERVER.get("/api/games/" + g["id"])[1]["legal"][0]
    assert play(SERVER, g, 0, point)[0] == 200
    status, body = SERVER.post("/api/games/%s/resign" % g["id"], {"seat": g["seats"][1]["token"]})
    assert status == 409 and body["error"] == (
        "White is played by the engine (mcts:time=2), which does not resign"), (status, body)
    for _ in range(200):
        st = SERVER.get("/api/games/" + g["id"])[1]
        if st["ply"] >= 2:
            break
        time.sleep(0.05)
    assert st["ply"] == 2 and st["winner"] is None and st["moves"][1]["point"], st


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


def test_event_stream():
    g = SERVER.new_game()
    host = urllib.parse.urlparse(SERVER.base)
    conn = http.client.HTTPConnection(host.hostname, host.port, timeout=20)
    conn.request("GET", "/api/games/%s/events" % g["id"])
    resp = conn.getresponse()
    assert resp.status == 200 and resp.getheader("Content-Type").startswith("text/event-stream")
    first = read_event(resp)
    assert first["event"] == "state" and first["id"] == "0"
    assert json.loads(first["data"])["ply"] == 0
    legal = json.loads(first["data"])["legal"]
    assert play(SERVER, g, 0, legal[0])[0] == 200
    second = read_event(resp)
    assert second["id"] == "1" and json.loads(second["data"])["last"] == legal[0]
    conn.close()
    error_of(*SERVER.get("/api/games/nosuchgame/events"), 404)


def test_event_stream_http10():
    """An HTTP/1.0 client knows no chunks: its stream is plain bytes, ended by the close."""
    g = SERVER.new_game()
    host = urllib.parse.urlparse(SERVER.base)
    with socket.create_connection((host.hostname, host.port), timeout=20) as sock:
        sock.sendall(b"GET /api/games/%s/events HTTP/1.0\r\n\r\n" % g["id"].encode())
        resp = sock.makefile("rb")
        head = b""
        while not head.endswith(b"\r\n\r\n"):
            head += resp.readline()
        assert head.startswith(b"HTTP/1.1 200 "), head
        assert b"chunked" not in head.lower() and b"Connection: close" in head, head
        first = read_event(resp)
        assert first["event"] == "state" and first["id"] == "0"
        legal = json.loads(first["data"])["legal"]
        assert play(SERVER, g, 0, legal[0])[0] == 200
        assert read_event(resp)["id"] == "1"


def test_export_round_trip():
    g = SERVER.new_game("grid 5x5", names=["ann", "bob"])
    legal = SERVER.get("/api/games/" + g["id"])[1]["legal"]
    assert play(SERVER, g, 0, legal[0])[0] == 200
    for fmt in ("tanbo", "sgf"):
        status, text = SERVER.get("/api/games/%s/export?format=%s" % (g["id"], fmt))
        assert status == 200, (status, text)
        path = os.path.join(TMP, "round." + fmt)
        with open(path, "w") as f:
            f.write(text)
        shown = subprocess.run([TANBO, "show", path, "--moves"], capture_output=True, text=True)
        assert shown.returncode == 0 and legal[0] in shown.stdout, shown
    out = os.path.join(TMP, "imported.tanbo")
    r = subprocess.run([TANBO, "import", os.path.join(TMP, "round.sgf"), "-o", out],
                       capture_output=True, text=True)
    assert r.returncode == 0, r
    cube = SERVER.new_game("grid 3x3x3")
    assert "2D" in error_of(*SERVER.get("/api/games/%s/export?format=sgf" % cube["id"]), 400)
    error_of(*SERVER.get("/api/games/%s/export?format=pdf" % cube["id"]), 400)


def raw_get(server, path):
    host = urllib.parse.urlparse(server.base)
    conn = http.client.HTTPConnection(host.hostname, host.port, timeout=20)
    conn.request("GET", path)
    resp = conn.getresponse()
    body = resp.read()
    conn.close()
    return resp.status, resp.getheader("Content-Type"), body


def test_static_files_and_escapes():
    root = os.path.join(TMP, "web")
    os.makedirs(os.path.join(root, "js"))
    with open(os.path.join(TMP, "secret.txt"), "w") as f:
        f.write("SECRET")
    for name, text in [("index.html", "INDEX"), ("game.html", "GAME"), ("js/app.js", "JS")]:
        with open(os.path.join(root, name), "w") as f:
            f.write(text)
    os.symlink(os.path.join(TMP, "secret.txt"), os.path.join(root, "link.txt"))
    server = Server(TANBO, TMP, "--web-root", root, db="web.sqlite")
    try:
        assert raw_get(server, "/")[2] == b"INDEX"
        assert raw_get(server, "/games/abcdefghijkl")[2] == b"GAME"
        assert raw_get(server, "/games/abcdefghijkl?seat=00")[2] == b"GAME"
        status, ctype, body = raw_get(server, "/js/app.js")
        assert status == 200 and ctype.startswith("text/javascript") and body == b"JS"
        for path in ["/../secret.txt", "/js/../../secret.txt", "/%2e%2e/secret.txt",
                     "/js/%2e%2e/%2e%2e/secret.txt", "/link.txt", "/%2fetc%2fpasswd",
                     "//etc/passwd", "/js", "/nothing.html", "/js/..%5c..%5csecret.txt"]:
            status, _, body = raw_get(server, path)
            assert status == 404 and b"SECRET" not in body and b"root:" not in body, path
    finally:
        server.stop()


def cpu_seconds(server):
    """The CPU time the server has used (user and system), from /proc."""
    with open("/proc/%d/stat" % server.proc.pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_page_files_are_compressed_once():
    """Each request for a page's file compressed it anew (30 ms of CPU for three.js), and page
    files count against no rate: one client could keep every core busy. The gzip form is made
    once and kept while the file stays the same."""
    root = tempfile.mkdtemp(dir=TMP)
    rng = random.Random(7)
    text = "".join("var v%d = %d;\n" % (rng.randrange(10 ** 6), rng.randrange(10 ** 9))
                   for _ in range(300000)).encode()
    with open(os.path.join(root, "big.js"), "wb") as f:
        f.write(text)
    server = Server(TANBO, TMP, "--web-root", root, db="pages.sqlite")
    try:
        host = urllib.parse.urlparse(server.base)
        conn = http.client.HTTPConnection(host.hostname, host.port, timeout=60)

        def fetch(headers):
            conn.request("GET", "/big.js", headers=headers)
            resp = conn.getresponse()
            return resp, resp.read()
        start = cpu_seconds(server)
        resp, body = fetch({"Accept-Encoding": "gzip"})
        first = cpu_seconds(server) - start  # reading the file and compressing it once
        assert resp.getheader("Content-Encoding") == "gzip" and gzip.decompress(body) == text
        assert first > 0, first
        vary = resp.getheader("Vary") or ""
        start = cpu_seconds(server)
        for _ in range(20):
            resp, body = fetch({"Accept-Encoding": "gzip, deflate, br"})
            assert resp.getheader("Content-Encoding") == "gzip" and gzip.decompress(body) == text
        again = cpu_seconds(server) - start
        assert again < 5 * first, (first, again)  # it was 20 times the first
        assert "Accept-Encoding" in vary, vary  # (for caches between)
        # Without gzip, a range of it, its length alone (HEAD): the file as it is.
        resp, body = fetch({})
        assert resp.getheader("Content-Encoding") is None and body == text
        resp, body = fetch({"Accept-Encoding": "gzip", "Range": "bytes=10-19"})
        assert resp.status == 206 and body == text[10:20], (resp.status, body)
        conn.request("HEAD", "/big.js")
        resp = conn.getresponse()
        assert resp.getheader("Content-Length") == str(len(text)) and resp.read() == b""
        # A changed file is read again.
        with open(os.path.join(root, "big.js"), "wb") as f:
            f.write(b"changed();\n")
        resp, body = fetch({"Accept-Encoding": "gzip"})
        assert body == b"changed();\n", body[:100]
        conn.close()
    finally:
        server.stop()


def test_429():
    server = Server(TANBO, TMP, "--rate", "1", db="rate.sqlite")
    try:
        statuses = [server.get("/api/games")[0] for _ in range(12)]
        assert statuses[0] == 200 and 429 in statuses, statuses
        assert "too many" in server.get("/api/games")[1]["error"]
    finally:
        server.stop()


def open_stream(server, game):
    host = urllib.parse.urlparse(server.base)
    conn = http.client.HTTPConnection(host.hostname, host.port, timeout=20)
    conn.request("GET", "/api/games/%s/events" % game["id"])
    return conn, conn.getresponse()


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


def test_methods():
    g = SERVER.new_game()
    gid = g["id"]
    # A route's other methods are 405 with the ones it has, not "no such page or game".
    for method, path, allowed in [("DELETE", "/api/games/" + gid, "GET, HEAD"),
                                  ("PUT", "/api/games", "GET, HEAD, POST"),
                                  ("POST", "/api/games/%s/board" % gid, "GET, HEAD"),
                                  ("GET", "/api/games/%s/moves" % gid, "POST"),
                                  ("PATCH", "/api/games/%s/resign" % gid, "POST"),
                                  ("POST", "/index.html", "GET, HEAD")]:
        answer = exchange(SERVER, b"%s %s HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
                          b"Connection: close\r\n\r\n" % (method.encode(), path.encode()))
        assert answer.startswith(b"HTTP/1.1 405 "), (method, path, answer)
        assert b"Allow: " + allowed.encode() + b"\r\n" in answer, (method, path, answer)
        assert b"is not a method of" in answer, answer
    answer = exchange(SERVER, b"OPTIONS /api/games/%s/moves HTTP/1.1\r\nHost: x\r\n"
                      b"Connection: close\r\n\r\n" % gid.encode())
    assert answer.startswith(b"HTTP/1.1 204 ") and b"Allow: POST\r\n" in answer, answer
    for method in (b"DELETE", b"GET", b"OPTIONS"):
        answer = exchange(SERVER, b"%s /api/nothing HTTP/1.1\r\nHost: x\r\nConnection: close"
                          b"\r\n\r\n" % method)
        assert answer.startswith(b"HTTP/1.1 404 ") and b"no such API route" in answer, answer
    assert SERVER.get("/api/games/" + gid)[1]["ply"] == 0


def test_database_deleted_while_running():
    """SQLite writes on to a deleted file, which the next start does not find: every move
    answered 200 was lost. Writes are refused instead (503), and change nothing."""
    folder = tempfile.mkdtemp(dir=TMP)
    server = Server(TANBO, folder)
    try:
        g = server.new_game()
        legal = server.get("/api/games/" + g["id"])[1]["legal"]
        assert play(server, g, 0, legal[0])[0] == 200
        os.rename(os.path.join(folder, "games.sqlite"), os.path.join(folder, "moved.sqlite"))
        for status, body in [play(server, g, 1, legal[-1]),
                             server.post("/api/games/%s/resign" % g["id"],
                                         {"seat": g["seats"][1]["token"]}),
                             server.post("/api/games", {"topology": "grid 5x5",
                                                        "players": ["human", "human"]})]:
            assert "was deleted, moved or replaced" in error_of(status, body, 503), body
        st = server.get("/api/games/" + g["id"])[1]
        assert st["ply"] == 1 and st["to_move"] == "white", st
    finally:
        code, out = server.stop()
    assert code == 0 and out.count("was deleted, moved or replaced") == 1, (code, out)


def test_one_server_a_database():
    """A second server on a database made the first one's games stale: its moves then failed
    for good (500, the turn's row taken). The second one is refused at its start."""
    folder = tempfile.mkdtemp(dir=TMP)
    first = Server(TANBO, folder)
    try:
        g = first.new_game()
        r = subprocess.run([TANBO, "serve", "--host", "127.0.0.1", "--port", "0", "--db",
                            os.path.join(folder, "games.sqlite")],
                           capture_output=True, text=True, timeout=20, cwd=folder)
        assert r.returncode == 2 and r.stdout == "", r
        assert "another tanbo serve uses it" in r.stderr, r
        legal = first.get("/api/games/" + g["id"])[1]["legal"]
        assert play(first, g, 0, legal[0])[0] == 200
        # Other programs still read it while the server runs (sqlite3's .backup does).
        db = sqlite3.connect(os.path.join(folder, "games.sqlite"))
        assert db.execute("SELECT count(*) FROM turns").fetchone()[0] == 1
        db.close()
    finally:
        first.stop()
    # Once the first one has stopped, a server starts on it again.
    again = Server(TANBO, folder)
    try:
        assert again.get("/api/games/" + g["id"])[1]["ply"] == 1
    finally:
        again.stop()


def test_unusable_databases_are_refused_at_start():
    folder = tempfile.mkdtemp(dir=TMP)
    os.mkdir(os.path.join(folder, "folder.sqlite"))
    r = subprocess.run([TANBO, "serve", "--host", "127.0.0.1", "--port", "0", "--db",
                        os.path.join(folder, "folder.sqlite")],
                       capture_output=True, text=True, timeout=20, cwd=folder)
    assert r.returncode == 2 and "it is a folder" in r.stderr, r
    # A file the server may not write (root may write any file: an immutable one, then) was
    # opened read-only, and the server ran, refusing every move (500).
    server = Server(TANBO, folder)
    server.new_game()
    server.stop()
    db = os.path.join(folder, "games.sqlite")
    if subprocess.run(["chattr", "+i", db], capture_output=True).returncode != 0:
        os.chmod(db, 0o444)
        if os.access(db, os.W_OK):
            print("  (read-only database not checked: chattr +i failed, and chmod does not "
                  "stop this user)")
            return
    try:
        r = subprocess.run([TANBO, "serve", "--host", "127.0.0.1", "--port", "0", "--db", db],
                           capture_output=True, text=True, timeout=20, cwd=folder)
        assert r.returncode == 2 and "it is read-only" in r.stderr and r.stdout == "", r
    finally:
        subprocess.run(["chattr", "-i", db], capture_output=True)
        os.chmod(db, 0o644)


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


def test_damaged_database_file():
    """A database whose pages are damaged stops the start with a message that names the file
    (it said "the database failed: database disk image is malformed", naming nothing)."""
    folder = tempfile.mkdtemp(dir=TMP)
    server = Server(TANBO, folder)
    g = server.new_game()
    assert play(server, g, 0, server.get("/api/games/" + g["id"])[1]["legal"][0])[0] == 200
    server.stop()
    path = os.path.join(folder, "games.sqlite")
    db = sqlite3.connect(path)
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'turns'").fetchone()[0]
    db.close()
    with open(path, "r+b") as f:
        f.seek((root - 1) * page_size)
        f.write(b"\xff" * 64)
    r = subprocess.run([TANBO, "serve", "--host", "127.0.0.1", "--port", "0", "--db", path],
                       capture_output=True, text=True, timeout=20, cwd=folder)
    assert r.returncode == 2 and r.stdout == "", r
    assert "cannot read the games of the database " + path in r.stderr, r.stderr
    assert "malformed" in r.stderr and ".recover" in r.stderr, r.stderr


def test_refused_start():
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = str(taken.getsockname()[1])
    for args, words in [(["--port", port], "cannot listen"), (["--port", "70000"], "--port"),
                        (["--db", os.path.join(TMP, "no", "such", "x.sqlite"), "--port", "0"],
                         "cannot open the database"),
                        (["--sync", "maybe"], "--sync"),
                        (["--db", "", "--port", "0"], "is no file"),
                        (["--db", ":memory:", "--port", "0"], "is no file"),
                        (["--max-points", "-1"], "must be a whole number of 0 or more"),
                        (["--max-connections", "-1"], "--max-connections must be 0 to 100000"),
                        (["--request-timeout", "5000"], "--request-timeout must be 0 to 3600"),
                        (["--request-timeout", "nan"], "--request-timeout must be 0 to 3600")]:
        r = subprocess.run([TANBO, "serve", "--host", "127.0.0.1", *args], capture_output=True,
                           text=True, timeout=20, cwd=TMP)
        assert r.returncode == 2 and words in r.stderr and r.stdout == "", (args, r)
    taken.close()
    # A port another tanbo serve listens on is refused too (the two would share its requests).
    first = Server(TANBO, TMP, db="first.sqlite")
    try:
        port = first.base.rsplit(":", 1)[1]
        r = subprocess.run([TANBO, "serve", "--host", "127.0.0.1", "--port", port,
                            "--db", os.path.join(TMP, "second.sqlite")],
                           capture_output=True, text=True, timeout=20, cwd=TMP)
        assert r.returncode == 2 and "cannot listen" in r.stderr and r.stdout == "", r
    finally:
        first.stop()


def test_kill_9_keeps_answered_moves():
    folder = tempfile.mkdtemp(dir=TMP)
    server = Server(TANBO, folder)
    g = server.new_game("grid 19x19")
    answered = []
    stop = threading.Event()

    def burst():
        st = server.get("/api/games/" + g["id"])[1]
        while not stop.is_set() and st.get("legal"):
            seat = 0 if st["to_move"] == "black" else 1
            try:
                status, st = play(server, g, seat, st["legal"][len(st["legal"]) // 2])
            except OSError:
                return
            if status != 200:
                return
            answered.append(st["last"])
    t = threading.Thread(target=burst)
    t.start()
    time.sleep(1.0)
    server.kill()
    stop.set()
    t.join()
    assert len(answered) > 5, answered
    server = Server(TANBO, folder)
    try:
        st = server.get("/api/games/" + g["id"])[1]
        kept = [m["point"] for m in st["moves"]]
        assert kept[:len(answered)] == answered, (kept, answered)
        assert len(kept) <= len(answered) + 1
        # The game goes on after the restart.
        seat = 0 if st["to_move"] == "black" else 1
        assert play(server, g, seat, st["legal"][0], ply=st["ply"])[0] == 200
    finally:
        server.stop()


def test_sigterm_with_slow_idle_and_busy_clients():
    """A stop waited for each connection's request: with --request-timeout 0, for ever while a
    client sent a byte every few seconds (20 s by default). Now it ends their waits at once,
    and moves sent up to the end are stored, as answered, in a sound database."""
    folder = tempfile.mkdtemp(dir=TMP)
    server = Server(TANBO, folder, "--request-timeout", "0", "--rate", "0")
    g = server.new_game("grid 19x19")
    host = urllib.parse.urlparse(server.base)
    stop = threading.Event()
    answered = []

    def trickle():
        try:
            with socket.create_connection((host.hostname, host.port), timeout=30) as sock:
                sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
                while not stop.wait(1):
                    sock.sendall(b"X: y\r\n")
        except OSError:
            pass  # closed by the server

    def burst():
        st = server.get("/api/games/" + g["id"])[1]
        while not stop.is_set() and st.get("legal"):
            try:
                status, st = play(server, g, 0 if st["to_move"] == "black" else 1,
                                  st["legal"][len(st["legal"]) // 2])
            except OSError:
                return
            if status != 200:
                return
            answered.append(st["last"])
    threads = [threading.Thread(target=trickle, daemon=True) for _ in range(3)]
    threads.append(threading.Thread(target=burst, daemon=True))
    idle = socket.create_connection((host.hostname, host.port))
    stream, events = open_stream(server, g)
    try:
        for t in threads:
            t.start()
        time.sleep(1.5)
        server.proc.terminate()
        try:
            out, err = server.proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            raise AssertionError("the server did not stop within 10 s of SIGTERM")
    finally:
        stop.set()
        idle.close()
        stream.close()
    assert server.proc.returncode == 0 and "tanbo serve: stopped (1 games in" in out, (out, err)
    assert len(answered) > 3, answered
    db = sqlite3.connect(os.path.join(folder, "games.sqlite"))
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    kept = [p for (p,) in db.execute("SELECT point FROM turns ORDER BY ply")]
    db.close()
    assert kept[:len(answered)] == answered and len(kept) <= len(answered) + 1, (kept, answered)


def test_sigterm_while_starting():
    """httplib's stop() did nothing before its accept loop ran: a SIGTERM that came during the
    start (pending until the server listened) was lost about one time in ten, and the server
    ran on. Each of these stops."""
    folder = tempfile.mkdtemp(dir=TMP)
    server = Server(TANBO, folder, "--rate", "0")
    for _ in range(100):
        server.new_game("grid 9x9")
    server.stop()
    for i in range(30):
        proc = subprocess.Popen([TANBO, "serve", "--host", "127.0.0.1", "--port", "0", "--db",
                                 os.path.join(folder, "games.sqlite")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=folder)
        time.sleep(0.005 * i)  # at every moment of the start, from before the replay to after
        proc.terminate()
        try:
            out, _ = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            raise AssertionError("SIGTERM %.3f s after the start was lost" % (0.005 * i))
        assert proc.returncode in (0, -signal.SIGTERM), (proc.returncode, out)


def test_engine_moves_after_the_database_was_locked():
    """An engine's move the database refused (locked by another program for more than its
    5 s) left the game waiting for that engine for good; it is tried again."""
    folder = tempfile.mkdtemp(dir=TMP)
    server = Server(TANBO, folder)
    try:
        g = server.new_game("grid 9x9", ["human", "mcts:time=1"])
        legal = server.get("/api/games/" + g["id"])[1]["legal"]
        db = sqlite3.connect(os.path.join(folder, "games.sqlite"), isolation_level=None)
        assert play(server, g, 0, legal[0])[0] == 200
        db.execute("BEGIN EXCLUSIVE")  # while the engine thinks (1 s), and for 5 s after
        time.sleep(8)
        assert server.get("/api/games/" + g["id"])[1]["ply"] == 1
        db.execute("ROLLBACK")
        db.close()
        for _ in range(300):
            st = server.get("/api/games/" + g["id"])[1]
            if st["ply"] == 2:
                break
            time.sleep(0.05)
        assert st["ply"] == 2 and st["moves"][1]["color"] == "white", st
    finally:
        code, out = server.stop()
    assert code == 0 and out.count("the engine's move could not be stored") == 1, out


def test_games_waiting_for_an_engine_are_bounded():
    # Games waiting for an engine stay in memory: with --games-in-memory 2, a third waiting
    # game is refused (503) until the engine catches up; games of people only are not.
    folder = tempfile.mkdtemp(dir=TMP)
    server = Server(TANBO, folder, "--games-in-memory", "2", "--engine-threads", "1")
    try:
        # The first game's engine may already think (out of the queue) or still wait.
        created = 0
        for _ in range(5):
            status, body = server.post("/api/games", {"topology": "grid 9x9",
                                                      "players": ["mcts:time=60", "human"]})
            if status != 201:
                assert "wait for an engine" in error_of(status, body, 503), body
                break
            created += 1
        assert 2 <= created <= 3, created
        server.new_game("grid 9x9")
    finally:
        code, out = server.stop()
    assert code == 0, (code, out)


def test_names_and_a_damaged_database_across_restarts():
    folder = tempfile.mkdtemp(dir=TMP)
    server = Server(TANBO, folder)
    # Spaces at either end of a name are taken off, as the stored game file reads it.
    g = server.new_game(names=["  ann  ", "bob"])
    assert [p["name"] for p in server.get("/api/games/" + g["id"])[1]["players"]] == ["ann", "bob"]
    lost = server.new_game()
    gapped = server.new_game()
    st = server.get("/api/games/" + gapped["id"])[1]
    assert play(server, gapped, 0, st["legal"][0])[0] == 200
    server.stop()
    # A game with a seat missing, or a turn out of place, is left out with a line on stderr;
    # the others are served.
    db = sqlite3.connect(os.path.join(folder, "games.sqlite"))
    db.execute("DELETE FROM seats WHERE game = ? AND player = 2", (lost["id"],))
    db.execute("UPDATE turns SET ply = 7 WHERE game = ?", (gapped["id"],))
    db.commit()
    db.close()
    server = Server(TANBO, folder)
    try:
        names = [p["name"] for p in server.get("/api/games/" + g["id"])[1]["players"]]
        assert names == ["ann", "bob"], names
        status, listing = server.get("/api/games")
        assert status == 200 and [x["id"] for x in listing["games"]] == [g["id"]], listing
        assert server.get("/api/games/" + lost["id"])[0] == 404
        assert server.get("/api/games/" + gapped["id"])[0] == 404
    finally:
        code, out = server.stop()
    assert "left out: it has 1 seats for 2 players" in out, out
    assert "left out: its turn 1 is damaged (ply 7, player 1)" in out, out


def wait_for_winner(server, game):
    """Polls an engines' game for up to 20 s until it has a winner."""
    for _ in range(400):
        st = server.get("/api/games/" + game["id"])[1]
        if st["winner"]:
            break
        time.sleep(0.05)
    assert st["winner"], st


def test_engine_game_resumes_after_restart():
    folder = tempfile.mkdtemp(dir=TMP)
    server = Server(TANBO, folder)
    g = server.new_game("grid 9x9", ["greedy", "random"])
    server.kill()
    server = Server(TANBO, folder)
    try:
        wait_for_winner(server, g)
    finally:
        server.stop()


def resident_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS for %d" % pid)


def test_engine_trees_are_not_kept_while_people_think():
    """Each engine kept its search tree for its next move, and its solver's table (16 MB), for
    as long as its game stayed in memory, so that games waiting for people held them each: the
    server grew by about 60 MB with every game against mcts:playouts=100000 on 7x7. Now the
    memory of the first search is used again by the next ones."""
    folder = tempfile.mkdtemp(dir=TMP)
    server = Server(TANBO, folder, "--rate", "0")
    try:
        base = resident_mb(server.proc.pid)
        sizes = []
        for _ in range(5):
            g = server.new_game("grid 7x7", ["mcts:playouts=100000", "human"])
            for _ in range(600):
                if server.get("/api/games/" + g["id"])[1]["ply"] == 1:
                    break
                time.sleep(0.05)
            else:
                raise AssertionError("the engine did not move within 30 s")
            sizes.append(resident_mb(server.proc.pid) - base)
    finally:
        server.stop()
    # Kept: 67, 162, 224, 285 and 344 MB over the start; now 8, 43, 44, 46 and 47.
    assert sizes[-1] - sizes[1] < 0.5 * sizes[1], sizes


def test_games_beyond_memory_are_read_back():
    folder = tempfile.mkdtemp(dir=TMP)
    server = Server(TANBO, folder, "--games-in-memory", "2")
    try:
        engines = server.new_game("grid 7x7", ["greedy", "random"])
        games = [server.new_game("grid 5x5") for _ in range(6)]
        played = {g["id"]: [] for g in games}
        # Two rounds of moves over the six games: each move reaches a game that others have
        # pushed out of memory since its last move (the engines' game stays while they play).
        for _ in range(2):
            for g in games:
                st = server.get("/api/games/" + g["id"])[1]
                assert st["ply"] == len(played[g["id"]]), (st["ply"], played[g["id"]])
                seat = 0 if st["to_move"] == "black" else 1
                point = st["legal"][len(played[g["id"]]) % len(st["legal"])]
                status, after = play(server, g, seat, point, ply=st["ply"])
                assert status == 200 and after["ply"] == st["ply"] + 1, (status, after)
                played[g["id"]].append(point)
        for g in games:
            st = server.get("/api/games/" + g["id"])[1]
            assert [m["point"] for m in st["moves"]] == played[g["id"]], st["moves"]
        listing = server.get("/api/games")[1]["games"]
        assert [x["id"] for x in listing] == [g["id"] for g in reversed(games)] + [engines["id"]]
        assert all(x["ply"] == 2 for x in listing[:-1]), listing
        # A seat token of a game read back still counts, and a wrong one still does not.
        g = games[0]
        status, body = server.post("/api/games/%s/moves" % g["id"],
                                   dict(seat=games[1]["seats"][0]["token"], point="A1"))
        error_of(status, body, 403)
        assert server.get("/api/games/nosuchgame000")[0] == 404
        # The engines play their game to the end meanwhile.
        wait_for_winner(server, engines)
    finally:
        code, out = server.stop()
    assert code == 0, (code, out)
    most = int(out.split("at most ")[1].split(" ")[0])
    assert "7 games in" in out and 1 <= most <= 4, out


def main():
    global SERVER
    SERVER = Server(TANBO, TMP)
    tests = [(n, f) for n, f in sorted(globals().items()) if n.startswith("test_")]
    try:
        for name, f in tests:
            start = time.time()
            f()
            print("ok %s (%.1f s)" % (name, time.time() - start), flush=True)
    finally:
        code, out = SERVER.stop()
    assert code == 0 and "stopped" in out, (code, out)
    print("all %d passed" % len(tests))


if __name__ == "__main__":
    main()
