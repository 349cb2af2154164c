// A 5x5x5 game played by clicking the layer grids, its WebGL view rendered (a screenshot of
// #view3d that is not one colour, and each point of its outer layers drawn in the colour of
// its stone), a point played by clicking the 3D view, a 4D board's page with its slider for
// the hidden axis, a hex board's hexagons and a DOT board's graph. The 3D view keeps the whole
// board in view on a narrow or a flat screen; without three.js its box goes and a lasting note
// says why; DOT positions that cannot be drawn give way to the force layout, and points are
// drawn at a readable size however many there are (the view scrolls).
import { cpSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { api, check, drawnStones, legalPoints, newGame, run, sameStones, startServer, stateStones, status, stopServer, waitPly } from './harness.mjs';

// Whether every point of the 3D view's cross-section is drawn inside its canvas.
async function allInView(page) {
  return page.evaluate(() => {
    const view = window.tanbo.view3d;
    return view.shown.every(({ at }) => {
      const p = at.clone().project(view.camera);
      return Math.abs(p.x) <= 1 && Math.abs(p.y) <= 1;
    });
  });
}

// The smallest drawn size of a point's cell and the smallest distance between two points'
// centres, in pixels.
async function drawnSizes(page) {
  return page.evaluate(() => {
    const boxes = [...document.querySelectorAll('#board [data-point] .cell')].map((c) => c.getBoundingClientRect());
    let apart = Infinity;
    for (let i = 0; i < boxes.length; ++i) {
      for (let j = i + 1; j < boxes.length; ++j) {
        const [a, b] = [boxes[i], boxes[j]];
        apart = Math.min(apart, Math.hypot(a.x + a.width / 2 - b.x - b.width / 2, a.y + a.height / 2 - b.y - b.height / 2));
      }
    }
    return { cell: Math.min(...boxes.map((b) => Math.min(b.width, b.height))), apart };
  });
}

// The page's files without three.js (no vendor/): the 3D view cannot start.
async function withoutThree(browser, dir) {
  const from = process.env.TANBO_WEB_ROOT || new URL('../../web', import.meta.url).pathname;
  const root = path.join(dir, 'web-no3d');
  cpSync(from, root, { recursive: true, filter: (p) => !/\/(vendor|node_modules)$/.test(p) });
  const folder = path.join(dir, 'no3d');
  mkdirSync(folder);
  const server = await startServer(folder, { webRoot: root });
  try {
    const game = await newGame(server, { topology: 'grid 5x5x5', players: ['human', 'human'] });
    const page = await browser.newPage();
    await page.goto(new URL(game.seats[0].url, server.url).href);
    await page.waitForSelector('#note3d:not([hidden])', { timeout: 20000 });
    const note = await page.$eval('#note3d', (n) => n.textContent);
    check(note === '3D view unavailable (three.js was not found under /vendor/)', `the page says why there is no 3D view ("${note}")`);
    check(await page.$eval('#view3d-box', (b) => b.hidden), 'the 3D view\'s box goes');
    const [point] = await legalPoints(page);
    await page.click(`#board [data-point="${point}"]`);
    await waitPly(page, 1);
    check(!(await page.$eval('#note3d', (n) => n.hidden)), 'the note stays after a move');
    await page.close();
  } finally {
    await stopServer(server);
  }
}

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

// The colour the 3D view draws at the centre of each point of the front and back layers of
// its cross-section ({name: [r, g, b]}), seen straight along the third axis with nothing faded:
// there nothing lies between the camera and those points' centres (tubes run in the layer or
// away from the camera, the last move's ring lies around its stone). The view is left as it was.
async function drawnOuterLayers(page) {
  return page.evaluate(() => {
    const view = window.tanbo.view3d;
    const camera = view.camera;
    const [saved, fade] = [camera.position.clone(), view.fade];
    const depth = view.dims[2];
    view.setFade(false);
    const out = {};
    for (const side of [1, -1]) {
      camera.position.set(0, 0, side * 4 * Math.max(...view.dims.slice(0, 3)));
      camera.lookAt(0, 0, 0);
      camera.updateMatrixWorld();
      view.render();
      const canvas = view.renderer.domElement;
      const copy = document.createElement('canvas');
      [copy.width, copy.height] = [canvas.width, canvas.height];
      const g = copy.getContext('2d');
      g.drawImage(canvas, 0, 0);
      const rect = canvas.getBoundingClientRect();
      const layer = side > 0 ? depth - 1 : 0;
      for (const { v, name } of view.section()) {
        if (view.coords[v][2] !== layer) continue;
        const at = view.screenPoint(name);
        if (!at) continue;
        const x = Math.round(((at.x - rect.left) * canvas.width) / rect.width);
        const y = Math.round(((at.y - rect.top) * canvas.height) / rect.height);
        out[name] = Array.from(g.getImageData(x, y, 1, 1).data.slice(0, 3));
      }
    }
    camera.position.copy(saved);
    camera.lookAt(view.controls.target);
    view.setFade(fade);
    return out;
  });
}

// Every point of the outer layers is drawn, and as its stone: black stones darker than the
// empty points' dots, the dots darker than white stones, and no dot the background's colour.
async function checkDrawnStones(page, state, points) {
  const drawn = await drawnOuterLayers(page);
  const names = Object.keys(drawn);
  check(names.length === points, `the 3D view shows all ${points} points of its outer layers (got ${names.length})`);
  const stones = stateStones(state);
  const light = ([r, g, b]) => 0.299 * r + 0.587 * g + 0.114 * b;
  const range = (colour) => {
    const values = names.filter((n) => (stones[n] || 'empty') === colour).map((n) => light(drawn[n]));
    return values.length ? [Math.min(...values), Math.max(...values)] : null;
  };
  const [black, empty, white] = ['black', 'empty', 'white'].map(range);
  const order = [black, empty, white].filter(Boolean);
  for (let i = 1; i < order.length; ++i) check(order[i - 1][1] < order[i][0], `stones and dots drawn apart by lightness (black ${black}, dots ${empty}, white ${white})`);
  const background = light([0xdd, 0xe4, 0xec]);
  if (empty) check(empty[1] < background - 25, `every empty point's dot is drawn (dots ${empty}, background ${background})`);
  return { black: Boolean(black), white: Boolean(white) };
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

run('a 5x5x5 game by its layer grids and 3D view', async ({ server, browser, dir }) => {
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
  const seen = await checkDrawnStones(pages.white, state, 50);
  check(seen.black && seen.white, 'the outer layers hold stones of both colours');
  for (const [width, height] of [[360, 700], [1400, 500]]) {
    await pages.white.setViewportSize({ width, height });
    await pages.white.waitForTimeout(500);  // the canvas's resize
    check(await allInView(pages.white), `the 3D view shows the whole board at ${width}x${height}`);
  }
  await pages.white.setViewportSize({ width: 1100, height: 1000 });

  const hyper = await newGame(server, { topology: 'grid 3x3x3x3', players: ['human', 'human'] });
  const page = await context.newPage();
  await page.goto(new URL(hyper.url, server.url).href);
  await page.waitForSelector('#hidden-3');
  check((await page.$$eval('#board [data-point]', (e) => e.length)) === 81, 'a 4D board shows all 81 points');
  await page.fill('#hidden-3', '2');
  await checkCanvas(page);
  const { body: hyperState } = await api(server, 'GET', `/api/games/${hyper.id}`);
  await checkDrawnStones(page, hyperState, 18);

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

  // DOT positions all at one place, or over wildly different scales: the force layout.
  for (const topology of [
    'graph { a [stone=black, pos="0,0"]; b [pos="0,0"]; c [pos="0,0"]; d [stone=white, pos="0,0"]; a -- b -- c -- d -- a }',
    'graph { a [stone=black, pos="0,0"]; b [pos="1,0"]; c [pos="5000,0"]; d [stone=white, pos="5000,3000"]; a -- b -- c -- d }',
  ]) {
    const odd = await newGame(server, { topology, players: ['human', 'human'] });
    await page.goto(new URL(odd.url, server.url).href);
    await page.waitForSelector('#board [data-point="a"][data-stone="black"]');
    const { cell, apart } = await drawnSizes(page);
    check(cell >= 10 && apart >= 10, `degenerate DOT positions are drawn apart (cells ${cell.toFixed(1)} px, ${apart.toFixed(1)} px apart)`);
  }
  // A DOT board of 900 points without positions: points keep a readable size.
  const lines = ['p0 [stone=black]', 'p899 [stone=white]'];
  for (let v = 0; v < 900; ++v) {
    if (v % 30 < 29) lines.push(`p${v} -- p${v + 1}`);
    if (v < 870) lines.push(`p${v} -- p${v + 30}`);
  }
  const big = await newGame(server, { topology: `graph { ${lines.join('; ')} }`, players: ['human', 'human'] });
  await page.goto(new URL(big.url, server.url).href);
  await page.waitForSelector('#board [data-point="p899"]', { timeout: 30000 });
  const { cell } = await drawnSizes(page);
  check(cell >= 10, `a 900-point graph's points are drawn at least 10 px (${cell.toFixed(1)})`);

  await withoutThree(browser, dir);
});
