'use strict';
// A SnakeBattle bot: connects to the server, answers every board with one
// command, and reconnects when the connection drops.
//
//     node main.js [PLAYER_PAGE_URL] [--ticks N]
//
// Without a URL argument it uses URL below. --ticks N (or the environment
// variable SNAKEPIT_TICKS) stops after N boards.

const WebSocket = require('ws');
const { Board } = require('./board');
const { choose } = require('./solver');

// The address of your player page, copied from the browser as it is.
const URL = 'SNAKEPIT_PLAYER_URL';

const RECONNECT_DELAY_MS = 2000;

// The bot socket's address, derived from the player page's address:
// http://HOST/codenjoy-contest/board/player/ID?code=CODE
// becomes ws://HOST/codenjoy-contest/ws?user=ID&code=CODE
function wsUrl(pageUrl) {
  let url = pageUrl.trim();
  if (url.startsWith('http')) url = 'ws' + url.slice('http'.length);
  return url.replace('board/player/', 'ws?user=').replace('?code=', '&code=');
}

function parseArgs(argv) {
  let url = URL;
  let ticks = process.env.SNAKEPIT_TICKS || null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--ticks' && i + 1 < argv.length) ticks = argv[++i];
    else if (argv[i].startsWith('--ticks=')) ticks = argv[i].slice('--ticks='.length);
    else url = argv[i];
  }
  return { url, ticks: ticks ? parseInt(ticks, 10) : null };
}

function play(url, ticks) {
  let answered = 0;
  const done = () => ticks !== null && answered >= ticks;

  const connect = () => {
    console.log(`connecting to ${url}`);
    const ws = new WebSocket(url);
    ws.on('open', () => console.log('connected'));
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? '' : data.toString('utf8');
      if (!text.startsWith('board=') || done()) return;
      const board = new Board(text);
      const command = choose(board);
      ws.send(command);
      answered += 1;
      const head = board.myHead();
      console.log(`board ${answered}: head ${head ? `(${head.x}, ${head.y})` : 'none'} -> ${command}`);
      if (done()) ws.close(1000, 'done');
    });
    ws.on('error', (e) => console.log(`error: ${e.message}`));
    ws.on('close', () => {
      if (done()) {
        console.log(`done: answered ${answered} boards`);
        process.exit(0);
      }
      console.log(`disconnected; retrying in ${RECONNECT_DELAY_MS / 1000} s`);
      setTimeout(connect, RECONNECT_DELAY_MS);
    });
  };
  connect();
}

function main() {
  const { url, ticks } = parseArgs(process.argv.slice(2));
  if (!url.startsWith('http')) {
    console.error('Pass your player page URL (http://.../board/player/ID?code=CODE) '
      + 'as the first argument, or paste it into URL in main.js.');
    process.exit(2);
  }
  play(wsUrl(url), ticks);
}

if (require.main === module) main();

module.exports = { wsUrl, parseArgs };
