// The leaderboard lists players once they have a score row.
//
// The server writes a row for a player the first time a tick changes their
// totals (points, a death, a kill or a win), so a player who only
// registered is not listed. Here two players open their pages (which seats
// them); with nobody steering, their snakes run into something within a
// round, and that death (or any points) gives them a row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, api, launch, register, uniqueName, until, unexpectedErrors } from './helpers.mjs';

test('the leaderboard lists players who have played', { timeout: 300000 }, async (t) => {
  const b = await launch(t);
  const p1 = await register(uniqueName('lb-one'));
  const p2 = await register(uniqueName('lb-two'));

  const lb = await b.newPage();
  await lb.goto(BASE + '/leaderboard');
  await lb.waitForSelector('#lb-status .dot.on');
  const before = await lb.locator('#lb-body tr').allTextContents();
  assert.ok(!before.some((r) => r.includes(p1.name) || r.includes(p2.name)), 'not listed before playing');

  const pages = [];
  for (const p of [p1, p2]) {
    const page = await b.newPage();
    await page.goto(p.url);
    pages.push(page);
  }
  // The API first (so a failure says which side is wrong), then the page.
  await until(
    async () => {
      const r = await api('GET', '/api/leaderboard?game=snakebattle');
      const ids = new Set(r.data.map((x) => x.player_id));
      return ids.has(p1.id) && ids.has(p2.id);
    },
    { timeout: 120000, every: 500, what: 'both players on /api/leaderboard' }
  );
  await lb.waitForFunction(
    (names) => {
      const cells = Array.from(document.querySelectorAll('#lb-body td.name-cell')).map((td) => td.textContent);
      return names.every((n) => cells.includes(n));
    },
    [p1.name, p2.name],
    { timeout: 60000 }
  );

  // Each row shows the same numbers as the API, best score first.
  const rows = await lb.evaluate(() =>
    Array.from(document.querySelectorAll('#lb-body tr')).map((tr) => ({
      id: tr.dataset.player,
      cells: Array.from(tr.children).map((td) => td.textContent),
    }))
  );
  const r = await api('GET', '/api/leaderboard?game=snakebattle');
  for (const p of [p1, p2]) {
    const row = rows.find((x) => x.id === p.id);
    const want = r.data.find((x) => x.player_id === p.id);
    assert.ok(row && want);
    assert.equal(row.cells[1], p.name);
    assert.ok(want.score + want.deaths + want.kills + want.wins > 0, 'a listed player has played');
  }
  const scores = rows.map((x) => Number(x.cells[2]));
  assert.deepEqual(scores, scores.slice().sort((a, b) => b - a));
  assert.deepEqual(unexpectedErrors(b.problems), []);
});
