// Where each point of a board is drawn in the point view. A layout is a list of panels; a
// panel is one SVG drawing: {title, band, shape, verts: [vertex ids], xy: Map(vertex ->
// [x, y] in cell units), edges: [[a, b]], labels: [{x, y, text}]}. Bands group panels in rows
// (the cross-sections of 4D and higher lattices).
//
//  - lattices of 1 or 2 axes: one grid, row 1 at the bottom (as `tanbo show` draws it);
//  - 3 axes and more: one small grid per z layer, side by side, one band per cross-section
//    of the higher axes;
//  - hex boards: hexagons from the axial coordinates, row A at the bottom;
//  - graphs (DOT files): the file's positions when every node has one, else a force layout.

// Lattice coordinates of vertex v (axis 0 varies fastest), as in Topology::coords().
export function latticeCoords(v, dims) {
  const c = [];
  for (const d of dims) {
    c.push(v % d);
    v = Math.floor(v / d);
  }
  return c;
}

// Edges joining points of the same panel that are neighbours in the drawing (a wrapped
// lattice's wrap-around edges are left out: they would cross the whole panel).
function panelEdges(edges, xy, maxLength) {
  return edges.filter(([a, b]) => {
    const p = xy.get(a);
    const q = xy.get(b);
    return p && q && Math.hypot(p[0] - q[0], p[1] - q[1]) <= maxLength;
  });
}

// Column labels of a 2D grid from its point names: "D4" -> "D", else 1-based numbers.
function gridLabels(board, w, h) {
  const labels = [];
  const letters = board.points.every((n) => /^[A-Za-z]+\d+$/.test(n));
  for (let x = 0; x < w; ++x) {
    const text = letters ? board.points[x].replace(/\d+$/, '') : String(x + 1);
    labels.push({ x, y: -0.9, text }, { x, y: h - 0.1, text });
  }
  for (let y = 0; y < h; ++y) {
    const text = String(y + 1);
    labels.push({ x: -0.9, y: h - 1 - y, text }, { x: w - 0.1, y: h - 1 - y, text });
  }
  return labels;
}

function latticeLayout(board) {
  const dims = board.dims;
  const w = dims[0];
  const h = dims.length > 1 ? dims[1] : 1;
  if (dims.length <= 2) {
    const xy = new Map();
    board.points.forEach((_, v) => {
      const [x, y = 0] = latticeCoords(v, dims);
      xy.set(v, [x, h - 1 - y]);
    });
    const verts = [...xy.keys()];
    const labels = dims.length === 2 ? gridLabels(board, w, h) : [];
    return [{ title: '', band: '', shape: 'square', verts, xy, labels, edges: panelEdges(board.edges, xy, 1.01) }];
  }
  return layerPanels(board);
}

// 3 axes and more: a panel per (z, higher coordinates); bands by the higher coordinates.
function layerPanels(board) {
  const dims = board.dims;
  const h = dims[1];
  const panels = new Map();
  board.points.forEach((_, v) => {
    const c = latticeCoords(v, dims);
    const higher = c.slice(3).map((k, i) => `${axisName(i + 3)}=${k + 1}`).join(' ');
    const key = `${higher}|${c[2]}`;
    if (!panels.has(key)) {
      panels.set(key, { title: `Z=${c[2] + 1}`, band: higher, shape: 'square', verts: [], xy: new Map(), labels: [] });
    }
    const panel = panels.get(key);
    panel.verts.push(v);
    panel.xy.set(v, [c[0], h - 1 - c[1]]);
  });
  const out = [...panels.values()];
  for (const p of out) p.edges = panelEdges(board.edges, p.xy, 1.01);
  return out;
}

// Axis names as the docs use them: x, y, z, w, then a5, a6, ...
export function axisName(i) {
  return ['X', 'Y', 'Z', 'W'][i] || `A${i + 1}`;
}

function hexLayout(board) {
  const xy = new Map();
  board.hex_axial.forEach(([q, r], v) => {
    xy.set(v, [Math.sqrt(3) * (q + r / 2), -1.5 * r]);  // row A (r smallest) at the bottom
  });
  // Hexagons of circumradius 1 touch at distance sqrt(3); scale so neighbours are 1 apart.
  const s = 1 / Math.sqrt(3);
  for (const [v, [x, y]] of xy) xy.set(v, [x * s, y * s]);
  return [{ title: '', band: '', shape: 'hex', verts: [...xy.keys()], xy, labels: [], edges: [] }];
}

// A deterministic force layout (springs on edges, repulsion between all points) for graphs
// without positions; the work is bounded so a big graph still opens quickly.
export function forceLayout(n, edges) {
  const pos = [];
  for (let i = 0; i < n; ++i) {
    const a = (2 * Math.PI * i) / Math.max(1, n);
    pos.push([Math.cos(a) * Math.sqrt(n), Math.sin(a) * Math.sqrt(n)]);
  }
  const rounds = Math.max(20, Math.min(300, Math.floor(2e7 / Math.max(1, n * n))));
  for (let round = 0; round < rounds; ++round) {
    const step = 0.1 * (1 - round / rounds) + 0.01;
    const force = pos.map(() => [0, 0]);
    for (let i = 0; i < n; ++i) {
      for (let j = i + 1; j < n; ++j) {
        const dx = pos[i][0] - pos[j][0];
        const dy = pos[i][1] - pos[j][1];
        const d2 = Math.max(0.01, dx * dx + dy * dy);
        force[i][0] += dx / d2;
        force[i][1] += dy / d2;
        force[j][0] -= dx / d2;
        force[j][1] -= dy / d2;
      }
    }
    for (const [a, b] of edges) {
      const dx = pos[b][0] - pos[a][0];
      const dy = pos[b][1] - pos[a][1];
      const d = Math.max(0.01, Math.hypot(dx, dy));
      const pull = d - 1;
      force[a][0] += (dx / d) * pull;
      force[a][1] += (dy / d) * pull;
      force[b][0] -= (dx / d) * pull;
      force[b][1] -= (dy / d) * pull;
    }
    for (let i = 0; i < n; ++i) {
      pos[i][0] += Math.max(-1, Math.min(1, force[i][0] * step));
      pos[i][1] += Math.max(-1, Math.min(1, force[i][1] * step));
    }
  }
  return pos;
}

// Scales points so the shortest edge is about 1 cell (graphs' positions come in any unit).
function normalise(pos, edges) {
  let shortest = Infinity;
  for (const [a, b] of edges) {
    const d = Math.hypot(pos[a][0] - pos[b][0], pos[a][1] - pos[b][1]);
    if (d > 1e-9) shortest = Math.min(shortest, d);
  }
  const s = Number.isFinite(shortest) ? 1.2 / shortest : 1;
  return pos.map(([x, y]) => [x * s, y * s]);
}

// Whether normalised positions can be drawn: points apart (at most 1 in 20 of them closer
// than half a cell to another) and the drawing at most 60 cells a point across (positions
// over wildly different scales make a drawing mostly empty, its points too small to see).
export function usable(pos) {
  const n = pos.length;
  if (n === 0 || pos.some(([x, y]) => !Number.isFinite(x) || !Number.isFinite(y))) return false;
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of pos) [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
  if (n > 1 && Math.max(x1 - x0, y1 - y0) > 60 * Math.max(3, Math.sqrt(n))) return false;
  // Points closer than half a cell: looked for among the points of neighbouring buckets.
  const buckets = new Map();
  const key = (i, j) => `${i},${j}`;
  pos.forEach(([x, y], v) => {
    const k = key(Math.floor(x * 2), Math.floor(y * 2));
    if (!buckets.has(k)) buckets.set(k, []);
    buckets.get(k).push(v);
  });
  let close = 0;
  for (let v = 0; v < n && close * 20 <= n; ++v) {
    const [x, y] = pos[v];
    const [i, j] = [Math.floor(x * 2), Math.floor(y * 2)];
    let near = false;
    for (let di = -1; di <= 1; ++di) {
      for (let dj = -1; dj <= 1; ++dj) {
        for (const u of buckets.get(key(i + di, j + dj)) || []) {
          if (u !== v && Math.hypot(pos[u][0] - x, pos[u][1] - y) < 0.5) near = true;
        }
      }
    }
    if (near) ++close;
  }
  return close * 20 <= n;
}

function graphLayout(board) {
  const n = board.points.length;
  const given = Array.isArray(board.positions) && board.positions.length === n && n > 0;
  // DOT positions have y growing upwards (Graphviz); the screen's grows downwards. Positions
  // that cannot be drawn (all at one place, or over wildly different scales) give way to the
  // force layout.
  let pos = given ? normalise(board.positions.map((p) => [p[0], -p[1]]), board.edges) : null;
  if (!pos || !usable(pos)) pos = normalise(forceLayout(n, board.edges), board.edges);
  const xy = new Map(pos.map((p, v) => [v, p]));
  return [{ title: '', band: '', shape: 'node', verts: [...xy.keys()], xy, labels: [], edges: board.edges }];
}

export function layoutBoard(board) {
  if (board.kind === 'lattice') return latticeLayout(board);
  if (board.kind === 'hex') return hexLayout(board);
  return graphLayout(board);
}
