// Every page fits a phone's screen (375 CSS pixels): nothing makes the
// page wider than the screen; the top links wrap to a second line, and
// what is wider (tables) scrolls inside its own box. On the player page the controls come right
// under the board; the leaderboard shows every tab and column.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, ROOM, launch, register, uniqueName, unexpectedErrors } from './helpers.mjs';

test('every page fits a 375 px screen', { timeout: 300000 }, async (t) => {
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
    // Every top link is in sight, none cut at the edge.
    const cut = await page.evaluate(() =>
      Array.from(document.querySelectorAll('.topbar nav a'))
        .filter((a) => a.getBoundingClientRect().right > window.innerWidth + 0.5)
        .map((a) => a.textContent)
    );
    assert.deepEqual(cut, [], `${p}: top links cut off`);
  }
  assert.deepEqual(unexpectedErrors(b.problems), []);
});

test("on a phone the player's controls come right under the board", { timeout: 300000 }, async (t) => {
  const b = await launch(t);
  const player = await register(uniqueName('thumbs'));
  const page = await b.newPage();
  const tops = () =>
    page.evaluate(() =>
      Object.fromEntries(
        ['.board-frame', '#play-panel', '#me-panel', '#bot-view'].map((s) => {
          const r = document.querySelector(s).getBoundingClientRect();
          return [s, { top: r.top, bottom: r.bottom, left: r.left, right: r.right }];
        })
      )
    );
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(player.url);
  await page.waitForFunction(() => window.__snakepit && window.__snakepit.player, null, { timeout: 60000 });
  const phone = await tops();
  const board = phone['.board-frame'];
  assert.ok(phone['#play-panel'].top >= board.bottom && phone['#play-panel'].top < board.bottom + 40, JSON.stringify(phone));
  assert.ok(phone['#me-panel'].top > phone['#play-panel'].top, 'the "You" panel, with "Play in", follows');
  assert.ok(phone['#bot-view'].top > phone['#me-panel'].top, "the bot's view comes after both");
  assert.ok(phone['#play-panel'].top < 800, 'the arrow pad starts on the first screen');

  // The desktop layout keeps its two columns.
  await page.setViewportSize({ width: 1400, height: 950 });
  const wide = await tops();
  assert.ok(wide['#play-panel'].left >= wide['.board-frame'].right, JSON.stringify(wide));
  assert.ok(wide['#bot-view'].top >= wide['.board-frame'].bottom, JSON.stringify(wide));
  assert.deepEqual(unexpectedErrors(b.problems), []);
});

test('the leaderboard fits a phone: its title, every game tab and every column', { timeout: 300000 }, async (t) => {
  const b = await launch(t);
  const page = await b.newPage();
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(BASE + '/leaderboard?game=duel');
  await page.waitForSelector('#lb-status .dot');
  const seen = await page.evaluate(() => {
    const box = (el) => el.getBoundingClientRect();
    const h1 = box(document.querySelector('h1'));
    const status = box(document.getElementById('lb-status'));
    const wrap = box(document.querySelector('#leaderboard').parentElement);
    const tabs = Array.from(document.querySelectorAll('#lb-tabs a')).map((a) => ({ text: a.textContent, ...box(a).toJSON() }));
    const heads = Array.from(document.querySelectorAll('#leaderboard th')).map((th) => ({ text: th.textContent, ...box(th).toJSON() }));
    const overlap = !(status.left >= h1.right || status.top >= h1.bottom || status.right <= h1.left || status.bottom <= h1.top);
    return { overlap, width: window.innerWidth, wrap: wrap.toJSON(), tabs, heads };
  });
  assert.equal(seen.overlap, false, 'the status stays clear of the title');
  for (const tab of seen.tabs) assert.ok(tab.left >= 0 && tab.right <= seen.width, 'tab ' + tab.text + ' is in sight: ' + JSON.stringify(tab));
  for (const th of seen.heads) assert.ok(th.right <= seen.wrap.right + 0.5, 'column ' + th.text + ' is in sight: ' + JSON.stringify(th));
  assert.deepEqual(unexpectedErrors(b.problems), []);
});
