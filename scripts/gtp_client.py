"""A client of `tanbo gtp` for the scripts that study the engine and the solver through the
engine protocol, as another program would (scripts/solver_error_rate.py,
scripts/solve_reach.py)."""
import subprocess


class Gtp:
    """One `tanbo gtp` process on one board, with its engine for genmove and its seed."""

    def __init__(self, tanbo, topology, engine, seed, setup=""):
        command = [tanbo, "gtp", "--topology", topology, "--engine", engine, "--seed", str(seed)]
        if setup:
            command += ["--setup", setup]
        self.p = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True)

    def ask(self, command):
        """The answer to one command, without its `=`; RuntimeError for a refusal (`?`) or
        when the program ended."""
        self.p.stdin.write(command + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            line = self.p.stdout.readline()
            if line == "":
                raise RuntimeError("tanbo gtp ended during: " + command)
            if line == "\n" and lines:
                break
            if line != "\n":
                lines.append(line.rstrip("\n"))
        text = "\n".join(lines)
        if not text.startswith("="):
            raise RuntimeError(command + ": " + text)
        return text[1:].strip()

    def set_moves(self, moves):
        """The position after `moves`, (colour, point) pairs, from the start."""
        self.ask("clear_board")
        for colour, move in moves:
            self.ask(f"play {colour} {move}")

    def close(self):
        self.ask("quit")
        self.p.wait()


def self_play(gtp):
    """A game of the engine against itself from the start: its (colour, point) moves."""
    gtp.ask("clear_board")
    moves = []
    while gtp.ask("winner") == "none":
        colour = gtp.ask("side_to_move")
        moves.append((colour, gtp.ask(f"genmove {colour}")))
    return moves
