// Two seats of a 5x5 game, each in its own browser context, play a whole game by clicking
// highlighted legal points; each page follows the other's moves through the event stream.
// Then the finished game is reviewed: one move back shows the position the server gives for
// that ply.
import { api, check, drawnStones, legalPoints, rng, run, sameStones, stateStones, status, waitPly } from './harness.mjs';

async function openSeat(browser, server, seat) {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`page error (${seat.color}): ${err.message}`));
  await page.goto(new URL(seat.url, server.url).href);
  await page.waitForSelector('#board [data-point]');
  await waitPly(page, 0);
  return page;
}

async function playGame(pages, server, id) {
  const random = rng(33);
  for (let ply = 0; ply < 400; ++ply) {
    const s = await status(pages.black);
    if (s.winner) return s;
    check(s.ply === ply, `the page shows ply ${ply} (got ${s.ply})`);
    const mover = pages[s.toMove];
    const legal = await legalPoints(mover);
    check(legal.length > 0, `${s.toMove}'s page highlights legal points at ply ${ply}`);
    const point = legal[Math.floor(random() * legal.length)];
    await mover.click(`#board [data-point="${point}"]`);
    for (const page of Object.values(pages)) await waitPly(page, ply + 1);
    const { body } = await api(server, 'GET', `/api/games/${id}`);
    check(body.moves[ply].point === point && body.moves[ply].color === s.toMove, `move ${ply + 1} is ${s.toMove} ${point}`);
  }
  throw new Error('no winner after 400 plies');
}

async function checkSameBoard(pages, state) {
  for (const [colour, page] of Object.entries(pages)) {
    const drawn = await drawnStones(page);
    check(sameStones(drawn, stateStones(state)), `${colour}'s page draws the server's stones`);
    const last = state.moves[state.moves.length - 1].point;
    const marked = await page.$$eval('#board .pt.last', (els) => els.map((e) => e.dataset.point));
    check(marked.length === 1 && marked[0] === last, `${colour}'s page marks the last move ${last} (${marked})`);
    const role = await page.$eval('#role', (r) => r.textContent);
    check(role.toLowerCase() === `playing ${colour}`, `${colour}'s page knows its colour ("${role}")`);
    const s = await status(page);
    check(s.winner === state.winner && s.ply === state.ply, `${colour}'s status shows ${state.winner} winning after ${state.ply}`);
  }
}

async function checkReview(page, server, id, ply) {
  await page.click('#back');
  await page.waitForFunction(() => document.body.classList.contains('reviewing'));
  const { body: earlier } = await api(server, 'GET', `/api/games/${id}?ply=${ply - 1}`);
  check(earlier.ply === ply - 1, `GET ?ply=${ply - 1} answers that ply`);
  const drawn = await drawnStones(page);
  check(sameStones(drawn, stateStones(earlier)), 'one move back shows the position after the move before');
  const current = await page.$eval('#moves li.current', (li) => Number(li.dataset.ply));
  check(current === ply - 1, `the move list marks move ${ply - 1}`);
  await page.click('#last');
  await page.waitForFunction(() => !document.body.classList.contains('reviewing'));
}

// After a game was started: a refused request hides its box and shows the reason alone; a
// name is counted in characters (25 emoji are kept whole, 41 characters are refused).
async function formRefusals(page, server) {
  await page.fill('#topology', 'hex 0');
  await page.click('#start');
  await page.waitForFunction(() => document.getElementById('form-error').textContent !== '');
  check(await page.$eval('#created', (c) => c.hidden), 'a refused request hides the last game\'s links');
  await page.fill('#topology', 'grid 5x5');
  const name = page.locator('#seats tbody tr').nth(0).locator('.name');
  const emoji = '\u{1F600}'.repeat(25);
  await name.fill(emoji);
  check((await name.inputValue()) === emoji, 'a name of 25 emoji is kept whole');
  await page.click('#start');
  await page.waitForSelector('#created:not([hidden])');
  const id = await page.$eval('#created-id', (e) => e.textContent);
  const { body: made } = await api(server, 'GET', `/api/games/${id}`);
  check(made.players[0].name === emoji, `the game has the 25 emoji name (${made.players[0].name})`);
  await name.fill('x'.repeat(41));
  await page.click('#start');
  await page.waitForFunction(() => document.getElementById('form-error').textContent.includes('at most 40 characters'));
  check(await page.$eval('#created', (c) => c.hidden), 'a name over 40 characters is refused by the form');
  await name.fill('ann');
}

// The form's suggestions are boards and setups the server plays: every suggested board starts
// a game with its default setup, every suggested setup fits at least one suggested board
// (setups fit only some boards: four needs 19x19, hexbo a hex board, four players), and a
// setup that does not fit the board is refused with the names of those that do.
// The setups the form offers for a board and player count (GET /api/setups), once they answer
// what the form shows, and the hint under the field.
async function offeredSetups(page, topology, players) {
  await page.selectOption('#nplayers', String(players));
  await page.fill('#topology', topology);
  await page.waitForSelector(`#setups[data-for="${topology}|${players}"]`, { state: 'attached' });
  const setups = await page.$$eval('#setups option', (os) => os.map((o) => o.value));
  return { setups, hint: await page.$eval('#setup-hint', (e) => e.textContent) };
}

async function formSuggestions(page, server) {
  const boards = await page.$$eval('#topologies option', (os) => os.map((o) => o.value));
  check(boards.includes('grid 7x7') && boards.includes('grid 4x4x4') && boards.includes('hex 4'), `the form suggests 7x7, 4x4x4 and hex 4 (${boards})`);
  const starts = async (topology, setup, players) =>
    (await api(server, 'POST', '/api/games', { topology, setup, players: Array(players).fill('human') })).status === 201;
  for (const board of boards) {
    const { setups, hint } = await offeredSetups(page, board, 2);
    check(setups[0] === 'default' && setups.length > 1, `the form offers setups for "${board}" (${setups})`);
    check(hint.includes(`setups that fit: ${setups.slice(1).join(', ')}`), `the hint names them ("${hint}")`);
    for (const setup of setups) check(await starts(board, setup, 2), `the offered setup "${setup}" starts a game on "${board}"`);
  }
  const seven = await offeredSetups(page, 'grid 7x7', 2);
  check(seven.setups.join() === 'default,steere2026,dense,spaced' && seven.hint.includes('default on grid 7x7 for 2 players: steere2026'), `7x7 offers the 2026 start first (${seven.setups}; "${seven.hint}")`);
  const four = await offeredSetups(page, 'grid 19x19', 4);
  check(four.setups[1] === 'four' && (await starts('grid 19x19', 'default', 4)), `19x19 for 4 players offers "four" first (${four.setups})`);
  const none = await offeredSetups(page, 'grid 2x2', 2);
  check(none.setups.join() === 'default' && none.hint === 'no setup fits grid 2x2 for 2 players', `a board no setup fits says so ("${none.hint}")`);
  const bad = await offeredSetups(page, 'grid 3x', 2);
  check(bad.setups.join() === 'default' && bad.hint.includes('grid 3x'), `a board the server refuses shows why ("${bad.hint}")`);
  await offeredSetups(page, 'grid 5x5', 2);
  await page.fill('#setup', 'four');
  await page.click('#start');
  await page.waitForFunction(() => document.getElementById('form-error').textContent !== '');
  const reason = await page.$eval('#form-error', (e) => e.textContent);
  check(reason.includes('setups that fit: steere2026, dense, spaced'), `a setup that does not fit says which do ("${reason}")`);
  await page.fill('#setup', 'default');
}

// Starts the game from the start page's form: its seat links, in colour order.
async function startFromForm(browser, server) {
  const page = await (await browser.newContext()).newPage();
  await page.goto(server.url);
  await page.fill('#topology', 'grid 5x5');
  const rows = page.locator('#seats tbody tr');
  for (const [i, name] of ['ann', 'bob'].entries()) {
    await rows.nth(i).locator('.spec').fill('human');
    await rows.nth(i).locator('.name').fill(name);
  }
  await page.click('#start');
  await page.waitForSelector('#created:not([hidden])');
  const links = await page.$$eval('#created-links input', (inputs) => inputs.map((i) => i.value));
  const seatLink = /\/games\/[^/?]+\?seat=[^&]+$/;
  check(links.length === 3 && seatLink.test(links[0]) && seatLink.test(links[1]) && /\/games\/[^/?]+$/.test(links[2]), `two seat links and a watch link (${links})`);
  await page.waitForSelector('#games li a');
  const listed = await page.$eval('#games li', (li) => li.textContent);
  check(listed.includes('grid 5x5') && listed.includes('ann'), `the recent games list the new game ("${listed}")`);
  await formRefusals(page, server);
  await formSuggestions(page, server);
  await page.context().close();
  return { id: links[2].split('/').pop(), black: { color: 'black', url: links[0] }, white: { color: 'white', url: links[1] } };
}

// After the end: White's seat starts the next game and lands in it as Black; Black's page and a
// spectator's get a link to it, Black's to its seat there as White.
async function checkRematch(pages, browser, server, id) {
  const watcher = await (await browser.newContext()).newPage();
  await watcher.goto(new URL(`/games/${id}`, server.url).href);
  await watcher.waitForSelector('#board [data-point]');
  for (const [who, page] of [['black', pages.black], ['white', pages.white]]) {
    await page.waitForSelector('#rematch:not([hidden])');
    check(await page.isVisible('#rematch'), `${who}'s page offers a rematch`);
  }
  check(!(await watcher.isVisible('#rematch')), 'a spectator is offered no rematch');
  await Promise.all([pages.white.waitForURL((url) => url.pathname !== `/games/${id}` && url.searchParams.has('seat')), pages.white.click('#rematch')]);
  const next = new URL(pages.white.url()).pathname.split('/').pop();
  check(next !== id, `White's page went to the next game (${next})`);
  await pages.white.waitForSelector('#board [data-point]');
  await pages.white.waitForFunction(() => document.getElementById('role').textContent === 'playing Black');
  const { body: made } = await api(server, 'GET', `/api/games/${next}`);
  check(made.ply === 0 && made.players[0].name === 'bob' && made.players[1].name === 'ann', `the next game seats bob as Black, ann as White (${JSON.stringify(made.players)})`);
  await pages.black.waitForSelector('#next-game:not([hidden])');
  const join = await pages.black.textContent('#next-game');
  check(join === 'Join the next game as White', `Black's page links to its seat in the next game ("${join}")`);
  await Promise.all([pages.black.waitForURL(new RegExp(`/games/${next}\\?seat=`)), pages.black.click('#next-game')]);
  await pages.black.waitForFunction(() => document.getElementById('role').textContent === 'playing White');
  await watcher.waitForSelector('#next-game:not([hidden])');
  const watch = await watcher.$eval('#next-game', (a) => [a.textContent, a.getAttribute('href')]);
  check(watch[0] === 'Watch the next game' && watch[1] === `/games/${next}`, `a spectator's page links to the next game (${watch})`);
  await watcher.context().close();
}

run('two seats play a 5x5 game in two browsers', async ({ server, browser }) => {
  const seats = await startFromForm(browser, server);
  const game = { id: seats.id };
  const pages = { black: await openSeat(browser, server, seats.black), white: await openSeat(browser, server, seats.white) };
  const end = await playGame(pages, server, game.id);
  const { body: state } = await api(server, 'GET', `/api/games/${game.id}`);
  check(state.winner === end.winner, `the server agrees that ${end.winner} won`);
  await checkSameBoard(pages, state);
  check((await legalPoints(pages.black)).length === 0, 'no legal points are highlighted after the end');
  await checkReview(pages.white, server, game.id, state.ply);
  console.log(`${state.winner} won after ${state.ply} moves`);
  await checkRematch(pages, browser, server, game.id);
});
