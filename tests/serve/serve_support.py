"""Starting `tanbo serve` on 127.0.0.1 and a free port, and talking JSON to it (urllib)."""
import json
import os
import subprocess
import urllib.error
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
