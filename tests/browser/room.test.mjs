// The room page animates the board from the spectator socket.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, ROOM, launch, unexpectedErrors } from './helpers.mjs';

test('the room page shows the board changing from tick to tick', { timeout: 60000 }, async (t) => {
  const b = await launch(t);
  const page = await b.newPage();
  await page.goto(BASE + '/room/' + ROOM);
  await page.waitForFunction(() => window.__snakepit && window.__snakepit.frame && window.__snakepit.view.draws > 0, null, { timeout: 15000 });

  const snap = () =>
    page.evaluate(() => ({
      tick: window.__snakepit.frame.tick,
      shownTick: document.getElementById('tick').textContent,
      png: document.getElementById('board').toDataURL('image/png'),
    }));
  const first = await snap();
  assert.match(first.shownTick, /^tick \d+$/);
  // Several ticks later (100 ms each), and after the slide has finished.
  await page.waitForFunction((t0) => window.__snakepit.frame.tick >= t0 + 5, first.tick, { timeout: 15000 });
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
  assert.match(panel.phase, /^(Round \d+ · tick \d+|Round \d+ starting in \d+…|Paused · round \d+)$/);
  assert.equal(panel.title, ROOM);

  await page.screenshot({ path: '/tmp/snakepit-room.png' });
  assert.deepEqual(unexpectedErrors(b.problems), []);
  assert.deepEqual(b.problems.dialogs, []);
});

test('the room page says so when the room does not exist, and keeps trying', { timeout: 30000 }, async (t) => {
  const b = await launch(t);
  const page = await b.newPage();
  await page.goto(BASE + '/room/no-such-room');
  await page.waitForFunction(() => /reconnecting|disconnected/.test(document.getElementById('conn').textContent), null, { timeout: 15000 });
  // The failed handshake is the only error the console may show.
  assert.deepEqual(unexpectedErrors(b.problems, [/WebSocket connection to .* failed/]), []);
});
