// A 5x5x5 game played by clicking the layer grids, its WebGL view rendered (a screenshot of
// #view3d that is not one colour), a point played by clicking the 3D view, a 4D board's
// page with its slider for the hidden axis, a hex board's hexagons and a DOT board's graph.
import { api, check, drawnStones, legalPoints, newGame, run, sameStones, stateStones, status, waitPly } from './harness.mjs';

// Distinct colours of a PNG screenshot, decoded by the browser itself.
async function screenshotColours(page, png) {
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    [c.width, c.height] = [img.width, img.height];
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const data = g.getImageData(0, 0, c.width, c.height).data;
    const counts = new Map();
    for (let i = 0; i < data.length; i += 4) {
      const k = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
      counts.set(k, (counts.get(k) || 0) + 1);
    }
    return { distinct: counts.size, top: Math.max(...counts.values()) / (data.length / 4) };
  }, png.toString('base64'));
}

async function clickLayers(pages, moves) {
  for (let ply = 0; ply < moves; ++ply) {
    const s = await status(pages.black);
    const page = pages[s.toMove];
    const legal = await legalPoints(page);
    check(legal.length > 0, 'legal points are highlighted on the layer grids');
    // A point of the middle layer when one is legal: names are XYZ digits.
    const point = legal.find((n) => n.endsWith('3')) || legal[0];
    await page.click(`#board [data-point="${point}"]`);
    await waitPly(pages.black, ply + 1);
    await waitPly(pages.white, ply + 1);
  }
}

async function checkCanvas(page) {
  await page.waitForSelector('#view3d[data-ready]', { timeout: 60000 });
  const png = await page.locator('#view3d').screenshot();
  const { distinct, top } = await screenshotColours(page, png);
  check(distinct > 20 && top < 0.97, `the 3D view is drawn (${distinct} colours, the commonest ${(top * 100).toFixed(1)}%)`);
}

// Clicks a legal point where the 3D view draws it.
async function click3d(page, pages) {
  const before = (await status(page)).ply;
  const legal = await legalPoints(page);
  await page.waitForSelector('#view3d[data-ready]', { timeout: 60000 });
  await page.locator('#view3d').scrollIntoViewIfNeeded();
  const target = await page.evaluate((names) => {
    for (const n of names) {
      const at = window.tanbo.view3d.screenPoint(n);
      if (at) return { name: n, ...at };
    }
    return null;
  }, legal);
  check(target, 'a legal point is visible in the 3D view');
  await page.mouse.click(target.x, target.y);
  for (const p of Object.values(pages)) await waitPly(p, before + 1);
  return target.name;
}

run('a 5x5x5 game by its layer grids and 3D view', async ({ server, browser }) => {
  const game = await newGame(server, { topology: 'grid 5x5x5', players: ['human', 'human'] });
  const context = await browser.newContext({ viewport: { width: 1100, height: 1000 } });
  const pages = {};
  for (const seat of game.seats) {
    pages[seat.color] = await context.newPage();
    await pages[seat.color].goto(new URL(seat.url, server.url).href);
    await pages[seat.color].waitForSelector('#board [data-point="235"]');
  }
  const panels = await pages.black.$$eval('#board figure.panel', (f) => f.length);
  check(panels === 5, `five layer grids (got ${panels})`);
  await clickLayers(pages, 6);
  const s = await status(pages.black);
  const name = await click3d(pages[s.toMove], pages);
  const { body: state } = await api(server, 'GET', `/api/games/${game.id}`);
  check(state.moves[6].point === name, `the 3D click played ${name}`);
  check(sameStones(await drawnStones(pages.white), stateStones(state)), 'the layer grids show the server stones');
  await checkCanvas(pages.white);

  const hyper = await newGame(server, { topology: 'grid 3x3x3x3', players: ['human', 'human'] });
  const page = await context.newPage();
  await page.goto(new URL(hyper.url, server.url).href);
  await page.waitForSelector('#hidden-3');
  check((await page.$$eval('#board [data-point]', (e) => e.length)) === 81, 'a 4D board shows all 81 points');
  await page.fill('#hidden-3', '2');
  await checkCanvas(page);

  // A hex board: hexagons, and a click plays.
  const hex = await newGame(server, { topology: 'hex 3', players: ['human', 'human'] });
  await page.goto(new URL(hex.seats[0].url, server.url).href);
  await page.waitForSelector('#board [data-point].legal');
  check((await page.$$eval('#board polygon.cell', (e) => e.length)) === 19, 'hex 3 is drawn as 19 hexagons');
  check(await page.$eval('#view3d-box', (b) => b.hidden), 'a 2D board has no 3D view');
  const [first] = await legalPoints(page);
  await page.click(`#board [data-point="${first}"]`);
  await waitPly(page, 1);
  const { body: hexState } = await api(server, 'GET', `/api/games/${hex.id}`);
  check(hexState.moves[0].point === first, `the hex click played ${first}`);

  // A DOT board given as text: its graph drawn, its nodes named by their ids.
  const dot = await newGame(server, { topology: 'graph { a -- b -- c -- d -- e -- f -- a; a -- d; b [stone=black]; e [stone=white] }', players: ['human', 'human'] });
  await page.goto(new URL(dot.url, server.url).href);
  await page.waitForSelector('#board [data-point="b"][data-stone="black"]');
  const nodes = await page.$$eval('#board [data-point]', (e) => e.map((x) => x.dataset.point).sort().join(' '));
  check(nodes === 'a b c d e f', `the graph's six nodes are drawn (${nodes})`);
  check((await page.$$eval('#board line.edge', (e) => e.length)) === 7, 'the graph has its 7 edges');
});
