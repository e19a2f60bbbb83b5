// The report of `snakepit tournament`, opened offline over file:// from its
// folder: it wears the server's stylesheet, a game of the list opens that
// game's replay page, and a win-matrix cell leads to its pair's games,
// whose links open replays of games between those two bots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, unexpectedErrors } from './helpers.mjs';

const BIN = process.env.SNAKEPIT_BIN;
if (!BIN) throw new Error('SNAKEPIT_BIN is not set: run the tests through scripts/browser-tests.sh');

test('the tournament report links its games to replay pages offline', { timeout: 300000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snakepit-report-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const out = path.join(dir, 'tour');
  execFileSync(
    BIN,
    ['tournament', '--game', 'duel', '--bot', 'g=builtin:greedy', '--bot', 'r=builtin:random', '--bot', 's=builtin:greedy', '--games', '60', '--seed', '4', '--out', out],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const names = ['g', 'r', 's'];
  const results = new Map(
    fs
      .readFileSync(path.join(out, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .map((r) => [r.game, r]),
  );
  assert.equal(results.size, 60);

  const b = await launch(t);
  const page = await b.newPage();
  const report = 'file://' + path.join(out, 'report.html');
  await page.goto(report);

  // The server's look: its panels on its dark background.
  assert.equal(await page.locator('main.wrap section.panel').first().isVisible(), true);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(background, 'rgb(10, 14, 21)', 'the stylesheet colours the page');
  assert.equal(await page.locator('#standings tr').count(), 1 + names.length);

  // A game of the list opens its replay page: the game's own ticks.
  const first = page.locator('#games a').first();
  const label = await first.textContent();
  const game = Number(label.replace('game ', ''));
  await first.click();
  // The replay page starts playing and writes the tick it shows into the
  // address (`#t=N`), maybe before the wait begins on a busy machine.
  await page.waitForURL(/games\/\d{6}\.html(#.*)?$/);
  assert.ok(new URL(page.url()).pathname.endsWith(`games/${String(game).padStart(6, '0')}.html`), page.url());
  assert.match(await page.title(), /snakepit replay/);
  assert.equal(await page.locator('#ticks').textContent(), String(results.get(game).ticks));

  // A win-matrix cell: its pair's games, each a replay of those two bots.
  await page.goto(report);
  const cell = page.locator('#matrix td a').first();
  const href = await cell.getAttribute('href');
  const [, a, c] = href.match(/^#games-(\d+)-(\d+)$/).map(Number);
  await cell.click();
  await page.waitForURL(new RegExp(href + '$'));
  const list = page.locator(`p#games-${a}-${c}`);
  assert.equal(await list.locator('b').first().textContent(), names[a]);
  const links = list.locator('a');
  assert.ok((await links.count()) > 0, 'the cell names games');
  const pairGame = Number((await links.last().textContent()).replace('game ', ''));
  assert.deepEqual([...results.get(pairGame).seats].sort(), [a, c].sort(), 'a game of that pair');
  await links.last().click();
  await page.waitForURL(/games\/\d{6}\.html(#.*)?$/);
  assert.ok(new URL(page.url()).pathname.endsWith(`games/${String(pairGame).padStart(6, '0')}.html`), page.url());
  assert.equal(await page.locator('#ticks').textContent(), String(results.get(pairGame).ticks));

  assert.deepEqual(unexpectedErrors(b.problems), []);
});
