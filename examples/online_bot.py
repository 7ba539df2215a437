#!/usr/bin/env python3
"""The example bot online: it connects to a millebornes server's ``/ws/bot`` with a bot account's token, accepts
every challenge and plays each decision with the same policy as external_bot.py (docs/protocol.md, "Playing
online").  It needs the Python standard library and the `websockets` package, nothing of millebornes.

Make a bot account on the server's page /account/bots, copy its token, then:

    MILLEBORNES_URL=https://example.org MILLEBORNES_BOT_TOKEN=mbb_... python examples/online_bot.py

``--matches N`` stops after N finished matches (0, the default: never); ``--decline`` declines every challenge.
The token is read from the environment (or ``--token``) and sent in the ``Authorization`` header, never in the
address, so it stays out of the server's logs.

To put any program that speaks the stdio protocol online without writing this part, use the bridge:
``millebornes bot "cmd:python examples/external_bot.py" --server URL`` (docs/protocol.md, "The bridge").
"""

import argparse
import json
import os
import random
import sys
from pathlib import Path

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from external_bot import PROTOCOL, VERSION, answer  # noqa: E402  (the same policy, offline and online)

NAME = "example-online"


def socket_url(server: str) -> str:
    """``http://host:port`` (or ``ws://...``) as the address of its bots' WebSocket."""
    server = server.rstrip("/")
    for plain, secure in (("http://", "ws://"), ("https://", "wss://")):
        if server.startswith(plain):
            server = secure + server[len(plain) :]
    return server + "/ws/bot"


def log(*words):
    print("online bot:", *words, file=sys.stderr, flush=True)


def play(url: str, token: str, matches: int, accept: bool) -> int:
    """Serve the connection until it closes, or ``matches`` matches are over; the exit status."""
    rng = random.Random(0)
    over = 0
    with connect(url, additional_headers={"Authorization": f"Bearer {token}"}, open_timeout=10) as ws:
        try:
            for text in ws:
                message = json.loads(text)
                kind = message.get("type")
                if kind == "hello":
                    seed = message.get("seed")
                    rng = random.Random(seed if isinstance(seed, int) else 0)
                    log(f"connected as {message.get('name')}")
                    reply = {"type": "hello", "protocol": PROTOCOL, "name": NAME, "version": VERSION}
                elif kind == "challenge":
                    answered = "accepted" if accept else "declined"
                    log(f"challenged to table {message.get('table')} ({message.get('edition')}): {answered}")
                    reply = {"type": "accept" if accept else "decline", "id": message.get("id")}
                elif kind == "decide":
                    reply = answer(message, rng)
                elif kind == "over":
                    over += 1
                    log(f"table {message.get('table')} is over: winners {message.get('winners')}")
                    if matches and over >= matches:
                        return 0
                    continue
                elif kind == "error":
                    log("the server says:", message.get("message"))
                    continue
                elif kind == "bye":
                    return 0
                else:
                    continue  # a message of a later version: ignored, as the protocol asks
                ws.send(json.dumps(reply))
        except ConnectionClosed as closed:
            log(f"the server closed the connection: {closed.rcvd.code if closed.rcvd else '?'}")
            return 1
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("MILLEBORNES_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("MILLEBORNES_BOT_TOKEN", ""))
    parser.add_argument("--matches", type=int, default=0)
    parser.add_argument("--decline", action="store_true")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("the bot's token: MILLEBORNES_BOT_TOKEN or --token")
    return play(socket_url(args.url), args.token, args.matches, not args.decline)


if __name__ == "__main__":
    sys.exit(main())
