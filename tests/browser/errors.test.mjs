// Addresses that fail, as a visitor meets them: a kept game that does not
// exist, a game's address that is not a number, an unknown address and a
// replay file that does not replay each show a page in the site's style
// with the reason and a way back, never JSON or the framework's words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BASE, launch } from './helpers.mjs';

async function assertErrorPage(page, status, says) {
  const body = await page.locator('body').textContent();
  assert.ok(!/\{"error"|Invalid URL|Cannot parse/.test(body), 'raw text shown: ' + body);
  assert.equal(await page.locator('header.topbar').count(), 1, 'the site\'s bar');
  assert.match(await page.locator('#error-why').textContent(), says);
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.notEqual(bg, 'rgba(0, 0, 0, 0)', 'the site\'s stylesheet applies');
  return status;
}

test('failing addresses show a page with the reason and a way back', { timeout: 60000 }, async (t) => {
  const b = await launch(t);
  const page = await b.newPage();

  let answer = await page.goto(BASE + '/replays/99999');
  assert.equal(answer.status(), 404);
  await assertErrorPage(page, 404, /no game 99999/);
  await page.screenshot({ path: '/tmp/snakepit-error-page.png' });
  await page.click('text=Back to the replays');
  await page.waitForURL(BASE + '/replays');

  answer = await page.goto(BASE + '/replays/abc');
  assert.equal(answer.status(), 404);
  await assertErrorPage(page, 404, /no game "abc"/);

  answer = await page.goto(BASE + '/no/such/place');
  assert.equal(answer.status(), 404);
  assert.match(await page.locator('h1').textContent(), /Nothing here/);
  await page.click('text=Back to the lobby');
  await page.waitForURL(BASE + '/');

  // A file that is not a replay, sent from the replays page's form.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snakepit-errors-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'junk.jsonl'), '<b>not</b> a replay\n');
  await page.goto(BASE + '/replays');
  await page.setInputFiles('#open-file', path.join(dir, 'junk.jsonl'));
  const [sent] = await Promise.all([page.waitForNavigation(), page.click('#open-go')]);
  assert.equal(sent.status(), 400);
  await assertErrorPage(page, 400, /cannot be shown.*line 1/s);
  await page.screenshot({ path: '/tmp/snakepit-error-upload.png' });
  assert.equal(await page.locator('#error-why b').count(), 0, 'what the file holds stays text');

  // The API still answers JSON.
  const api = await page.evaluate(async () => {
    const r = await fetch('/api/replays/99999/file');
    return [r.status, r.headers.get('content-type'), await r.text()];
  });
  assert.equal(api[0], 404);
  assert.match(api[1], /application\/json/);
  assert.match(api[2], /"error"/);
});
