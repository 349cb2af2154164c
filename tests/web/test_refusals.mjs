// A spectator cannot move; an illegal click is refused with the rules' reason and changes
// nothing; names are shown as text, never as HTML; a seat resigns with two clicks. A seat link
// is checked at load (a wrong token makes a watcher's page that says so; a right one names its
// colour at once); a double click plays once and says nothing wrong; old messages go when the
// game moves on; the status counts a resignation apart from the moves.
import { api, check, legalPoints, newGame, run, status, waitPly } from './harness.mjs';

const message = (page) => page.$eval('#message', (m) => m.textContent);

run('spectators and illegal clicks are refused', async ({ server, browser }) => {
  const hostile = '<img src=x onerror="window.pwned=1">';
  const game = await newGame(server, { topology: 'grid 5x5', players: ['human', 'human'], names: [hostile, 'bob'] });
  const context = await browser.newContext();
  const watcher = await context.newPage();
  await watcher.goto(new URL(game.url, server.url).href);
  await watcher.waitForSelector('#board [data-point]');
  const { body: start } = await api(server, 'GET', `/api/games/${game.id}`);

  await watcher.click(`#board [data-point="${start.legal[0]}"]`);
  await watcher.waitForFunction(() => document.getElementById('message').dataset.error !== '');
  const said = await watcher.$eval('#message', (m) => m.textContent);
  check(said === 'spectators cannot move', `the spectator is told (got "${said}")`);

  const black = game.seats.find((s) => s.color === 'black');
  const seat = await context.newPage();
  await seat.goto(new URL(black.url, server.url).href);
  await seat.waitForSelector('#board [data-point].legal');
  const legal = new Set(await legalPoints(seat));
  const illegal = start.points.find((p) => !legal.has(p));
  await seat.click(`#board [data-point="${illegal}"]`);
  await seat.waitForFunction(() => document.getElementById('message').dataset.error !== '');
  const reason = await seat.$eval('#message', (m) => m.textContent);
  const direct = await api(server, 'POST', `/api/games/${game.id}/moves`, { seat: black.token, point: illegal });
  check(direct.status === 422 && direct.body.error === reason, `the page shows the rules' reason "${direct.body.error}" (got "${reason}")`);
  const { body: after } = await api(server, 'GET', `/api/games/${game.id}`);
  check(after.ply === 0 && (await status(seat)).ply === 0 && (await status(watcher)).ply === 0, 'nothing was played');

  const shown = await watcher.$eval('#players', (p) => ({ text: p.textContent, imgs: p.querySelectorAll('img').length }));
  check(shown.text.includes(hostile) && shown.imgs === 0, 'a name with markup is shown as text');
  check(!(await watcher.evaluate(() => window.pwned)), 'no script from a name ran');

  // A seat link knows its colour at load, before any move.
  check((await seat.$eval('#role', (r) => r.textContent)) === 'playing Black', 'the seat names its colour at load');
  check(await seat.$eval('#seat-note', (n) => n.hidden), 'a valid seat link gets no note');

  // A wrong token, and a seat link of another game: a watcher's page that says so at load.
  const other = await newGame(server, { topology: 'grid 5x5', players: ['human', 'human'] });
  for (const token of ['bad', other.seats[0].token]) {
    const wrong = await context.newPage();
    await wrong.goto(new URL(`/games/${game.id}?seat=${token}`, server.url).href);
    await wrong.waitForFunction(() => document.getElementById('status').dataset.ply !== '');
    const seen = await wrong.evaluate(() => ({
      role: document.getElementById('role').textContent,
      note: document.getElementById('seat-note').hidden ? '' : document.getElementById('seat-note').textContent,
      legal: document.querySelectorAll('#board .legal').length,
      resign: !document.getElementById('resign').hidden,
    }));
    check(seen.role === 'watching' && seen.note.includes('not valid for this game') && !seen.legal && !seen.resign,
      `a seat link that is not this game's makes a watcher's page that says so (${JSON.stringify(seen)})`);
    await wrong.close();
  }
  const direct403 = await api(server, 'GET', `/api/games/${game.id}?seat=${other.seats[0].token}`);
  check(direct403.status === 403 && direct403.body.error === 'this token is not a seat of this game', 'GET ?seat= refuses a wrong token (403)');
  const direct200 = await api(server, 'GET', `/api/games/${game.id}?seat=${black.token}`);
  check(direct200.status === 200 && direct200.body.seat.color === 'black' && !JSON.stringify(direct200.body).includes(black.token),
    'GET ?seat= names the seat, without its token');

  // The game's page with a trailing slash.
  const slash = await context.newPage();
  await slash.goto(new URL(`${game.url}/`, server.url).href);
  await slash.waitForSelector('#board [data-point]');
  await slash.close();

  // A double click plays the point once, and no error follows it.
  const [point] = await legalPoints(seat);
  await seat.dblclick(`#board [data-point="${point}"]`);
  await waitPly(seat, 1);
  await seat.click(`#board [data-point="${point}"]`);  // a slower second click, once played
  await seat.waitForTimeout(700);
  check((await status(seat)).ply === 1, 'a double click plays once');
  const afterDouble = await seat.evaluate(() => ({ text: document.getElementById('message').textContent, error: document.getElementById('message').dataset.error }));
  check(afterDouble.text === `played ${point}` && !afterDouble.error, `a double click shows no error (got "${afterDouble.text}")`);

  // The other seat's move makes "played ..." go; a click off-turn is answered without an error.
  const white = game.seats.find((s) => s.color === 'white');
  const { body: one } = await api(server, 'GET', `/api/games/${game.id}`);
  check((await api(server, 'POST', `/api/games/${game.id}/moves`, { seat: white.token, point: one.legal[0] })).status === 200, 'White moves');
  await waitPly(seat, 2);
  check((await message(seat)) === '', `the old message goes with the next move (still "${await message(seat)}")`);
  check((await message(watcher)) === '', 'the watcher\'s old message goes with the next move');

  const { body: two } = await api(server, 'GET', `/api/games/${game.id}`);
  const whitePage = await context.newPage();
  await whitePage.goto(new URL(white.url, server.url).href);
  await whitePage.waitForSelector('#board [data-point]');
  await whitePage.click(`#board [data-point="${two.legal[0]}"]`);
  await whitePage.waitForFunction(() => document.getElementById('message').textContent !== '');
  const offTurn = await whitePage.evaluate(() => ({ text: document.getElementById('message').textContent, error: document.getElementById('message').dataset.error }));
  check(offTurn.text === "it is Black's turn" && !offTurn.error, `a click off-turn is told plainly (got ${JSON.stringify(offTurn)})`);
  check((await api(server, 'GET', `/api/games/${game.id}`)).body.ply === 2, 'the click off-turn played nothing');

  await seat.click('#resign');
  check((await status(seat)).winner === '', 'one click on Resign only asks again');
  await seat.click('#resign');
  await watcher.waitForFunction(() => document.getElementById('status').dataset.winner === 'white');
  check(await seat.$eval('#resign', (b) => b.hidden), 'the Resign button goes once the game is over');
  await whitePage.waitForFunction(() => document.getElementById('status').dataset.winner === 'white');
  for (const page of [seat, watcher, whitePage]) {
    const text = (await status(page)).text;
    check(text === `White (bob) wins: Black (${hostile}) resigned after 2 moves`, `the status counts the resignation apart ("${text}")`);
  }
  check((await message(whitePage)) === '', 'the off-turn message goes when the game ends');
});
