// The leaderboard, /leaderboard[?game=NAME]: totals over every room,
// refreshed every few seconds.
'use strict';

(function () {
  const SP = window.Snakepit;
  const $ = SP.$;
  const h = SP.h;
  const game = new URLSearchParams(location.search).get('game') || 'snakebattle';
  $('lb-game').textContent = game;
  for (const a of document.querySelectorAll('#lb-tabs a[data-game]')) {
    if (a.dataset.game === game) a.setAttribute('aria-current', 'page');
  }

  async function load() {
    try {
      const rows = await SP.api('/api/leaderboard?game=' + encodeURIComponent(game));
      SP.say($('lb-error'), '');
      const list = Array.isArray(rows) ? rows : [];
      SP.fill(
        $('lb-body'),
        list.map((r, i) =>
          h(
            'tr',
            { class: i < 3 ? 'rank-' + (i + 1) : null, dataset: { player: r.player_id } },
            h('td', { class: 'num rank', text: String(i + 1) }),
            h('td', { class: 'name-cell', text: r.name }),
            h('td', { class: 'num', text: String(r.score) }),
            h('td', { class: 'num', text: String(r.wins) }),
            h('td', { class: 'num', text: String(r.kills) }),
            h('td', { class: 'num', text: String(r.deaths) })
          )
        )
      );
      $('lb-empty').classList.toggle('hidden', list.length > 0);
      SP.fill($('lb-status'), h('span', { class: 'dot on' }), 'updated ' + new Date().toLocaleTimeString());
    } catch (e) {
      SP.say($('lb-error'), 'Could not load the leaderboard: ' + e.message);
      SP.fill($('lb-status'), h('span', { class: 'dot' }), 'offline');
    }
  }
  // The ladder's ratings, when this game has one: W/D/L per latest game,
  // each a link to the game's replay page.
  async function loadLadder() {
    try {
      const rows = await SP.api('/api/ratings?game=' + encodeURIComponent(game));
      const list = Array.isArray(rows) ? rows : [];
      $('ladder').classList.toggle('hidden', list.length === 0);
      SP.fill(
        $('ladder-body'),
        list.map((r, i) => {
          const games = (r.recent || []).map((g) => {
            const places = Array.isArray(g.places) ? g.places : [];
            const others = places.filter((_, s) => s !== g.seat);
            const best = others.length ? Math.min(...others) : g.place;
            const mark = g.place < best ? 'W' : g.place === best ? 'D' : 'L';
            return h('a', { class: 'result result-' + mark, href: '/replays/' + g.replay, title: 'game ' + g.replay, text: mark });
          });
          return h(
            'tr',
            { dataset: { player: r.player_id } },
            h('td', { class: 'num rank', text: String(i + 1) }),
            h('td', { class: 'name-cell', text: r.name }),
            h('td', { class: 'num', text: r.rating.toFixed(1) + ' ± ' + (2 * r.uncertainty).toFixed(1) }),
            h('td', { class: 'num', text: String(r.games) }),
            h('td', { class: 'results' }, ...games)
          );
        })
      );
    } catch (e) {
      SP.say($('lb-error'), 'Could not load the ladder: ' + e.message);
    }
  }
  SP.poll(load, 3000);
  SP.poll(loadLadder, 5000);
})();
