// The room page, /room/NAME: a live board from the spectator socket
// /ws/room/NAME, the players, the round state, an event log and the
// room's latest finished games (kept replays, /api/replays?origin=NAME).
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

  // The latest kept games, reloaded when a game ends and now and then:
  // SnakeBattle keeps each round, Hex each field until it restarts,
  // CodeCarrots each stretch of 1,000 ticks, the duel and Multisnake each game.
  const GAMES_SHOWN = 8;
  const GAMES_TITLE = { snakebattle: 'Last rounds', hex: 'Last fields', carrots: 'Last stretches of 1,000 ticks' };
  const h = SP.h;
  async function loadGames() {
    const games = await SP.api('/api/replays?origin=' + encodeURIComponent(name) + '&limit=' + GAMES_SHOWN);
    hook.games = games.length;
    // Titled by the games themselves: the list may come before the first frame.
    if (games.length && games[0].game) $('games-title').textContent = GAMES_TITLE[games[0].game] || 'Last games';
    $('games-panel').classList.toggle('hidden', games.length === 0);
    SP.fill(
      $('games'),
      ...games.map((g) => {
        const ticks = g.result && g.result.ticks ? g.result.ticks + ' ticks' : '';
        return h(
          'li',
          null,
          h('a', { href: '/replays/' + g.id, class: 'game-link', text: SP.verdict(g.result) || 'replay #' + g.id, title: 'replay #' + g.id }),
          h('span', { class: 'faint', text: [ticks, SP.ago(g.created_ms)].filter(Boolean).join(' · ') })
        );
      })
    );
  }
  SP.poll(loadGames, 15000);
  let lastResult = null;

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
      // A spectator who wants to play signs up for this room's game.
      if (f.game) $('games-title').textContent = GAMES_TITLE[f.game] || 'Last games';
      if (f.game && $('join').classList.contains('hidden')) {
        $('join').href = '/?game=' + encodeURIComponent(f.game) + '#register';
        $('join').classList.remove('hidden');
      }
      if ((f.phase === 'over' || f.phase === 'countdown') && f.result && f.result !== lastResult) {
        lastResult = f.result;
        // The replay is written just after the game ends.
        setTimeout(() => loadGames().catch(() => {}), 500);
      }
      SP.renderPlayers($('players'), f, null);
      SP.renderLegend($('legend'), f, null);
      $('tick').textContent = 'room tick ' + f.tick;
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
