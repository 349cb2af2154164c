// A spectator cannot move; an illegal click is refused with the rules' reason and changes
// nothing; names are shown as text, never as HTML; a seat resigns with two clicks.
import { api, check, legalPoints, newGame, run, status } from './harness.mjs';

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

  await seat.click('#resign');
  check((await status(seat)).winner === '', 'one click on Resign only asks again');
  await seat.click('#resign');
  await watcher.waitForFunction(() => document.getElementById('status').dataset.winner === 'white');
  check(await seat.$eval('#resign', (b) => b.hidden), 'the Resign button goes once the game is over');
});
