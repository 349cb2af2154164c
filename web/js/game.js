// A game's page: /games/ID (a spectator) or /games/ID?seat=TOKEN (a seat). It follows the
// game through the event stream, plays clicks on points for the seat, and steps through the
// moves (positions of earlier plies come from GET /api/games/ID?ply=N).
import { ApiError, colourTitle, el, gamePath, getJSON, playerLabel, postJSON } from './api.js';
import { axisName } from './layout.js';
import { PointView } from './pointview.js';
import { showLinks } from './links.js';

const page = {
  id: null,
  seat: null,       // the seat's token, or null for a spectator
  colour: null,     // the seat's colour once known
  board: null,
  live: null,       // the latest state
  viewPly: null,    // the ply shown while reviewing, null when following the game
  shown: null,      // the state drawn
  history: new Map(),  // ply -> state, for review
  pointView: null,
  view3d: null,
  busy: false,
};

function $(id) {
  return document.getElementById(id);
}

function say(text, isError = false) {
  const box = $('message');
  box.textContent = text;
  box.dataset.error = isError ? text : '';
  box.classList.toggle('error', isError);
}

function lastPoint(state) {
  const moves = state.moves || [];
  const point = moves.length ? moves[moves.length - 1].point : null;
  return point && page.board.points.includes(point) ? point : null;
}

function myTurn(state) {
  if (!page.seat || state.winner || !state.to_move) return false;
  return !page.colour || page.colour === state.to_move;
}

function showStatus(state) {
  const status = $('status');
  status.dataset.ply = String(state.ply);
  status.dataset.toMove = state.to_move || '';
  status.dataset.winner = state.winner || '';
  const byColour = new Map(state.players.map((p) => [p.color, p]));
  const label = (c) => playerLabel(byColour.get(c) || { color: c });
  let text;
  if (state.winner) text = `${label(state.winner)} wins after ${state.ply} moves`;
  else if (state.to_move) text = `move ${state.ply + 1}: ${label(state.to_move)} to play`;
  else text = 'game over';
  if (page.seat && page.colour && !state.winner) text += page.colour === state.to_move ? ' (you)' : '';
  status.textContent = text;
}

function showPlayers(state) {
  const list = $('players');
  list.replaceChildren();
  for (const p of state.players) {
    const li = el('li', '', { 'data-color': p.color });
    li.append(el('span', '', { class: 'swatch', 'data-stone': p.color }), el('span', playerLabel(p)), el('span', ` ${p.kind}`, { class: 'kind' }));
    if (p.color === state.to_move && !state.winner) li.classList.add('to-move');
    if (p.color === state.winner) li.classList.add('winner');
    if (p.color === page.colour) li.append(el('span', ' you', { class: 'you' }));
    list.append(li);
  }
}

function showMoves(state) {
  const list = $('moves');
  const moves = state.moves || [];
  while (list.children.length > moves.length) list.lastChild.remove();
  for (let i = list.children.length; i < moves.length; ++i) {
    const m = moves[i];
    const li = el('li', `${colourTitle(m.color)} ${m.point || 'resigns'}`, { 'data-ply': String(i + 1) });
    li.addEventListener('click', () => review(i + 1));
    list.append(li);
  }
  const at = page.viewPly ?? state.ply;
  for (const li of list.children) li.classList.toggle('current', Number(li.dataset.ply) === at);
}

// Draws a state (the live one, or one under review).
function draw(state) {
  page.shown = state;
  const live = page.viewPly === null;
  const legal = live && $('show-legal').checked && (myTurn(state) || !page.seat) && !state.winner ? state.legal || [] : [];
  page.pointView.update(state, legal, lastPoint(state));
  if (page.view3d) page.view3d.update(state, lastPoint(state));
  $('review-status').textContent = live ? `following the game (${page.live.ply} moves)` : `reviewing: after move ${state.ply} of ${page.live.ply}`;
  document.body.classList.toggle('reviewing', !live);
}

// A newer state of the game (from the stream or a move's answer).
function takeState(state) {
  if (page.live && state.ply < page.live.ply) return;
  page.live = state;
  page.history.set(state.ply, state);
  showStatus(state);
  showPlayers(state);
  showMoves(state);
  $('resign').hidden = !page.seat || Boolean(state.winner) || !state.to_move;
  if (page.viewPly === null) draw(state);
}

async function review(ply) {
  const live = page.live;
  const target = Math.max(0, Math.min(ply, live.ply));
  if (target === live.ply) {
    page.viewPly = null;
    draw(live);
    showMoves(live);
    return;
  }
  try {
    if (!page.history.has(target)) page.history.set(target, await getJSON(`${gamePath(page.id)}?ply=${target}`));
    page.viewPly = target;
    draw(page.history.get(target));
    showMoves(live);
  } catch (err) {
    say(`cannot show move ${target}: ${err.message}`, true);
  }
}

async function play(point) {
  if (!page.seat) return say('spectators cannot move', true);
  if (page.viewPly !== null) return say('reviewing an earlier move: go to the current position (>|) to play', true);
  if (page.busy) return;
  page.busy = true;
  try {
    const before = page.live.ply;  // the stream may bring the move before this answer does
    const state = await postJSON(`${gamePath(page.id)}/moves`, { seat: page.seat, point, ply: before });
    const mine = state.moves && state.moves[before];
    if (mine && mine.point === point) learnColour(mine.color);
    say(`played ${point}`);
    takeState(state);
  } catch (err) {
    say(err instanceof ApiError ? err.message : `network error: ${err.message}`, true);
  } finally {
    page.busy = false;
  }
}

// The seat's colour: learnt from its first move (or the creator's saved seats), kept for the
// session so a reload knows it.
function learnColour(colour) {
  if (!colour || page.colour === colour) return;
  page.colour = colour;
  try {
    sessionStorage.setItem(`tanbo.colour.${page.seat}`, colour);
  } catch {
    // fine: learnt again at the next move
  }
  $('role').textContent = `playing ${colourTitle(colour)}`;
}

function resignButton() {
  const button = $('resign');
  let armed = null;
  button.addEventListener('click', async () => {
    if (!armed) {
      button.textContent = 'Click again to resign';
      armed = setTimeout(() => {
        armed = null;
        button.textContent = 'Resign';
      }, 4000);
      return;
    }
    clearTimeout(armed);
    armed = null;
    button.textContent = 'Resign';
    try {
      takeState(await postJSON(`${gamePath(page.id)}/resign`, { seat: page.seat }));
      say('you resigned');
    } catch (err) {
      say(err.message, true);
    }
  });
}

function reviewControls() {
  $('first').addEventListener('click', () => review(0));
  $('back').addEventListener('click', () => review((page.viewPly ?? page.live.ply) - 1));
  $('forward').addEventListener('click', () => review((page.viewPly ?? page.live.ply) + 1));
  $('last').addEventListener('click', () => review(page.live.ply));
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, textarea, select')) return;
    if (e.key === 'ArrowLeft') $('back').click();
    if (e.key === 'ArrowRight') $('forward').click();
  });
  $('show-legal').addEventListener('change', () => page.shown && draw(page.shown));
}

function follow() {
  const source = new EventSource(`${gamePath(page.id)}/events`);
  source.addEventListener('state', (e) => {
    try {
      takeState(JSON.parse(e.data));
    } catch (err) {
      say(`bad event: ${err.message}`, true);
    }
  });
  source.addEventListener('error', () => {
    // EventSource reconnects by itself; a refresh of the state closes any gap.
    getJSON(gamePath(page.id)).then(takeState, () => {});
  });
}

// 3D and higher lattices: the WebGL view (three.js loaded only for them).
async function start3d(board) {
  if (board.kind !== 'lattice' || board.dims.length < 3) return;
  $('view3d-box').hidden = false;
  try {
    const { View3D } = await import('./view3d.js');
    page.view3d = new View3D($('view3d'), board, play);
  } catch (err) {
    say(`no 3D view: ${err.message}`, true);
    return;
  }
  $('fade').addEventListener('change', (e) => page.view3d.setFade(e.target.checked));
  const sliders = $('sliders');
  board.dims.slice(3).forEach((size, i) => {
    const axis = i + 3;
    const label = el('label', `${axisName(axis)}=`, { title: `the cross-section's coordinate on axis ${axis + 1}` });
    const value = el('output', '1');
    const input = el('input', '', { type: 'range', min: '0', max: String(size - 1), value: '0', id: `hidden-${axis}` });
    input.addEventListener('input', () => {
      value.textContent = String(Number(input.value) + 1);
      page.view3d.setHidden(axis, Number(input.value));
    });
    label.append(input, value);
    sliders.append(label);
  });
  if (page.shown) page.view3d.update(page.shown, lastPoint(page.shown));
  $('view3d').dataset.ready = 'true';
}

function setupExport(state, board) {
  const base = `${gamePath(page.id)}/export?format=`;
  $('export-tanbo').href = `${base}tanbo`;
  $('export-tanbo').setAttribute('download', `game-${page.id}.tanbo`);
  const sgf = board.kind === 'lattice' && board.dims.length === 2 && state.players.length === 2;
  $('export-sgf').hidden = !sgf;
  if (sgf) {
    $('export-sgf').href = `${base}sgf`;
    $('export-sgf').setAttribute('download', `game-${page.id}.sgf`);
  }
}

async function main() {
  window.tanbo = page;  // for the browser tests and the curious
  const match = location.pathname.match(/^\/games\/([^/]+)\/?$/);
  if (!match) return say('no game in this address', true);
  page.id = decodeURIComponent(match[1]);
  page.seat = new URLSearchParams(location.search).get('seat');
  try {
    page.colour = page.seat ? sessionStorage.getItem(`tanbo.colour.${page.seat}`) : null;
  } catch {
    page.colour = null;
  }
  $('show-legal').checked = Boolean(page.seat);
  $('role').textContent = page.seat ? (page.colour ? `playing ${colourTitle(page.colour)}` : 'a seat') : 'watching';
  try {
    const [board, state] = await Promise.all([getJSON(`${gamePath(page.id)}/board`), getJSON(gamePath(page.id))]);
    page.board = board;
    $('title').textContent = `game ${page.id}: ${state.topology}`;
    document.title = `Tanbo ${state.topology} (game ${page.id})`;
    page.pointView = new PointView($('board'), board, play);
    setupExport(state, board);
    showLinks($('links'), page.id, page.seat, learnColour);
    takeState(state);
  } catch (err) {
    $('status').textContent = `cannot open game ${page.id}: ${err.message}`;
    return;
  }
  resignButton();
  reviewControls();
  follow();
  start3d(page.board);  // not awaited: the game is followed while three.js loads
}

main();
