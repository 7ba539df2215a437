#!/usr/bin/env python3
"""A broken bot for testing hosts: it greets properly, then misbehaves as its argument says.

    python examples/garbage_bot.py [MODE]

MODE is one of:
  illegal   (default) answer the action "fly", which is never legal
  json      answer a line that is not JSON
  id        answer a legal action with the wrong id
  error     answer every request with an error reply
  exit      exit with status 3 at the first request, after a message on stderr
  silent    never answer (the host's timeout must fire)
  nohello   answer the hello with an action
  long      answer with an endless line (more than the host's 1 MiB line limit)

A host must forfeit this bot with a clear message and go on; ``millebornes tournament --bots
heuristic --bots "cmd:python examples/garbage_bot.py"`` shows it.  Standard library only.
"""

import json
import sys
import time


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main(mode):
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError:
            continue
        kind = request.get("type") if isinstance(request, dict) else None
        if kind == "bye":
            return 0
        if kind == "hello":
            if mode == "nohello":
                send({"type": "action", "id": 0, "action": "draw"})
            else:
                send({"type": "hello", "protocol": "millebornes-bot/1", "name": "garbage-" + mode, "version": "0"})
            continue
        rid = request.get("id") if isinstance(request, dict) else None
        legal = request.get("legal_actions") or ["draw"]
        if mode == "json":
            sys.stdout.write("vroom vroom\n")
            sys.stdout.flush()
        elif mode == "id":
            send({"type": "action", "id": -1 if rid is None else rid + 1000, "action": legal[0]})
        elif mode == "error":
            send({"type": "error", "id": rid, "message": "I do not feel like playing"})
        elif mode == "exit":
            print("garbage bot: giving up on purpose", file=sys.stderr)
            return 3
        elif mode == "long":
            sys.stdout.write("x" * (2 << 20))
            sys.stdout.flush()
        elif mode == "silent":
            time.sleep(3600)
        else:
            send({"type": "action", "id": rid, "action": "fly"})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "illegal"))
