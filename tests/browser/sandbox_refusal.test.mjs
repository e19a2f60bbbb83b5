// A public server whose sandbox lacks a layer (here one switched off in the
// configuration) runs no uploaded program: the player's page says why as
// soon as the editor loads, and a save is refused with the same words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serverWith, uniqueName, unexpectedErrors } from './helpers.mjs';

test('the player page says why programs do not run here', { timeout: 300000 }, async (t) => {
  const url = await serverWith(t, 'games = ["duel"]\n[sandbox]\nlayers_off = ["ipc namespace"]\n');
  const res = await fetch(url + '/api/register', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: uniqueName('refused'), game: 'duel' }),
  });
  assert.equal(res.status, 201);
  const p = await res.json();
  const { newPage, problems } = await launch(t);
  const page = await newPage();
  await page.goto(url + '/codenjoy-contest/board/player/' + p.id + '?code=' + p.code);
  await page.waitForFunction(() => window.__snakepit.codeLoaded === true);
  const error = page.locator('#code-error');
  await error.waitFor({ state: 'visible' });
  assert.match(await error.textContent(), /Programs do not run here: this server runs no uploaded programs: .*lacks ipc namespace/);
  assert.match(await error.textContent(), /allow_missing_layers = true/);
  await page.selectOption('#code-lang', 'python');
  await page.click('#code-starter');
  await page.click('#code-save');
  await page.waitForFunction(() => /^not saved: this server runs no uploaded programs/.test(document.getElementById('code-error').textContent));
  assert.equal(await page.isVisible('#code-ok'), false, 'nothing says it was saved');
  assert.deepEqual(unexpectedErrors(problems, [/status of 403/]), []);
});
