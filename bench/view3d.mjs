// Benchmark of the page's 3D view (not a test): opens a game of each board in headless
// Chromium and times View3D.update (a new position drawn: every point, a third of them black
// stones and a third white ones, with their tubes; then the empty board, in turn) and a frame
// (render, waited for with a one-pixel read, so the GPU's work counts).
//
// usage: node bench/view3d.mjs [TOPOLOGY ...]      (default: grid 5x5x5, grid 9x9x9, grid 15x15x15)
// Environment as the browser tests' (tests/web/harness.mjs): TANBO, TANBO_WEB_ROOT, CHROMIUM.
import { newGame, run } from '../tests/web/harness.mjs';

const boards = process.argv.slice(2);
if (!boards.length) boards.push('grid 5x5x5', 'grid 9x9x9', 'grid 15x15x15');

await run('view3d benchmark', async ({ server, browser }) => {
  console.log('board | points | update ms | frame ms');
  for (const topology of boards) {
    const game = await newGame(server, { topology, players: ['human', 'human'] });
    const page = await browser.newPage({ viewport: { width: 1100, height: 1000 } });
    await page.goto(new URL(game.url, server.url).href);
    await page.waitForSelector('#view3d[data-ready]', { timeout: 120000 });
    const r = await page.evaluate(() => {
      const view = window.tanbo.view3d;
      const names = view.board.points;
      const empty = { stones: {} };
      const full = { stones: { black: names.filter((_, i) => i % 3 === 0), white: names.filter((_, i) => i % 3 === 1) } };
      const gl = view.renderer.getContext();
      const pixel = new Uint8Array(4);
      const time = (n, step) => {
        const t0 = performance.now();
        for (let i = 0; i < n; ++i) {
          step(i);
          gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
        }
        return (performance.now() - t0) / n;
      };
      const update = time(10, (i) => view.update(i % 2 ? empty : full, names[i]));
      view.update(full, names[0]);
      const frame = time(10, () => view.render());
      return { points: names.length, update, frame };
    });
    console.log(`${topology} | ${r.points} | ${r.update.toFixed(1)} | ${r.frame.toFixed(1)}`);
    await page.close();
  }
}, 900);
