// The point view: every point of the board an SVG element <g data-point="NAME"> that shows
// its stone (data-stone="black" ...), whether it is legal (class "legal") and the last move
// (class "last"). Clicks on points call onPick(name).
import { layoutBoard } from './layout.js';

const SVG = 'http://www.w3.org/2000/svg';
const MIN_CELL = 12;  // pixels a cell (a point's square) is drawn at least: the view scrolls

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

function hexagon(r) {
  const corners = [];
  for (let i = 0; i < 6; ++i) {
    const a = (Math.PI / 180) * (60 * i - 30);
    corners.push(`${(r * Math.cos(a)).toFixed(3)},${(r * Math.sin(a)).toFixed(3)}`);
  }
  return corners.join(' ');
}

// The shape under a point that takes its clicks.
function hitShape(shape) {
  if (shape === 'hex') return svg('polygon', { class: 'cell', points: hexagon(0.577) });
  if (shape === 'node') return svg('circle', { class: 'cell', r: 0.45 });
  return svg('rect', { class: 'cell', x: -0.5, y: -0.5, width: 1, height: 1 });
}

function bounds(panel) {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of panel.xy.values()) {
    [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
  }
  const m = panel.labels.length ? 1.5 : 0.7;
  return [x0 - m, y0 - m, x1 - x0 + 2 * m, y1 - y0 + 2 * m];
}

export class PointView {
  // container: the element to draw in; board: GET /api/games/ID/board; onPick(name).
  constructor(container, board, onPick) {
    this.board = board;
    this.points = new Map();  // name -> <g>
    this.container = container;
    container.replaceChildren();
    const panels = layoutBoard(board);
    const cell = panels.length > 1 ? 22 : Math.max(12, Math.min(40, Math.floor(640 / Math.sqrt(board.points.length + 1))));
    let band = null;
    for (const panel of panels) {
      if (!band || band.dataset.band !== panel.band) {
        band = document.createElement('div');
        band.className = 'band';
        band.dataset.band = panel.band;
        if (panel.band) band.append(Object.assign(document.createElement('div'), { className: 'band-title', textContent: panel.band }));
        container.append(band);
      }
      band.append(this.drawPanel(panel, cell));
    }
    container.addEventListener('click', (event) => {
      const g = event.target.closest('[data-point]');
      if (g && container.contains(g)) onPick(g.dataset.point);
    });
  }

  drawPanel(panel, cell) {
    const figure = document.createElement('figure');
    figure.className = 'panel';
    const [x, y, w, h] = bounds(panel);
    const root = svg('svg', { viewBox: `${x} ${y} ${w} ${h}`, width: Math.round(w * cell), height: Math.round(h * cell) });
    root.style.minWidth = `${Math.round(w * Math.min(cell, MIN_CELL))}px`;  // (it shrinks to the page's width down to this)
    for (const [a, b] of panel.edges) {
      const [p, q] = [panel.xy.get(a), panel.xy.get(b)];
      root.append(svg('line', { class: 'edge', x1: p[0], y1: p[1], x2: q[0], y2: q[1] }));
    }
    for (const label of panel.labels) {
      const t = svg('text', { class: 'label', x: label.x, y: label.y + 0.15 });
      t.textContent = label.text;
      root.append(t);
    }
    for (const v of panel.verts) root.append(this.drawPoint(v, panel));
    if (panel.title) {
      const caption = document.createElement('figcaption');
      caption.textContent = panel.title;
      figure.append(caption);
    }
    figure.append(root);
    return figure;
  }

  drawPoint(v, panel) {
    const name = this.board.points[v];
    const [x, y] = panel.xy.get(v);
    const g = svg('g', { class: 'pt', transform: `translate(${x} ${y})`, 'data-point': name });
    const title = svg('title');
    title.textContent = name;
    g.append(title, hitShape(panel.shape), svg('circle', { class: 'dot', r: 0.09 }), svg('circle', { class: 'stone', r: 0.42 }), svg('circle', { class: 'mark', r: 0.16 }));
    this.points.set(name, g);
    return g;
  }

  // state: a game state (stones by colour); legal: names to highlight (or empty); last: the
  // last move's point (or null).
  update(state, legal, last) {
    const stoneOf = new Map();
    for (const [colour, names] of Object.entries(state.stones || {})) {
      for (const n of names) stoneOf.set(n, colour);
    }
    const legalSet = new Set(legal);
    for (const [name, g] of this.points) {
      const stone = stoneOf.get(name) || '';
      if ((g.dataset.stone || '') !== stone) {
        if (stone) g.dataset.stone = stone;
        else delete g.dataset.stone;
      }
      g.classList.toggle('legal', legalSet.has(name));
      g.classList.toggle('last', name === last);
    }
  }
}
