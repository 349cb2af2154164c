"""Tanbo's rules written again, plainly, in Python: an independent reference for the module.

It follows the rule sheet directly (docs/rules.md): a move is an empty point touching exactly
one stone of the mover's colour; a root is a connected group of one colour; its root space is
the empty points that touch exactly one stone of its colour, that stone in the root; after a
move the expanded root is removed alone if it is bounded, otherwise every bounded root is
removed; a player without stones is out and the last player with stones wins.
"""


class Reference:
    def __init__(self, vertices, neighbours, stones, players):
        """vertices: names; neighbours: name -> list of names; stones: name -> player."""
        self.vertices = list(vertices)
        self.nbrs = {v: list(neighbours[v]) for v in self.vertices}
        self.colour = {v: stones.get(v, 0) for v in self.vertices}
        self.players = players
        self.to_move = 1
        self.winner = None

    def own_neighbours(self, v, p):
        return [u for u in self.nbrs[v] if self.colour[u] == p]

    def legal_moves(self):
        if self.winner is not None:
            return []
        p = self.to_move
        return [v for v in self.vertices
                if self.colour[v] == 0 and len(self.own_neighbours(v, p)) == 1]

    def root_of(self, v):
        p = self.colour[v]
        seen, todo = {v}, [v]
        while todo:
            for u in self.nbrs[todo.pop()]:
                if self.colour[u] == p and u not in seen:
                    seen.add(u)
                    todo.append(u)
        return frozenset(seen)

    def roots(self):
        out, seen = [], set()
        for v in self.vertices:
            if self.colour[v] and v not in seen:
                r = self.root_of(v)
                seen |= r
                out.append(r)
        return out

    def root_space(self, root):
        p = self.colour[next(iter(root))]
        space = set()
        for s in root:
            for u in self.nbrs[s]:
                if self.colour[u] == 0:
                    own = self.own_neighbours(u, p)
                    if len(own) == 1 and own[0] in root:
                        space.add(u)
        return space

    def stones(self, p):
        return [v for v in self.vertices if self.colour[v] == p]

    def play(self, v):
        assert v in self.legal_moves(), v
        p = self.to_move
        self.colour[v] = p
        expanded = self.root_of(v)
        if not self.root_space(expanded):
            removed = [expanded]
        else:
            removed = [r for r in self.roots() if not self.root_space(r)]
        for r in removed:
            for s in r:
                self.colour[s] = 0
        alive = [q for q in range(1, self.players + 1) if self.stones(q)]
        if len(alive) == 1:
            self.winner, self.to_move = alive[0], 0
            return
        q = p
        while True:
            q = q % self.players + 1
            if q in alive:
                break
        self.to_move = q
