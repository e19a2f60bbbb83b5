"""A SnakeBattle bot: connects to the server, answers every board with one
command, and reconnects when the connection drops.

    python3 main.py [PLAYER_PAGE_URL] [--ticks N]

Without a URL argument it uses URL below. --ticks N (or the environment
variable SNAKEPIT_TICKS) stops after N boards.
"""

import os
import sys
import time

import websocket  # pip install websocket-client

from board import Board
from solver import choose

# The address of your player page, copied from the browser as it is.
URL = "SNAKEPIT_PLAYER_URL"

RECONNECT_DELAY_S = 2


def ws_url(page_url):
    """The bot socket's address, derived from the player page's address:
    http://HOST/codenjoy-contest/board/player/ID?code=CODE
    becomes ws://HOST/codenjoy-contest/ws?user=ID&code=CODE"""
    url = page_url.strip()
    if url.startswith("http"):
        url = "ws" + url[len("http"):]
    return url.replace("board/player/", "ws?user=", 1).replace("?code=", "&code=", 1)


def parse_args(argv):
    url, ticks = URL, os.environ.get("SNAKEPIT_TICKS")
    rest = list(argv)
    while rest:
        arg = rest.pop(0)
        if arg == "--ticks" and rest:
            ticks = rest.pop(0)
        elif arg.startswith("--ticks="):
            ticks = arg.split("=", 1)[1]
        else:
            url = arg
    return url, int(ticks) if ticks else None


def play(url, ticks):
    """Plays until `ticks` boards are answered (forever if None)."""
    answered = 0
    while ticks is None or answered < ticks:
        try:
            print(f"connecting to {url}", flush=True)
            ws = websocket.create_connection(url)
            print("connected", flush=True)
            try:
                while ticks is None or answered < ticks:
                    message = ws.recv()
                    if not isinstance(message, str) or not message.startswith("board="):
                        continue
                    board = Board(message)
                    command = choose(board)
                    ws.send(command)
                    answered += 1
                    print(f"board {answered}: head {board.my_head()} -> {command}", flush=True)
            finally:
                ws.close()
        except (websocket.WebSocketException, OSError) as e:
            print(f"disconnected: {e or type(e).__name__}; retrying in {RECONNECT_DELAY_S} s", flush=True)
            time.sleep(RECONNECT_DELAY_S)
    print(f"done: answered {answered} boards", flush=True)


def main():
    page_url, ticks = parse_args(sys.argv[1:])
    if not page_url.startswith("http"):
        print("Pass your player page URL (http://.../board/player/ID?code=CODE) "
              "as the first argument, or paste it into URL in main.py.", file=sys.stderr)
        sys.exit(2)
    try:
        play(ws_url(page_url), ticks)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
