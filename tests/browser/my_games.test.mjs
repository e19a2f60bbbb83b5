// A duel player's own finished games: the player saves a program that
// writes on stderr, their page lists the games it played, and a game opened
// from there (with the player's credentials) shows that stderr in the
// viewer, while the same game opened without them does not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, api, launch, register, uniqueName, unexpectedErrors } from './helpers.mjs';

const BOT = 'import sys\nn = 0\nfor line in sys.stdin:\n    n += 1\n    print("mine-marker %d" % n, file=sys.stderr, flush=True)\n    print(n % 4, flush=True)\n';

test("a player's finished games open with their program's stderr, for them only", { timeout: 300000 }, async (t) => {
  const me = await register(uniqueName('mine'), 'duel');
  const saved = await api('POST', '/api/code', { user: me.id, code: me.code, lang: 'python', name: 'marker', source: BOT });
  assert.equal(saved.status, 200, JSON.stringify(saved.data));

  const b = await launch(t);
  const page = await b.newPage();
  await page.goto(me.url);
  // Games the program played in the duel room, listed as they end.
  const link = page.locator('#games-panel:not(.hidden) #games a.game-link').first();
  await link.waitFor({ timeout: 120000 });
  // The first games may end before the program has started: take the
  // newest one whose page has the program's stderr.
  let found = null;
  for (let tries = 0; tries < 60 && !found; tries++) {
    for (const href of await page.locator('#games a.game-link').evaluateAll((as) => as.map((a) => a.getAttribute('href')))) {
      assert.match(href, /^\/replays\/\d+\?player=[^&]+&code=.+$/, 'links carry the credentials');
      const text = await (await fetch(BASE + href)).text();
      if (text.includes('mine-marker')) {
        found = href;
        break;
      }
    }
    if (!found) await new Promise((r) => setTimeout(r, 1000));
  }
  assert.ok(found, "a kept game with the program's stderr");

  const viewer = await b.newPage();
  await viewer.goto(BASE + found);
  await viewer.waitForSelector('canvas#board');
  await viewer.locator('#scrub').evaluate((el) => {
    el.value = el.max;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
  // Some tick of the game shows the marker in the seat's stderr pane.
  const ticks = Number(await viewer.locator('#scrub').getAttribute('max'));
  let shown = false;
  for (let t1 = 1; t1 <= ticks && !shown; t1++) {
    await viewer.locator('#scrub').evaluate((el, v) => {
      el.value = String(v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, t1);
    shown = (await viewer.locator('body').textContent()).includes('mine-marker');
  }
  assert.ok(shown, 'the viewer shows the stderr at its tick');

  // Without the credentials, the same game has no stderr at all.
  const publicPage = await b.newPage();
  await publicPage.goto(BASE + found.replace(/\?.*$/, ''));
  await publicPage.waitForSelector('canvas#board');
  const html = await publicPage.content();
  assert.ok(!html.includes('mine-marker'), "nobody else sees the program's stderr");
  // A spectator is told why in words for the web, and finds the way back.
  assert.match(await publicPage.textContent('#stderr-note'), /for its owner only, who sees it by opening this game from their player page/);
  // The site's own bar, as on every page of the site.
  assert.deepEqual(await publicPage.locator('header.topbar nav a').evaluateAll((as) => as.map((a) => a.getAttribute('href'))), ['/', '/leaderboard', '/replays', '/admin']);
  assert.equal(await publicPage.isVisible('header.topbar nav'), true);
  assert.equal(await publicPage.getAttribute('header.topbar nav a[aria-current="page"]', 'href'), '/replays');
  // Each seat has the colour it has in the live room.
  const live = await page.evaluate(() => window.__snakepit.frame.snakes.map((s) => [s.seat, s.color]));
  for (const [seat, color] of live) {
    assert.equal(await publicPage.evaluate((s) => window.__replayViewer.seatColor(s), seat), color, 'seat ' + seat);
  }
  assert.deepEqual(unexpectedErrors(b.problems), []);
});
