"""API tests of `tanbo serve`: every status of the contract, games and their states, boards,
moves made at once, an engine seat, the event stream, export round trips, the page's files and
the methods of each route.

usage: python3 test_api.py TANBO  (every test_* function runs; the first failure ends it)
"""
import gzip
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_support import (  # noqa: E402
    Server, error_of, exchange, open_stream, play, read_event, run_tests, wait_for_winner)

TANBO = sys.argv[1] if len(sys.argv) > 1 else "tanbo"
TMP = tempfile.mkdtemp(prefix="tanbo-serve-")
SERVER = None  # the server most tests share (run_tests sets it)


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


def setups_of(topology, players=None):
    query = {"topology": topology}
    if players is not None:
        query["players"] = players
    return SERVER.get("/api/setups?" + urllib.parse.urlencode(query))


def test_setups():
    # The boards of the rule documents get their own setups as "default"; odd boards the 2026
    # start; every setup offered starts a game, and "default" starts the one named first.
    for topology, players, default in [("grid 7x7", 2, "steere2026"), ("grid 9x9", 2, "steere1995"),
                                       ("grid 13x13", 2, "steere2005"), ("grid 19x19", 4, "four"),
                                       ("grid 5x5x5", 2, "pbmserv"), ("hex 4", 3, "hexbo"),
                                       ("grid 4x4x4", 2, "spaced")]:
        status, fit = setups_of(topology, str(players))
        assert status == 200 and fit["topology"] == topology and fit["players"] == players, fit
        assert fit["default"] == default and fit["setups"][0] == default, fit
        seats = ["human"] * players
        for setup in fit["setups"]:
            g = SERVER.new_game(topology, seats, setup=setup)
            assert SERVER.get("/api/games/" + g["id"])[1]["setup"] == setup
        g = SERVER.new_game(topology, seats)
        assert SERVER.get("/api/games/" + g["id"])[1]["setup"] == default
    assert setups_of("grid 7x7")[1]["setups"] == ["steere2026", "dense", "spaced"]
    assert setups_of("grid 7x7")[1]["players"] is None
    assert "four" in setups_of("grid 19x19")[1]["setups"]  # (any count: four seats 4)
    assert "four" not in setups_of("grid 19x19", "2")[1]["setups"]
    status, fit = setups_of("grid  5X5 ")
    assert status == 200 and fit["topology"] == "grid 5x5", fit
    status, fit = setups_of("grid 2x2", "2")
    assert status == 200 and fit == {"topology": "grid 2x2", "players": 2, "default": None,
                                     "setups": []}, fit
    status, fit = setups_of("graph { a [stone=black]; c [stone=white]; a -- b -- c }")
    assert status == 200 and fit["topology"] == "file board" and fit["setups"] == ["file"], fit
    # A DOT board's stones that start no game (Black has none; two Black seeds touch).
    for dot in ("graph { c [stone=white]; a -- b -- c }",
                "graph { a [stone=black]; b [stone=black]; d [stone=white]; a -- b -- c -- d }"):
        status, fit = setups_of(dot, "2")
        assert status == 200 and fit["setups"] == [] and fit["default"] is None, fit
    # Refusals: the reasons POST /api/games gives for the board, and the player count.
    for query, reason in [("", "the query needs topology=BOARD"),
                          ("?players=2", "the query needs topology=BOARD"),
                          ("?topology=grid%205x5&players=9", "not a number of players (2 to 8)"),
                          ("?topology=grid%205x5&players=1", "not a number of players"),
                          ("?topology=grid%205x5&players=02", "not a number of players"),
                          ("?topology=grid%205x5&players=", "not a number of players"),
                          ("?topology=grid%203x", "grid 3x"),
                          ("?topology=file%20%2Fetc%2Fpasswd", "the server reads no files"),
                          ("?topology=grid%201000x1000", "at most 20000 points")]:
        status, body = SERVER.get("/api/setups" + query)
        assert reason in error_of(status, body, 400), (query, body)


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


def test_rematch():
    g = SERVER.new_game("grid 5x5", names=["ann", "bob"])
    ann, bob = g["seats"]
    path = "/api/games/%s/rematch" % g["id"]
    assert "not over" in error_of(*SERVER.post(path, {"seat": ann["token"]}), 409)
    assert "not a seat" in error_of(*SERVER.post(path, {"seat": "0" * 32}), 403)
    assert "seat" in error_of(*SERVER.post(path, {}), 400)
    stream_conn, stream = open_stream(SERVER, g)
    assert json.loads(read_event(stream)["data"])["next"] is None
    assert SERVER.post("/api/games/%s/resign" % g["id"], {"seat": ann["token"]})[0] == 200
    assert json.loads(read_event(stream)["data"])["winner"] == "white"
    # Either seat starts it; each player takes the other colour, with a new seat of its own.
    status, made = SERVER.post(path, {"seat": bob["token"]})
    assert status == 201 and made["url"] == "/games/" + made["id"] != g["url"], (status, made)
    nid = made["id"]
    status, new = SERVER.get("/api/games/" + nid)
    assert new["players"] == [{"color": "black", "name": "bob", "kind": "human"},
                              {"color": "white", "name": "ann", "kind": "human"}], new
    assert (new["topology"], new["setup"], new["ply"], new["next"]) == ("grid 5x5", "steere2026",
                                                                      0, None)
    token = made["seat_url"].split("?seat=")[1]
    assert made["seat_url"] == "/games/%s?seat=%s" % (nid, token)
    assert SERVER.get("/api/games/%s?seat=%s" % (nid, token))[1]["seat"]["name"] == "bob"
    # The finished game names it, live and to each seat with that seat's link in it.
    assert json.loads(read_event(stream)["data"])["next"] == nid
    stream_conn.close()
    old = SERVER.get("/api/games/" + g["id"])[1]
    assert old["next"] == nid and "next_seat" not in old
    mine = SERVER.get("/api/games/%s?seat=%s" % (g["id"], ann["token"]))[1]
    theirs = SERVER.get("/api/games/%s?seat=%s" % (g["id"], bob["token"]))[1]
    assert theirs["next_seat"] == made["seat_url"] and mine["next_seat"] != made["seat_url"]
    seat = SERVER.get("/api/games/" + mine["next_seat"].split("/games/")[1])[1]["seat"]
    assert seat == {"color": "white", "name": "ann", "kind": "human"}, seat
    # Asked again (by the other seat), the same game: one rematch a game.
    status, again = SERVER.post(path, {"seat": ann["token"]})
    assert status == 200 and again["id"] == nid and again["seat_url"] == mine["next_seat"]
    # Many seats at once start one game.
    g = SERVER.new_game("grid 5x5")
    SERVER.post("/api/games/%s/resign" % g["id"], {"seat": g["seats"][0]["token"]})
    answers = []
    barrier = threading.Barrier(8)

    def send(i):
        barrier.wait()
        answers.append(SERVER.post("/api/games/%s/rematch" % g["id"],
                                   {"seat": g["seats"][i % 2]["token"]}))
    threads = [threading.Thread(target=send, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(a[0] for a in answers) == [200] * 7 + [201], answers
    assert len({a[1]["id"] for a in answers}) == 1, answers
    # An engine seat comes along and plays its new colour.
    g = SERVER.new_game("grid 5x5", ["human", "random"])
    SERVER.post("/api/games/%s/resign" % g["id"], {"seat": g["seats"][0]["token"]})
    status, made = SERVER.post("/api/games/%s/rematch" % g["id"], {"seat": g["seats"][0]["token"]})
    assert status == 201, made
    for _ in range(400):
        new = SERVER.get("/api/games/" + made["id"])[1]
        if new["ply"] >= 1:
            break
        time.sleep(0.05)
    assert [p["kind"] for p in new["players"]] == ["random", "human"] and new["ply"] == 1, new
    assert new["to_move"] == "white" and new["moves"][0]["color"] == "black"


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


def test_methods():
    g = SERVER.new_game()
    gid = g["id"]
    # A route's other methods are 405 with the ones it has, not "no such page or game".
    for method, path, allowed in [("DELETE", "/api/games/" + gid, "GET, HEAD"),
                                  ("PUT", "/api/games", "GET, HEAD, POST"),
                                  ("POST", "/api/games/%s/board" % gid, "GET, HEAD"),
                                  ("POST", "/api/setups", "GET, HEAD"),
                                  ("GET", "/api/games/%s/rematch" % gid, "POST"),
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


def test_games_listed_while_they_are_created_are_one_copy():
    # A list that read a game between its write to the database and its place in memory made a
    # second copy of it: two engines then played it, and the database refused the second's
    # moves (a line on stderr each). Games of two engines are created while others list them;
    # each game is played to its end once, and the server says nothing of a refused write.
    server = Server(TANBO, TMP, "--rate", "0", "--engine-threads", "2", db="copies.sqlite")
    made, refused, stop = [], [], threading.Event()

    def create():
        for _ in range(15):
            made.append(server.new_game("grid 5x5", ["greedy", "greedy"]))

    def listing():  # (an assert in a thread would not fail the test: the answers are kept)
        while not stop.is_set():
            status, body = server.get("/api/games")
            if status != 200:
                refused.append((status, body))

    try:
        listers = [threading.Thread(target=listing) for _ in range(3)]
        creators = [threading.Thread(target=create) for _ in range(3)]
        for t in listers + creators:
            t.start()
        for t in creators:
            t.join()
        stop.set()
        for t in listers:
            t.join()
        assert not refused and len(made) == 45, (refused, len(made))
        for g in made:
            st = wait_for_winner(server, g)
            assert st["ply"] == len(st["moves"]), st
        ids = [g["id"] for g in server.get("/api/games")[1]["games"]]
        assert len(ids) == len(set(ids)) and set(g["id"] for g in made) <= set(ids), ids
    finally:
        code, out = server.stop()
    assert code == 0, (code, out)
    assert "could not be stored" not in out and "UNIQUE" not in out, out


if __name__ == "__main__":
    run_tests(globals(), lambda: Server(TANBO, TMP))
