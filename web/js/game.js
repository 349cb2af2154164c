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
  wantPly: null,    // the ply asked for last (shown once loaded), null for the game's
  reviewAsk: 0,     // counts review requests: only the last one asked is shown
  shown: null,      // the state drawn
  history: new Map(),  // ply -> state, for review
  pointView: null,
  view3d: null,
  busy: false,      // a move or resignation is on its way
  playedAt: 0,      // when this page's last move was answered (Date.now())
  stream: null,     // the EventSource while one is open
  retry: null,      // the timer of the stream's next attempt
  poll: null,       // the timer polling the state while the stream is down
  backoff: 0,       // the delay before the stream's next attempt (ms)
  nextSeat: null,   // the seat's link in the rematch, once asked for
};

const RETRY_FIRST = 1000;  // the stream's first retry after a failure (ms), doubled each time
const RETRY_MOST = 15000;  // ... up to this
const POLL_EVERY = 3000;   // the state is polled this often while the stream is down (ms)

function $(id) {
  return document.getElementById(id);
}

// The message line: the answer to the last thing this page did. kind: '' (neutral), 'error',
// or 'network' (an error that goes once the server answers again).
function say(text, kind = '') {
  const box = $('message');
  const isError = kind === 'error' || kind === 'network';
  box.textContent = text;
  box.dataset.error = isError ? text : '';
  box.dataset.kind = kind;
  box.classList.toggle('error', isError);
}

// A lasting notice (the connection's state): shown until cleared, apart from #message.
function notice(text) {
  const box = $('notice');
  box.textContent = text;
  box.hidden = !text;
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
  const turns = state.moves || [];
  const played = turns.filter((m) => !m.resign).length;  // a resignation is not a move
  const moves = `${played} ${played === 1 ? 'move' : 'moves'}`;
  const end = turns[turns.length - 1];
  let text;
  if (state.winner && end && end.resign) text = `${label(state.winner)} wins: ${label(end.color)} resigned after ${moves}`;
  else if (state.winner) text = `${label(state.winner)} wins after ${moves}`;
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
  showReviewStatus();
  document.body.classList.toggle('reviewing', !live);
}

// "following the game", or which earlier position is shown (of the game's current count).
function showReviewStatus() {
  const box = $('review-status');
  const of = page.live.ply;
  box.textContent = page.viewPly === null ? `following the game (${of} moves)` : `reviewing: after move ${page.viewPly} of ${of}`;
}

// A newer state of the game (from the stream, a poll or a move's answer).
function takeState(state) {
  const old = page.live;
  if (old && state.ply < old.ply) return;
  // A new turn or the game's end makes the last message stale.
  if (old && (state.ply !== old.ply || (state.winner || '') !== (old.winner || ''))) say('');
  page.live = state;
  page.history.set(state.ply, state);
  showStatus(state);
  showPlayers(state);
  showMoves(state);
  $('resign').hidden = !page.seat || Boolean(state.winner) || !state.to_move;
  showRematch(state);
  if (page.viewPly === null) draw(state);
  else showReviewStatus();
}

// The ply the review buttons step from: the one asked for last, even while it loads.
function intendedPly() {
  return page.wantPly ?? page.live.ply;
}

// Shows the position after `ply` turns (the game's own when it is the latest). Positions load
// from the server; when several are asked for in a row, only the last one asked is shown.
async function review(ply) {
  const ask = ++page.reviewAsk;
  const live = page.live;
  const target = Math.max(0, Math.min(ply, live.ply));
  if (target === live.ply) {
    page.wantPly = null;
    page.viewPly = null;
    draw(live);
    showMoves(live);
    return;
  }
  page.wantPly = target;
  try {
    if (!page.history.has(target)) {
      const state = await getJSON(`${gamePath(page.id)}?ply=${target}`);
      page.history.set(target, state);
    }
    if (ask !== page.reviewAsk) return;  // another position was asked for meanwhile
    page.viewPly = target;
    draw(page.history.get(target));
    showMoves(page.live);
  } catch (err) {
    if (ask !== page.reviewAsk) return;
    page.wantPly = page.viewPly;
    say(`cannot show move ${target}: ${err.message}`, err instanceof ApiError ? 'error' : 'network');
  }
}

async function play(point) {
  if (!page.seat) return say('spectators cannot move', 'error');
  if (page.viewPly !== null || page.wantPly !== null) return say('reviewing an earlier move: go to the current position (>|) to play', 'error');
  if (page.busy) return;  // a move is on its way: a second click (a double click) is ignored
  const live = page.live;
  if (live.winner || !live.to_move) return say('the game is over');
  if (page.colour && page.colour !== live.to_move) {
    // Not this seat's turn: said plainly, and not at all just after its own move (the
    // second click of a double click).
    if (Date.now() - page.playedAt > 1500) say(`it is ${colourTitle(live.to_move)}'s turn`);
    return;
  }
  page.busy = true;
  try {
    const before = live.ply;  // the stream may bring the move before this answer does
    const state = await postJSON(`${gamePath(page.id)}/moves`, { seat: page.seat, point, ply: before });
    const mine = state.moves && state.moves[before];
    if (mine && mine.point === point) learnColour(mine.color);
    page.playedAt = Date.now();
    takeState(state);
    // (unless the game went on or ended meanwhile: then the status line says what matters)
    if (page.live.ply === before + 1 && !page.live.winner) say(`played ${point}`);
  } catch (err) {
    say(err instanceof ApiError ? err.message : `network error: ${err.message}`, err instanceof ApiError ? 'error' : 'network');
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
      say(err instanceof ApiError ? err.message : `network error: ${err.message}`, err instanceof ApiError ? 'error' : 'network');
    }
  });
}

// After the end: a seat may start the next game on the same board (each player takes the next
// colour); once one has, every page links to it, a seat's to its own seat there.
function showRematch(state) {
  $('rematch-box').hidden = !state.winner;
  $('rematch').hidden = !state.winner || !page.seat || Boolean(state.next);
  const link = $('next-game');
  link.hidden = !state.next;
  if (!state.next) return;
  if (!page.seat) {
    link.href = `/games/${encodeURIComponent(state.next)}`;
    link.textContent = 'Watch the next game';
  } else if (page.nextSeat) {
    // Each player takes the next colour in the players' order.
    const colours = state.players.map((p) => p.color);
    const mine = colours.indexOf(page.colour);
    link.href = page.nextSeat;
    link.textContent = mine < 0 ? 'Join the next game' : `Join the next game as ${colourTitle(colours[(mine + 1) % colours.length])}`;
  } else {
    link.hidden = true;
    getJSON(`${gamePath(page.id)}?seat=${encodeURIComponent(page.seat)}`).then((s) => {
      if (!s.next_seat) return;
      page.nextSeat = s.next_seat;
      showRematch(page.live);
    }, () => {});  // (asked again with the next state)
  }
}

function rematchButton() {
  $('rematch').addEventListener('click', async () => {
    $('rematch').disabled = true;
    try {
      const next = await postJSON(`${gamePath(page.id)}/rematch`, { seat: page.seat });
      location.assign(next.seat_url);
    } catch (err) {
      say(err instanceof ApiError ? err.message : `network error: ${err.message}`, err instanceof ApiError ? 'error' : 'network');
      $('rematch').disabled = false;
    }
  });
}

function reviewControls() {
  $('first').addEventListener('click', () => review(0));
  $('back').addEventListener('click', () => review(intendedPly() - 1));
  $('forward').addEventListener('click', () => review(intendedPly() + 1));
  $('last').addEventListener('click', () => review(page.live.ply));
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, textarea, select')) return;
    if (e.key === 'ArrowLeft') $('back').click();
    if (e.key === 'ArrowRight') $('forward').click();
  });
  $('show-legal').addEventListener('change', () => page.shown && draw(page.shown));
}

// Follows the game through its event stream. When the stream fails (the server is down, or
// refuses it: 503 at --max-streams, 429 over --rate), it is closed and opened again after a
// delay that doubles up to RETRY_MOST, the state is polled meanwhile, and a notice says so
// until the stream is back.
function follow() {
  clearTimeout(page.retry);
  page.retry = null;
  const source = new EventSource(`${gamePath(page.id)}/events`);
  page.stream = source;
  source.addEventListener('open', () => {
    page.backoff = 0;
    stopPolling();
    notice('');
    if ($('message').dataset.kind === 'network') say('');
  });
  source.addEventListener('state', (e) => {
    try {
      takeState(JSON.parse(e.data));
    } catch (err) {
      say(`bad event: ${err.message}`, 'error');
    }
  });
  source.addEventListener('error', () => {
    // Our own retries (EventSource's give up for good on a refusal, and keep no backoff).
    source.close();
    if (page.stream !== source) return;
    page.stream = null;
    if (!page.poll) notice('live updates interrupted; retrying');
    startPolling();
    page.backoff = Math.min(RETRY_MOST, page.backoff ? 2 * page.backoff : RETRY_FIRST);
    page.retry = setTimeout(follow, page.backoff * (0.8 + 0.4 * Math.random()));
  });
}

function startPolling() {
  if (page.poll) return;
  const poll = async () => {
    try {
      takeState(await getJSON(gamePath(page.id)));
      if (page.poll) notice('live updates interrupted; retrying');
    } catch (err) {
      if (page.poll && !(err instanceof ApiError)) notice('the server cannot be reached; retrying');
    }
  };
  page.poll = setInterval(poll, POLL_EVERY);
  poll();
}

function stopPolling() {
  clearInterval(page.poll);
  page.poll = null;
}

// 3D and higher lattices: the WebGL view (three.js loaded only for them).
async function start3d(board) {
  if (board.kind !== 'lattice' || board.dims.length < 3) return;
  $('view3d-box').hidden = false;
  let View3D;
  try {
    ({ View3D } = await import('./view3d.js'));
  } catch {
    // (three.js is imported by view3d.js: a missing /vendor/ fails the import)
    return no3d('3D view unavailable (three.js was not found under /vendor/)');
  }
  try {
    page.view3d = new View3D($('view3d'), board, play);
  } catch (err) {
    return no3d(`3D view unavailable: ${err.message}`);
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

// The 3D view could not start: its box goes, and a lasting note says why.
function no3d(text) {
  $('view3d-box').hidden = true;
  $('note3d').textContent = text;
  $('note3d').hidden = false;
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

// The state at load; for a seat, GET /api/games/ID?seat=TOKEN checks the token and tells
// the seat's colour. A token that is not a seat of this game makes the page a watcher's.
async function loadState() {
  const path = gamePath(page.id);
  if (!page.seat) return getJSON(path);
  try {
    const state = await getJSON(`${path}?seat=${encodeURIComponent(page.seat)}`);
    if (state.seat && state.seat.color) learnColour(state.seat.color);
    return state;
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 403) throw err;
    page.seat = null;
    page.colour = null;
    $('role').textContent = 'watching';
    $('seat-note').textContent = 'This seat link is not valid for this game: you are watching it.';
    $('seat-note').hidden = false;
    return getJSON(path);
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
  $('role').textContent = page.seat ? (page.colour ? `playing ${colourTitle(page.colour)}` : 'a seat') : 'watching';
  try {
    const [board, state] = await Promise.all([getJSON(`${gamePath(page.id)}/board`), loadState()]);
    page.board = board;
    $('show-legal').checked = Boolean(page.seat);
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
  rematchButton();
  reviewControls();
  follow();
  start3d(page.board);  // not awaited: the game is followed while three.js loads
}

main();
