// Following a game when its event stream fails: refused streams (503 at --max-streams) and a
// server that goes away and comes back; the review buttons when positions load slowly (the
// last one asked wins, steps count from it) and the review line's move count kept current.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { api, check, newGame, run, startServer, stopServer, waitPly } from './harness.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The connection notice's text, '' while it is hidden.
function notice(page) {
  return page.$eval('#notice', (n) => (n.hidden ? '' : n.textContent));
}

function noticeShown(page, part, timeout) {
  return page.waitForFunction((p) => {
    const n = document.getElementById('notice');
    return !n.hidden && n.textContent.includes(p);
  }, part, { timeout });
}

function noticeGone(page, timeout) {
  return page.waitForFunction(() => document.getElementById('notice').hidden, null, { timeout });
}

// Plays the first legal point for the seat to move, through the API.
async function playNext(server, game) {
  const { body: state } = await api(server, 'GET', `/api/games/${game.id}`);
  const seat = game.seats.find((s) => s.color === state.to_move);
  const { status, body } = await api(server, 'POST', `/api/games/${game.id}/moves`, { seat: seat.token, point: state.legal[0] });
  check(status === 200, `a move through the API is played (${status}: ${JSON.stringify(body)})`);
  return body;
}

async function openPage(context, server, url) {
  const page = await context.newPage();
  await page.goto(new URL(url, server.url).href);
  await page.waitForFunction(() => document.getElementById('status').dataset.ply !== '');
  return page;
}

// Positions of earlier plies answer 1.2 s late: `<` then `>|` at once stays on the game, three
// quick `<` step back three moves, and the review line follows the game's count.
async function slowReview(server, browser) {
  const game = await newGame(server, { topology: 'grid 5x5', players: ['human', 'human'] });
  for (let i = 0; i < 6; ++i) await playNext(server, game);
  const context = await browser.newContext();
  await context.route(/\/api\/games\/[^/?]+\?ply=/, async (route) => {
    await sleep(1200);
    await route.continue().catch(() => {});
  });
  const page = await openPage(context, server, game.seats[0].url);
  await page.click('#back');
  await page.click('#last');
  await sleep(2000);
  const after = await page.evaluate(() => ({ ply: window.tanbo.viewPly, reviewing: document.body.classList.contains('reviewing') }));
  check(after.ply === null && !after.reviewing, `< then >| at once follows the game (viewPly ${after.ply})`);

  for (let i = 0; i < 3; ++i) await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => window.tanbo.viewPly !== null, null, { timeout: 8000 });
  await sleep(1500);  // any answer still on its way
  const shown = await page.evaluate(() => window.tanbo.viewPly);
  check(shown === 3, `three quick ← step back three moves (shows ${shown}, not 3)`);
  const line = await page.$eval('#review-status', (r) => r.textContent);
  check(line === 'reviewing: after move 3 of 6', `the review line says "${line}"`);

  await playNext(server, game);
  await page.waitForFunction(() => document.getElementById('review-status').textContent.includes('of 7'), null, { timeout: 10000 })
    .catch(() => {});
  const later = await page.$eval('#review-status', (r) => r.textContent);
  check(later === 'reviewing: after move 3 of 7', `a move while reviewing updates the count (says "${later}")`);
  check((await page.evaluate(() => window.tanbo.viewPly)) === 3, 'the reviewed position stays');
  await context.close();
}

// A server with one event stream: the second page is refused it (503), says so, polls the
// state, and takes the stream once the first page has gone.
async function refusedStream(browser, dir) {
  const folder = path.join(dir, 'one-stream');
  mkdirSync(folder);
  const narrow = await startServer(folder, { args: ['--max-streams', '1'] });
  try {
    const game = await newGame(narrow, { topology: 'grid 5x5', players: ['human', 'human'] });
    const firstContext = await browser.newContext();
    const first = await openPage(firstContext, narrow, game.url);
    await first.waitForFunction(() => window.tanbo.stream && window.tanbo.stream.readyState === 1);
    const second = await openPage(await browser.newContext(), narrow, game.url);
    await noticeShown(second, 'live updates interrupted; retrying', 10000);
    await playNext(narrow, game);
    await waitPly(second, 1, 10000);  // polled
    check((await notice(second)).includes('retrying'), 'the notice stays while the stream is refused');
    await firstContext.close();
    await noticeGone(second, 25000);
    await playNext(narrow, game);
    await waitPly(second, 2, 5000);
  } finally {
    await stopServer(narrow);
  }
}

// The server killed and started again on its port: the pages say it cannot be reached, a
// click says there is a network error, and once the server is back the pages follow the game
// again with both messages gone.
async function outage(server, browser, dir) {
  const game = await newGame(server, { topology: 'grid 5x5', players: ['human', 'human'] });
  const seat = await openPage(await browser.newContext(), server, game.seats[0].url);
  const watcher = await openPage(await browser.newContext(), server, game.url);
  await seat.waitForSelector('#board [data-point].legal');
  const port = Number(new URL(server.url).port);
  await stopServer(server, 'SIGKILL');
  await noticeShown(seat, 'the server cannot be reached; retrying', 10000);
  await noticeShown(watcher, 'retrying', 10000);
  const point = await seat.$eval('#board [data-point].legal', (p) => p.dataset.point);
  await seat.click(`#board [data-point="${point}"]`);
  await seat.waitForFunction(() => document.getElementById('message').textContent.startsWith('network error'), null, { timeout: 10000 });
  const again = await startServer(dir, { port });
  try {
    await noticeGone(seat, 25000);
    await noticeGone(watcher, 25000);
    const said = await seat.$eval('#message', (m) => m.textContent);
    check(said === '', `the network error goes once the server answers again (still "${said}")`);
    await playNext(again, game);
    await waitPly(seat, 1, 5000);
    await waitPly(watcher, 1, 5000);
  } finally {
    await stopServer(again);
  }
}

run('the page follows the game through refusals and outages', async ({ server, browser, dir }) => {
  await slowReview(server, browser);
  await refusedStream(browser, dir);
  await outage(server, browser, dir);
}, 120);
