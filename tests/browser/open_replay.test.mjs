// The replays page, /replays: it lists the kept games, and opens a replay
// file from the visitor's disk (here one that `snakepit play` wrote, with
// its stderr log) in the viewer, scrubbable, with the fork command naming
// the file. A file that does not replay is refused with the reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BASE, launch, serverWith, unexpectedErrors, waitForPage } from './helpers.mjs';

const BIN = process.env.SNAKEPIT_BIN;
if (!BIN) throw new Error('SNAKEPIT_BIN is not set: run the tests through scripts/browser-tests.sh');

// A duel bot that says on stderr which move it is at.
const BOT = 'import sys\nn = 0\nfor line in sys.stdin:\n    n += 1\n    print("open-marker %d" % n, file=sys.stderr, flush=True)\n    print(n % 4, flush=True)\n';

test('a replay file opens in the viewer from the replays page', { timeout: 300000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snakepit-open-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'bot.py'), BOT);
  const file = path.join(dir, 'lost game.jsonl');
  execFileSync(BIN, ['play', '--game', 'duel', '--seed', '9', '--bot', 'python3 ' + path.join(dir, 'bot.py'), '--bot', 'builtin:greedy', '--replay', file], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  assert.ok(fs.existsSync(file + '.stderr.jsonl'), 'play wrote the stderr log');
  const ticks = fs.readFileSync(file, 'utf8').trim().split('\n').length - 1;

  const b = await launch(t);
  const page = await b.newPage();
  await page.goto(BASE + '/replays');
  // The kept games of the server's rooms are listed (duels end within seconds).
  await page.locator('#games a.game-link').first().waitFor({ timeout: 60000 });
  assert.match(await page.locator('#games a.game-link').first().getAttribute('href'), /^\/replays\/\d+$/);

  await page.setInputFiles('#open-file', file);
  await page.setInputFiles('#open-log', file + '.stderr.jsonl');
  await page.click('#open-go');
  await waitForPage(page, BASE + '/replays/open');
  await page.waitForSelector('canvas#board');
  const t1 = Math.min(2, ticks);
  await page.locator('#scrub').evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, t1);
  const body = await page.locator('body').textContent();
  assert.ok(body.includes('open-marker ' + t1), "the tick's stderr is shown");
  assert.ok(body.includes('builtin:greedy'), 'the players are named');
  const command = await page.locator('#fork-command').textContent();
  assert.ok(command.includes('lost game.jsonl') && command.includes('--from-tick ' + (t1 + 1)), command);

  // A file that is not a replay: the reason, not a page.
  fs.writeFileSync(path.join(dir, 'junk.jsonl'), 'hello\n');
  await page.goto(BASE + '/replays');
  await page.setInputFiles('#open-file', path.join(dir, 'junk.jsonl'));
  const [answer] = await Promise.all([page.waitForNavigation(), page.click('#open-go')]);
  assert.equal(answer.status(), 400);
  assert.match(await page.locator('body').textContent(), /cannot be shown.*line 1/s);
  // The refused post is the one console error expected.
  assert.deepEqual(unexpectedErrors(b.problems, [/400/]), []);
});

test('the replays page goes to older games and back, a page at a time', { timeout: 300000 }, async (t) => {
  // 33 kept duels, played by a worker into the store the server then opens;
  // no rooms, so no other game is kept meanwhile.
  const url = await serverWith(t, 'games = ["duel"]\n[duel]\nfill_bots = []\n[[rooms]]\nname = "only"\ngame = "duel"\n', (dir) => {
    const db = path.join(dir, 'db.sqlite');
    execFileSync(BIN, ['queue', '--db', db, 'add', '--game', 'duel', '--bot', 'builtin:greedy', '--bot', 'builtin:safe', '--games', '33']);
    execFileSync(BIN, ['worker', '--db', db, '--until-empty', '--jobs', '1'], { stdio: 'ignore' });
  });
  const all = (await (await fetch(url + '/api/replays?limit=50')).json()).map((g) => g.id);
  assert.equal(all.length, 33);

  const b = await launch(t);
  const page = await b.newPage();
  const shown = async () => {
    await page.waitForFunction(() => window.__snakepit.games !== null);
    return page.locator('#games a.game-link').evaluateAll((as) => as.map((a) => Number(a.getAttribute('href').split('/').pop())));
  };
  await page.goto(url + '/replays');
  assert.deepEqual(await shown(), all.slice(0, 30), 'the newest 30, newest first');
  assert.equal(await page.isVisible('#page-newer'), false);
  await page.click('#page-older');
  await page.waitForURL(url + '/replays?before=' + all[29]);
  assert.deepEqual(await shown(), all.slice(30), 'the 3 older ones');
  assert.equal(await page.isVisible('#page-older'), false, 'nothing older than the last page');
  await page.click('#page-newer');
  await page.waitForURL(url + '/replays');
  assert.deepEqual(await shown(), all.slice(0, 30));

  // A page past the oldest game says so; a malformed one shows the newest.
  await page.goto(url + '/replays?before=' + all[32]);
  await page.waitForSelector('#games-empty:not(.hidden)');
  assert.match(await page.textContent('#games-empty'), /older/);
  await page.goto(url + '/replays?before=x');
  assert.deepEqual(await shown(), all.slice(0, 30));
  assert.deepEqual(unexpectedErrors(b.problems), []);
});
