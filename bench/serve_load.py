#!/usr/bin/env python3
"""Load benchmark of `tanbo serve` (not a test): GAMES games played at once by CLIENTS client
threads (keep-alive connections) while WATCHERS event streams follow them; reports moves a
second and the p50/p99 latency of a move (request sent to answer read), per board.

usage: python3 bench/serve_load.py BUILD/tanbo [--games 50] [--clients 8] [--watchers 200]
                                   [--moves 60] [--sync full|normal]
                                   [--topology "grid 19x19" --topology "grid 5x5x5"]
"""
import argparse
import http.client
import json
import os
import selectors
import socket
import subprocess
import tempfile
import threading
import time


def start(tanbo, folder, max_streams, sync):
    proc = subprocess.Popen([tanbo, "serve", "--port", "0", "--rate", "0",
                             "--max-connections", "0", "--db",
                             os.path.join(folder, "bench.sqlite"), "--max-streams",
                             str(max_streams), "--sync", sync, "--web-root", folder],
                            stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    port = int(line.strip().rstrip("/").rsplit(":", 1)[1])
    return proc, port


def call(conn, method, path, body=None):
    conn.request(method, path, body=None if body is None else json.dumps(body),
                 headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    return r.status, json.loads(r.read())


def watch(port, ids, watchers, stop, counts):
    """Opens `watchers` event streams over the games and reads them all on one thread."""
    sel = selectors.DefaultSelector()
    for i in range(watchers):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(("GET /api/games/%s/events HTTP/1.1\r\nHost: x\r\n\r\n" % ids[i % len(ids)])
                  .encode())
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ)
    while not stop.is_set():
        for key, _ in sel.select(timeout=0.2):
            try:
                data = key.fileobj.recv(1 << 16)
            except BlockingIOError:
                continue
            counts[0] += data.count(b"event: state")
    for key in list(sel.get_map().values()):
        key.fileobj.close()


def client(port, games, moves, latencies):
    conn = http.client.HTTPConnection("127.0.0.1", port)
    states = {g["id"]: call(conn, "GET", "/api/games/" + g["id"])[1] for g in games}
    for _ in range(moves):
        for g in games:
            st = states[g["id"]]
            if not st["legal"]:
                continue
            seat = g["seats"][0 if st["to_move"] == "black" else 1]["token"]
            body = {"seat": seat, "point": st["legal"][len(st["legal"]) // 2], "ply": st["ply"]}
            t0 = time.perf_counter()
            status, st = call(conn, "POST", "/api/games/%s/moves" % g["id"], body)
            latencies.append(time.perf_counter() - t0)
            if status != 200:
                raise SystemExit("move refused: %s %s" % (status, st))
            states[g["id"]] = st


def run(args, topology):
    folder = tempfile.mkdtemp(prefix="tanbo-load-")
    proc, port = start(args.tanbo, folder, args.watchers + 10, args.sync)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port)
        games = [call(conn, "POST", "/api/games", {"topology": topology,
                                                    "players": ["human", "human"]})[1]
                 for _ in range(args.games)]
        stop, counts = threading.Event(), [0]
        watcher = threading.Thread(target=watch, args=(port, [g["id"] for g in games],
                                                       args.watchers, stop, counts))
        watcher.start()
        time.sleep(1.0)  # every stream open and its first event read
        latencies = []
        threads = [threading.Thread(target=client,
                                    args=(port, games[k::args.clients], args.moves, latencies))
                   for k in range(args.clients)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - t0
        time.sleep(0.5)
        stop.set()
        watcher.join()
        latencies.sort()
        n = len(latencies)
        print("%-12s --sync %s, %d games, %d clients, %d watchers: %d moves in %.1f s = %.0f moves/s; "
              "move latency p50 %.1f ms, p99 %.1f ms; %d events delivered" %
              (topology, args.sync, args.games, args.clients, args.watchers, n, elapsed, n / elapsed,
               1000 * latencies[n // 2], 1000 * latencies[min(n - 1, n * 99 // 100)], counts[0]))
    finally:
        proc.terminate()
        proc.wait()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("tanbo")
    p.add_argument("--games", type=int, default=50)
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--watchers", type=int, default=200)
    p.add_argument("--moves", type=int, default=60, help="moves per game")
    p.add_argument("--topology", action="append")
    p.add_argument("--sync", default="normal", help="the server's --sync: full or normal")
    args = p.parse_args()
    for topology in args.topology or ["grid 19x19", "grid 5x5x5"]:
        run(args, topology)


if __name__ == "__main__":
    main()
