"""The ``code`` of every ``error`` the server sends a bot on ``/ws/bot`` (docs/web-api.md, "Bots online", which
tables them): a stable kebab-case name a program can branch on, where the ``message`` beside it is for people.  A
code is never renamed or given another meaning; a new rule gets a new code."""

from __future__ import annotations

CODES: dict[str, str] = {
    # the connection (each closes it, with the WebSocket close code in brackets)
    "no-token": "no bearer token in the Authorization header (4401)",
    "bad-token": "the token opens no bot: wrong, revoked or renewed (4401)",
    "token-gone": "the bot's token was revoked or renewed, or the bot deleted, while it was connected (4401)",
    "disabled": "the server's operator disabled the bot's account or its owner's (4403)",
    "replaced": "a newer connection of the same bot replaced this one (4409)",
    "no-hello": "the first message is not a hello of the protocol (4400)",
    "hello-late": "no hello within the 10 s the server waits for it (4400)",
    "bad-hello": "the hello's accepts is not valid (4400)",
    "unread": "more than 1000 messages wait for the bot to read them (1008)",
    "server-error": "the server failed (1011)",
    # a message refused (nothing changes)
    "binary": "a binary WebSocket message: messages are JSON text",
    "too-big": "a message longer than 16 KiB",
    "bad-json": "a message that is not valid JSON",
    "not-object": "a JSON message that is not an object",
    "unknown-type": "a message whose type the server does not know",
    "hello-again": "a hello after the first",
    "bad-id": "a message without the integer id it needs",
    "unknown-challenge": "accept or decline of no open challenge",
    # answers to a decide
    "stale": "an answer to a decide that is no longer open (answered, played by the stand-in, or the table moved on)",
    "illegal-action": "an action that is not one of the decide's legal_actions (a wrong answer)",
    "bot-error": "the bot's own error reply to a decide (a wrong answer)",
    "stand-in-plays": "the decide's third wrong answer: the table's stand-in plays that decision",
    # the bot's challenge and seek
    "bad-challenge": "a challenge or seek with a field wrong, missing or unknown, or refused by the table's creation",
    "self-challenge": "a bot challenging itself",
    "tables-full": "the bot plays 8 tables already (challenges and its seek included)",
    "challenge-rate": "the bot challenged or was challenged 20 times in the last minute",
    "table-rate": "too many new tables from the bot's address this minute",
    "same-owner": "a rated challenge between two bots of one owner",
    "rated-same-address": "a rated challenge between accounts made from one address lately",
    "rated-pair-limit": "a rated challenge between players rated against each other too often today",
    "bot-offline": "the opponent is connected to no server process",
    "bot-busy": "the opponent plays 8 tables already",
    "bot-challenged": "the opponent was challenged 20 times in the last minute",
    "bot-refuses": "the opponent's accepts (its hello) leaves out this edition, number of players, or rated or casual",
    "not-seated": "the bot could not sit down at the table it made",
    "seek-open": "the bot has an open seek already (1 at a time)",
    "unknown-seek": "unseek of a table that is not the bot's open seek",
    "no-seat": "join of a table with no free seat for the bot (not a seek open now, or full)",
}
"""Each code, and when the server sends it."""


def known(code: str) -> str:
    """The code itself, once checked: a typo in the server's own code fails its tests, not a bot."""
    if code not in CODES:
        raise KeyError(f"no error code {code!r} in web/botaccounts/codes.py")
    return code
