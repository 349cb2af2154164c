// The start page: a form that starts a game (POST /api/games) and the recent games.
import { colourTitle, el, getJSON, playerLabel, postJSON, saveSeats } from './api.js';
import { linkRow, seatRows } from './links.js';

const COLOURS = ['black', 'white', 'red', 'blue', 'green', 'yellow', 'orange', 'purple'];
const NAME_MOST = 40;  // characters (code points) a name may have, as the server counts them

function $(id) {
  return document.getElementById(id);
}

// One row per player: colour, player spec (human or an engine), name.
function seatInputs(n) {
  const body = $('seats').tBodies[0];
  const old = [...body.rows].map((r) => [r.querySelector('.spec').value, r.querySelector('.name').value]);
  body.replaceChildren();
  for (let i = 0; i < n; ++i) {
    const [spec, name] = old[i] || [i === 0 ? 'human' : i === 1 ? 'mcts:time=1' : 'human', ''];
    const row = el('tr');
    const specInput = el('input', '', { class: 'spec', list: 'specs', 'aria-label': `${COLOURS[i]} player`, required: '' });
    specInput.value = spec;
    const nameInput = el('input', '', { class: 'name', placeholder: 'optional', 'aria-label': `${COLOURS[i]} name` });
    nameInput.value = name;
    nameInput.addEventListener('input', () => checkName(nameInput));
    nameInput.addEventListener('invalid', () => {
      $('created').hidden = true;
      $('form-error').textContent = `${colourTitle(COLOURS[i])}'s name: ${nameInput.validationMessage}`;
    });
    checkName(nameInput);
    const cells = [el('td', colourTitle(COLOURS[i])), el('td'), el('td')];
    cells[1].append(specInput);
    cells[2].append(nameInput);
    row.append(...cells);
    body.append(row);
  }
}

// A name longer than NAME_MOST characters is refused by the form with a message (an input's
// maxlength counts UTF-16 units: it would cut a name of emoji at half the length, silently).
function checkName(input) {
  const chars = [...input.value.trim()].length;
  input.setCustomValidity(chars > NAME_MOST ? `at most ${NAME_MOST} characters (this name has ${chars})` : '');
}

// The setups that fit the board and player count the form shows (GET /api/setups), offered in
// the setup field's list with the one "default" means first; the hint under the field names them,
// or says why the board is refused. Asked once typing pauses; an older answer arriving after a
// newer one is dropped.
let setupsAsked = 0;
let setupsTimer = 0;

async function loadSetups() {
  const asked = ++setupsAsked;
  const topology = $('topology').value.trim();
  const options = [el('option', '', { value: 'default' })];
  let hint = '';
  if (topology) {
    const query = new URLSearchParams({ topology, players: $('nplayers').value });
    try {
      const fit = await getJSON(`/api/setups?${query}`);
      if (asked !== setupsAsked) return;
      if (fit.default) options[0].label = `default: ${fit.default}`;
      options.push(...fit.setups.map((name) => el('option', '', { value: name })));
      const who = `${fit.topology} for ${fit.players} players`;
      hint = fit.default ? `default on ${who}: ${fit.default}; setups that fit: ${fit.setups.join(', ')}` : `no setup fits ${who}`;
    } catch (err) {
      if (asked !== setupsAsked) return;
      hint = err.message;
    }
  }
  $('setups').replaceChildren(...options);
  $('setups').dataset.for = `${topology}|${$('nplayers').value}`;  // what the list answers
  $('setup-hint').textContent = hint;
}

function askSetupsSoon() {
  clearTimeout(setupsTimer);
  setupsTimer = setTimeout(loadSetups, 300);
}

function formRequest() {
  const rows = [...$('seats').tBodies[0].rows];
  const request = {
    topology: $('topology').value.trim(),
    players: rows.map((r) => r.querySelector('.spec').value.trim()),
  };
  const setup = $('setup').value.trim();
  if (setup) request.setup = setup;
  const names = rows.map((r) => r.querySelector('.name').value.trim());
  if (names.some((n) => n)) request.names = names.map((n, i) => n || colourTitle(COLOURS[i]));
  return request;
}

async function startGame(event) {
  event.preventDefault();
  $('form-error').textContent = '';
  $('created').hidden = true;
  $('start').disabled = true;
  try {
    const game = await postJSON('/api/games', formRequest());
    saveSeats(game.id, game.seats);
    $('created-id').textContent = String(game.id);
    const box = $('created-links');
    box.replaceChildren(...seatRows(game.seats), linkRow('watch', game.url));
    $('created').hidden = false;
    loadGames();
  } catch (err) {
    $('form-error').textContent = err.message;
  } finally {
    $('start').disabled = false;
  }
}

function gameLine(g) {
  const li = el('li');
  const players = (g.players || []).map((p) => (typeof p === 'string' ? p : playerLabel(p))).join(' vs ');
  const where = g.winner ? `${colourTitle(g.winner)} won` : g.to_move ? `${colourTitle(g.to_move)} to play` : '';
  li.append(el('a', `${g.topology}`, { href: `/games/${encodeURIComponent(g.id)}` }), el('span', ` ${players} · ${g.ply} moves · ${where}`));
  return li;
}

async function loadGames() {
  const list = $('games');
  try {
    const { games } = await getJSON('/api/games');
    list.replaceChildren(...games.map(gameLine));
    if (!games.length) list.append(el('li', 'no games yet'));
  } catch (err) {
    list.replaceChildren(el('li', `cannot list the games: ${err.message}`));
  }
}

seatInputs(2);
$('nplayers').addEventListener('change', (e) => {
  seatInputs(Number(e.target.value));
  loadSetups();
});
$('topology').addEventListener('input', askSetupsSoon);
loadSetups();
$('new-game').addEventListener('submit', startGame);
loadGames();
