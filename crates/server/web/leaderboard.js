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
  SP.poll(load, 3000);
})();
