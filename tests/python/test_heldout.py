"""The held-out check, run as an outsider runs it: `tanbo gtp` driven over a pipe on small
positions of many board kinds (lines, grids, a torus, cubes, hex boards, DOT graphs; openings
and middle games), each judged by a brute force written here. The brute force plays by the
reference rules over adjacency built here from the point names (or the DOT file written here),
so neither the rules nor the board come from the engine; only the starting stones do, read
with `list_stones`, and the test checks the engine's board against the reference after every
move it plays.

For every position:
- `tanbo-solve` names the winner that brute force finds, and a winning move when the side to
  move wins (a legal move when it loses);
- `tanbo-analyze` answers in its documented form, and every line it marks `proven` is true;
- `genmove` (asked as `reg_genmove`, which plays nothing) keeps the win; over all won
  positions it must do so at least 90% of the time.
"""
import os
import random
import re
import subprocess

import pytest

from reference_rules import Reference

# ---------------------------------------------------------------------------------------------
# Boards from their names.

GRID_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # Go's letters: no I


def line_board(n):
    names = [str(i) for i in range(1, n + 1)]
    nbrs = {v: [] for v in names}
    for i in range(n - 1):
        nbrs[names[i]].append(names[i + 1])
        nbrs[names[i + 1]].append(names[i])
    return names, nbrs


def lattice_board(sizes, wrap=False):
    """Points of a box; 2D ones named like Go (A1, column letter, row number), 3D ones XYZ."""
    def name(c):
        if len(sizes) == 2:
            return GRID_LETTERS[c[0]] + str(c[1] + 1)
        return "".join(str(x + 1) for x in c)

    coords = [()]
    for s in sizes:
        coords = [c + (x,) for c in coords for x in range(s)]
    nbrs = {name(c): [] for c in coords}
    for c in coords:
        for d, s in enumerate(sizes):
            for step in (-1, 1):
                x = c[d] + step
                if wrap:
                    x %= s
                elif not 0 <= x < s:
                    continue
                other = name(c[:d] + (x,) + c[d + 1:])
                if other not in nbrs[name(c)]:
                    nbrs[name(c)].append(other)
    return list(nbrs), nbrs


def hex_board(n):
    """A hexagon of side n: rows A.. from the bottom, cells numbered from the left; in axial
    coordinates row y runs from -(n-1) to n-1 and holds x with |x|, |y|, |x+y| below n."""
    cells = {}
    for y in range(-(n - 1), n):
        xs = [x for x in range(-(n - 1), n) if abs(x + y) < n]
        for k, x in enumerate(xs):
            cells[(x, y)] = GRID_LETTERS[y + n - 1] + str(k + 1)
    nbrs = {v: [] for v in cells.values()}
    for (x, y), v in cells.items():
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)):
            if (x + dx, y + dy) in cells:
                nbrs[v].append(cells[(x + dx, y + dy)])
    return list(nbrs), nbrs


def dot_board(path, edges, stones):
    """Writes a DOT board and returns its points and adjacency."""
    names = sorted({v for e in edges for v in e}, key=lambda v: (len(v), v))
    nbrs = {v: [] for v in names}
    for a, b in edges:
        nbrs[a].append(b)
        nbrs[b].append(a)
    with open(path, "w") as f:
        f.write("graph g {\n  players = 2;\n")
        for v, p in stones.items():
            f.write(f"  {v} [stone={p}];\n")
        for a, b in edges:
            f.write(f"  {a} -- {b};\n")
        f.write("}\n")
    return names, nbrs


def dot_graphs(folder):
    """Small graphs with their seeds: a ring, the Petersen graph, a ladder, a wheel and a tree
    with a cycle."""
    ring = [(f"r{i}", f"r{(i + 1) % 11}") for i in range(11)]
    outer = [(f"p{i}", f"p{(i + 1) % 5}") for i in range(5)]
    inner = [(f"q{i}", f"q{(i + 2) % 5}") for i in range(5)]
    spokes = [(f"p{i}", f"q{i}") for i in range(5)]
    ladder = ([(f"a{i}", f"a{i + 1}") for i in range(6)] + [(f"b{i}", f"b{i + 1}") for i in range(6)]
              + [(f"a{i}", f"b{i}") for i in range(7)])
    wheel = [(f"w{i}", f"w{(i + 1) % 8}") for i in range(8)] + [(f"w{i}", "hub") for i in range(0, 8, 2)]
    tree = [("t0", "t1"), ("t1", "t2"), ("t2", "t3"), ("t1", "t4"), ("t4", "t5"), ("t5", "t6"),
            ("t6", "t2"), ("t0", "t7"), ("t7", "t8"), ("t8", "t9"), ("t9", "t10"), ("t4", "t8")]
    graphs = {
        "ring": (ring, {"r0": 1, "r5": 2}),
        "petersen": (outer + inner + spokes, {"p0": 1, "q3": 1, "p2": 2, "q4": 2}),
        "ladder": (ladder, {"a0": 1, "b6": 2, "b0": 2, "a6": 1}),
        "wheel": (wheel, {"w0": 1, "w4": 2}),
        "tree": (tree, {"t0": 1, "t3": 2, "t10": 2, "t6": 1}),
    }
    return {name: dot_board(os.path.join(folder, name + ".dot"), e, s)
            for name, (e, s) in graphs.items()}


# ---------------------------------------------------------------------------------------------
# Brute force over the reference rules.


class TooBig(Exception):
    pass


class BruteForce:
    """Minimax with a memo over (stones, side to move); two players. A game cannot cycle (a
    removal lowers the number of roots, any other move adds a stone), so plain recursion ends."""

    def __init__(self, names, nbrs, limit):
        self.names = names
        self.index = {v: i for i, v in enumerate(names)}
        self.nbrs = [[self.index[u] for u in nbrs[v]] for v in names]
        self.limit = limit
        self.memo = {}

    def moves(self, board, p):
        return [v for v, c in enumerate(board) if c == 0
                and sum(1 for u in self.nbrs[v] if board[u] == p) == 1]

    def root(self, board, v):
        p, seen, todo = board[v], {v}, [v]
        while todo:
            for u in self.nbrs[todo.pop()]:
                if board[u] == p and u not in seen:
                    seen.add(u)
                    todo.append(u)
        return seen

    def has_space(self, board, root):
        p = board[next(iter(root))]
        return any(board[u] == 0 and sum(1 for w in self.nbrs[u] if board[w] == p) == 1
                   for s in root for u in self.nbrs[s])

    def play(self, board, p, v):
        board = list(board)
        board[v] = p
        expanded = self.root(board, v)
        if not self.has_space(board, expanded):
            removed = [expanded]
        else:
            removed, seen = [], set()
            for s, c in enumerate(board):
                if c and s not in seen:
                    r = self.root(board, s)
                    seen |= r
                    if not self.has_space(board, r):
                        removed.append(r)
        for r in removed:
            for s in r:
                board[s] = 0
        return tuple(board)

    def winner(self, board, p):
        """The winner with perfect play, p to move."""
        key = (board, p)
        if key in self.memo:
            return self.memo[key]
        if len(self.memo) >= self.limit:
            raise TooBig()
        q = 3 - p
        result = q
        for v in self.moves(board, p):
            after = self.play(board, p, v)
            if p not in after:
                continue  # the mover bounded its last root
            if q not in after or self.winner(after, q) == p:
                result = p
                break
        self.memo[key] = result
        return result

    def wins(self, board, p, name):
        """Whether p keeps a win by playing `name`."""
        after = self.play(board, p, self.index[name])
        if p not in after:
            return False
        return (3 - p) not in after or self.winner(after, 3 - p) == p


# ---------------------------------------------------------------------------------------------
# The engine over GTP.


class Gtp:
    def __init__(self, tanbo, *args):
        self.proc = subprocess.Popen([tanbo, "gtp", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)

    def ask(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            assert line, f"tanbo gtp ended after {command!r}"
            if line == "\n":
                break
            lines.append(line.rstrip("\n"))
        answer = "\n".join(lines)
        assert answer == "=" or answer.startswith("= "), f"{command!r}: {answer!r}"
        return answer[2:]

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


COLOURS = {1: "black", 2: "white"}


def board_of(gtp, names):
    stones = {}
    for p, colour in COLOURS.items():
        for v in gtp.ask(f"list_stones {colour}").split():
            stones[v] = p
    return tuple(stones.get(v, 0) for v in names)


ANALYZE_LINE = re.compile(r"^move (\S+) visits (\d+) winrate ([01]\.\d{4})( proven)? pv( \S+)+$")


def check_position(gtp, brute, board, p, label, verdicts):
    """Asks the engine about one position and records whether genmove kept a win."""
    truth = brute.winner(board, p)
    legal = {brute.names[v] for v in brute.moves(board, p)}

    winner, move = gtp.ask("tanbo-solve 60").split()
    assert winner == COLOURS[truth], f"{label}: tanbo-solve says {winner}"
    assert move in legal, f"{label}: tanbo-solve's move {move} is not legal"
    if truth == p:
        assert brute.wins(board, p, move), f"{label}: tanbo-solve's {move} does not win"

    lines = gtp.ask("tanbo-analyze 300").split("\n")
    for line in lines:
        m = ANALYZE_LINE.match(line)
        assert m, f"{label}: analysis line {line!r}"
        if m.group(4):
            won = brute.wins(board, p, m.group(1))
            assert m.group(3) == ("1.0000" if won else "0.0000"), f"{label}: {line!r} is false"

    choice = gtp.ask(f"reg_genmove {COLOURS[p]}")
    assert choice in legal, f"{label}: genmove's {choice} is not legal"
    if truth == p:
        verdicts.append((label, choice, brute.wins(board, p, choice)))


def positions_of(tanbo, spec_args, names, nbrs, seed, wanted, verdicts, limit=30000):
    """The opening and middle games reached by random moves, as many as `wanted` that brute force
    finishes within `limit` positions; each is sent to the engine move by move."""
    rng = random.Random(seed)
    gtp = Gtp(tanbo, *spec_args)
    try:
        start = board_of(gtp, names)
        checked, games, seen = 0, 0, set()
        while checked < wanted and games < 4 * wanted:
            games += 1
            gtp.ask("clear_board")
            ref = Reference(names, nbrs, {v: c for v, c in zip(names, start) if c}, 2)
            brute = BruteForce(names, nbrs, limit)
            stop_after = rng.randrange(0, len(names))
            for depth in range(stop_after + 1):
                if ref.winner is not None:
                    break
                board = tuple(ref.colour[v] for v in names)
                assert board_of(gtp, names) == board, f"{spec_args}: the boards differ"
                assert gtp.ask("side_to_move") == COLOURS[ref.to_move]
                if (board, ref.to_move) in seen:
                    stop_after = max(stop_after, depth + 1)  # asked already: go on
                elif depth == stop_after or (depth == 0 and games == 1):
                    try:
                        brute.winner(board, ref.to_move)
                    except TooBig:
                        brute.memo.clear()
                        stop_after += 1  # too early for brute force: go on
                    else:
                        seen.add((board, ref.to_move))
                        label = f"{' '.join(spec_args)} after {depth} moves (game {games})"
                        check_position(gtp, brute, board, ref.to_move, label, verdicts)
                        checked += 1
                        break
                move = rng.choice(ref.legal_moves())
                gtp.ask(f"play {COLOURS[ref.to_move]} {move}")
                ref.play(move)
        assert checked == wanted, f"{spec_args}: only {checked} positions"
    finally:
        gtp.close()


BOARDS = [
    ("line 6", line_board(6), 2),
    ("line 9", line_board(9), 3),
    ("line 13", line_board(13), 3),
    ("grid 3x3", lattice_board((3, 3)), 3),
    ("grid 4x3", lattice_board((4, 3)), 3),
    ("grid 4x4", lattice_board((4, 4)), 3),
    ("grid 5x5", lattice_board((5, 5)), 3),
    ("grid 4x4 wrap", lattice_board((4, 4), wrap=True), 3),
    ("grid 3x3x2", lattice_board((3, 3, 2)), 2),
    ("grid 3x3x3", lattice_board((3, 3, 3)), 3),
    ("grid 2x2x3", lattice_board((2, 2, 3)), 2),
    ("hex 3", hex_board(3), 3),
]


def test_the_boards_built_here_are_the_engines():
    """The adjacency the brute force uses is built from names, independently; this checks it
    names the same graph the engine plays on (so a mismatch is a naming bug, not the solver's)."""
    tanbo = pytest.importorskip("tanbo")
    for spec, (names, nbrs), _ in BOARDS:
        game = tanbo.Game(spec)
        assert sorted(game.vertices) == sorted(names), spec
        for v in names:
            assert sorted(game.neighbours(v)) == sorted(nbrs[v]), (spec, v)


def test_heldout_positions(tmp_path):
    tanbo = os.environ["TANBO"]
    verdicts = []
    for i, (spec, (names, nbrs), wanted) in enumerate(BOARDS):
        positions_of(tanbo, ["--topology", spec, "--seed", "1"], names, nbrs, 100 + i, wanted,
                     verdicts)
    for i, (name, (names, nbrs)) in enumerate(sorted(dot_graphs(str(tmp_path)).items())):
        path = os.path.join(str(tmp_path), name + ".dot")
        positions_of(tanbo, ["--topology", f"file {path}", "--seed", "1"], names, nbrs, 200 + i, 3,
                     verdicts)
    kept = sum(1 for _, _, won in verdicts if won)
    missed = [(label, move) for label, move, won in verdicts if not won]
    print(f"genmove kept the win in {kept} of {len(verdicts)} won positions; missed: {missed}")
    assert len(verdicts) >= 12, "too few won positions to judge genmove"
    assert kept >= 0.9 * len(verdicts), f"genmove kept {kept} of {len(verdicts)}: {missed}"
