#!/usr/bin/env python3
# Usage: python3 scripts/first-move-time.py http://HOST:PORT [N]  (needs websocket-client)
# Sign-up to first move of a person in SnakeBattle on a default server:
# registers, opens the player's page socket (as the page does), presses a
# key at every frame, and times until the person's snake has moved while
# awake (seen by a spectator of the room the person sits in).
import json, sys, time, threading, urllib.request, statistics, random
import websocket  # websocket-client

base = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 10
ws_base = base.replace("http://", "ws://")
times = []
for k in range(n):
    name = f"timer{k}-{random.randrange(10**6)}"
    t0 = time.monotonic()
    req = urllib.request.Request(base + "/api/register", data=json.dumps({"name": name}).encode(), headers={"Content-Type": "application/json"})
    me = json.load(urllib.request.urlopen(req))
    page = websocket.create_connection(f"{ws_base}/ws/player?user={me['id']}&code={me['code']}", timeout=5)
    room = None
    first = None
    while room is None:
        msg = json.loads(page.recv())
        if msg.get("type") == "frame":
            room = msg["data"]["room"]
    spec = websocket.create_connection(f"{ws_base}/ws/room/{room}", timeout=5)
    start_head = None
    while first is None:
        page.send("RIGHT")
        try:
            msg = json.loads(spec.recv())
        except websocket.WebSocketTimeoutException:
            continue
        if msg.get("type") != "frame":
            continue
        mine = [s for s in msg["data"]["snakes"] if s["name"] == name]
        if not mine or not mine[0]["alive"] or mine[0]["sleeping"]:
            start_head = None
            continue
        head = mine[0]["body"][0]
        if start_head is None:
            start_head = head
        elif head != start_head:
            first = time.monotonic() - t0
        # drain the page socket
        page.settimeout(0.01)
        try:
            while True:
                page.recv()
        except Exception:
            pass
        page.settimeout(5)
    times.append(first)
    print(f"{name}: room {room}, first move after {first:.1f} s", flush=True)
    page.close(); spec.close()
    time.sleep(random.uniform(1, 8))
print(f"median {statistics.median(times):.1f} s over {len(times)} sign-ups (min {min(times):.1f}, max {max(times):.1f})")
