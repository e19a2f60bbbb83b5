// Every page fits a phone's screen (375 CSS pixels): nothing makes the
// page wider than the screen; what is wider (the top links, the game
// tabs, tables) scrolls inside its own box.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, ROOM, launch, register, uniqueName, unexpectedErrors } from './helpers.mjs';

test('every page fits a 375 px screen', { timeout: 120000 }, async (t) => {
  const b = await launch(t);
  const player = await register(uniqueName('narrow'));
  const paths = ['/', '/leaderboard', '/replays', '/admin', '/room/' + ROOM, new URL(player.url).pathname + new URL(player.url).search];
  const page = await b.newPage();
  await page.setViewportSize({ width: 375, height: 800 });
  for (const p of paths) {
    await page.goto(BASE + p);
    // Live pages fill in after their first message.
    await page.waitForTimeout(1500);
    const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(scroll <= inner, `${p} is ${scroll} px wide on a ${inner} px screen`);
  }
  assert.deepEqual(unexpectedErrors(b.problems), []);
});
