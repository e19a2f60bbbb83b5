// The room page, /room/NAME: a live board from the spectator socket
// /ws/room/NAME, the players, the round state and an event log.
'use strict';

(function () {
  const SP = window.Snakepit;
  const $ = SP.$;
  const name = decodeURIComponent(location.pathname.replace(/^\/room\//, '').replace(/\/+$/, ''));
  document.title = 'snakepit · ' + name;
  $('room-title').textContent = name;

  const view = new SP.BoardView($('board'));
  const log = new SP.EventLog($('events'), 100);
  // Test hook: the latest frame and counters (read by the browser tests).
  const hook = (window.__snakepit = { page: 'room', room: name, frame: null, frames: 0, view });

  let everOpen = false;
  SP.live(SP.wsUrl('/ws/room/' + encodeURIComponent(name)), {
    message(msg) {
      if (msg.type !== 'frame' || !msg.data || typeof msg.data.size !== 'number') return;
      const f = msg.data;
      hook.frame = f;
      hook.frames += 1;
      view.setFrame(f);
      SP.renderPhase($('phase'), f);
      SP.renderResult($('result'), f);
      SP.renderPlayers($('players'), f, null);
      $('tick').textContent = 'tick ' + f.tick;
      $('tick-ms').textContent = SP.ms(f.tick_ms);
      log.add(f);
    },
    status(state, info) {
      if (state === 'open') everOpen = true;
      SP.connStatus($('conn'), state, info);
      if (state === 'retry' && !hook.frame) {
        view.setMessage(everOpen ? 'reconnecting…' : 'cannot open room “' + name + '” (does it exist?)');
      }
    },
  });
})();
