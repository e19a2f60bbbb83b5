// The room page animates the board from the spectator socket.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, ROOM, launch, unexpectedErrors } from './helpers.mjs';

test('the room page shows the board changing from tick to tick', { timeout: 300000 }, async (t) => {
  const b = await launch(t);
  const page = await b.newPage();
  await page.goto(BASE + '/room/' + ROOM);
  await page.waitForFunction(() => window.__snakepit && window.__snakepit.frame && window.__snakepit.view.draws > 0, null, { timeout: 60000 });

  const snap = () =>
    page.evaluate(() => ({
      tick: window.__snakepit.frame.tick,
      shownTick: document.getElementById('tick').textContent,
      png: document.getElementById('board').toDataURL('image/png'),
    }));
  const first = await snap();
  // The room's own counter is named apart from the round's tick in the head.
  assert.match(first.shownTick, /^room tick \d+$/);
  // Several ticks later (100 ms each), and after the slide has finished.
  await page.waitForFunction((t0) => window.__snakepit.frame.tick >= t0 + 5, first.tick, { timeout: 60000 });
  await page.waitForTimeout(150);
  const second = await snap();
  assert.ok(second.tick > first.tick, 'the frame tick advanced');
  assert.notEqual(second.shownTick, first.shownTick, 'the page shows the new tick');
  assert.notEqual(second.png, first.png, 'the board pixels changed');

  // The side panel lists the room's snakes and the round state.
  const panel = await page.evaluate(() => ({
    players: document.querySelectorAll('#players li[data-seat]').length,
    snakes: window.__snakepit.frame.snakes.length,
    phase: document.getElementById('phase').textContent,
    title: document.getElementById('room-title').textContent,
  }));
  assert.equal(panel.players, panel.snakes);
  assert.ok(panel.snakes > 0, 'the room has snakes (built-in bots fill the seats)');
  assert.match(panel.phase, /^(Round \d+ · tick \d+ of 300|Round \d+ starting in \d+…|Paused · round \d+)$/);
  assert.equal(panel.title, ROOM);

  await page.screenshot({ path: '/tmp/snakepit-room.png' });
  assert.deepEqual(unexpectedErrors(b.problems), []);
  assert.deepEqual(b.problems.dialogs, []);
});

test('a room that does not exist is a 404 page that leads back to the lobby', { timeout: 300000 }, async (t) => {
  const b = await launch(t);
  const page = await b.newPage();
  const res = await page.goto(BASE + '/room/no-such-room');
  assert.equal(res.status(), 404);
  assert.equal(await page.textContent('h1'), 'No such room');
  assert.equal(await page.getAttribute('main a.button', 'href'), '/');
  // A short page: no socket, nothing retrying.
  assert.equal(await page.evaluate(() => typeof window.__snakepit), 'undefined');
  assert.deepEqual(unexpectedErrors(b.problems, [/status of 404/]), []);
});

test('an events panel says so while it is empty', { timeout: 300000 }, async (t) => {
  const b = await launch(t);
  const page = await b.newPage();
  await page.goto(BASE + '/room/' + ROOM);
  await page.waitForFunction(() => window.__snakepit && window.__snakepit.frame);
  const seen = await page.evaluate(() => {
    const ul = document.createElement('ul');
    const log = new window.Snakepit.EventLog(ul, 10);
    const empty = ul.textContent;
    log.add({ room: 'r', tick: 1, paused: false, events: [] });
    const quiet = ul.textContent;
    log.add({ room: 'r', tick: 2, paused: false, events: ['ann ate an apple'] });
    return { empty, quiet, after: Array.from(ul.children).map((li) => li.textContent) };
  });
  assert.equal(seen.empty, 'No events yet.');
  assert.equal(seen.quiet, 'No events yet.');
  assert.deepEqual(seen.after, ['#2ann ate an apple']);
  assert.deepEqual(unexpectedErrors(b.problems), []);
});
