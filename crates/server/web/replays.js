// The replays page, /replays: the latest kept games (from /api/replays),
// each a link to its viewer page, a page at a time (`?before=ID` shows the
// games older than ID, so every page has an address), and a form that opens a replay file from
// the visitor's disk in the same viewer. The file is read here and posted
// as a form field to /replays/open, whose answer is the viewer's page: the
// server re-simulates it, so the page shows exactly what its checksums
// verify, and keeps nothing.
'use strict';

(function () {
  const SP = window.Snakepit;
  const $ = SP.$;
  const h = SP.h;
  const GAMES_SHOWN = 30;
  // The server refuses larger bodies; saying so here is kinder.
  const FILE_BYTES_MAX = 8 * 1024 * 1024;
  const hook = (window.__snakepit = { page: 'replays', games: null });
  // Ids are positive integers; anything else shows the newest page.
  const wanted = new URLSearchParams(location.search).get('before');
  const before = /^[1-9][0-9]{0,17}$/.test(wanted || '') ? wanted : null;

  async function loadGames() {
    try {
      // One game more than shown tells whether an older page exists.
      const games = await SP.api('/api/replays?limit=' + (GAMES_SHOWN + 1) + (before ? '&before=' + before : ''));
      const older = games.length > GAMES_SHOWN;
      if (older) games.length = GAMES_SHOWN;
      hook.games = games.length;
      $('page-newer').classList.toggle('hidden', !before);
      $('page-older').classList.toggle('hidden', !older);
      if (older) $('page-older').href = '/replays?before=' + games[games.length - 1].id;
      SP.say($('games-error'), '');
      $('games-empty').textContent = before ? 'No games older than these.' : 'No game has been kept yet.';
      $('games-empty').classList.toggle('hidden', games.length > 0);
      SP.fill(
        $('games'),
        ...games.map((g) => {
          const what = SP.verdict(g.result);
          const ticks = g.result && g.result.ticks ? g.result.ticks + ' ticks' : '';
          return h(
            'li',
            null,
            h('a', { href: '/replays/' + g.id, class: 'game-link', text: g.game + ' ' + g.id }),
            h('span', { class: 'faint', text: [g.origin, what, ticks, SP.ago(g.created_ms)].filter(Boolean).join(' · ') }),
            h('a', { href: '/api/replays/' + g.id + '/file', class: 'small', text: 'file', download: g.game + '-' + g.id + '.jsonl' })
          );
        })
      );
    } catch (e) {
      SP.say($('games-error'), 'Could not load the kept games: ' + e.message);
    }
  }
  // Only the newest page gains games; an older one is read once.
  if (before) loadGames();
  else SP.poll(loadGames, 10000);

  async function read(input) {
    const f = input.files && input.files[0];
    if (!f) return null;
    if (f.size > FILE_BYTES_MAX) throw new Error(f.name + ' is larger than ' + FILE_BYTES_MAX / 1024 / 1024 + ' MiB');
    return { name: f.name, text: await f.text() };
  }

  // The files are read into the form's hidden fields, then the form is
  // sent for real (form.submit() does not fire "submit" again).
  const form = $('open-form');
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    SP.say($('open-error'), '');
    try {
      const replay = await read($('open-file'));
      if (!replay) throw new Error('choose a replay file');
      const log = await read($('open-log'));
      $('open-name').value = replay.name;
      $('open-replay').value = replay.text;
      $('open-log-text').value = log ? log.text : '';
      form.submit();
    } catch (e) {
      SP.say($('open-error'), e.message);
    }
  });
})();
