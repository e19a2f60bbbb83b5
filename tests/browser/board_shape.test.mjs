// Boards fill the space they have whatever their shape: a CodeCarrots
// board (120x80) is drawn in a frame of its own shape, not letterboxed in
// a square, while SnakeBattle's stays square.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, ROOM, launch, serverWith, unexpectedErrors } from './helpers.mjs';

async function boardBox(page) {
  await page.waitForFunction(() => window.__snakepit && window.__snakepit.frame && window.__snakepit.view.draws > 1, null, { timeout: 60000 });
  await page.waitForTimeout(200);
  return page.evaluate(() => {
    const r = document.getElementById('board').getBoundingClientRect();
    return { w: r.width, h: r.height };
  });
}

test('a wide board fills a wide frame, a square one a square frame', { timeout: 300000 }, async (t) => {
  const url = await serverWith(t, 'games = ["carrots"]\n[carrots]\ntick_ms = 200\n');
  const b = await launch(t);
  const page = await b.newPage();
  await page.goto(url + '/room/carrots');
  const wide = await boardBox(page);
  assert.ok(Math.abs(wide.w / wide.h - 1.5) < 0.03, 'a 120x80 board is drawn 3:2: ' + JSON.stringify(wide));
  assert.ok(wide.w > 900, 'and takes the width the page gives it: ' + JSON.stringify(wide));
  await page.screenshot({ path: '/tmp/snakepit-carrots-room.png' });

  await page.goto(BASE + '/room/' + ROOM);
  const square = await boardBox(page);
  assert.ok(Math.abs(square.w / square.h - 1) < 0.02, JSON.stringify(square));
  assert.deepEqual(unexpectedErrors(b.problems), []);
});
