"""Bots online (not :mod:`millebornes.bots`, the engine's bots): bot accounts and their tokens, a bot's sessions
and challenges, and the WebSocket that speaks the bot protocol.

:mod:`.routes` and :mod:`.repo` (bot accounts, tokens); :mod:`.gateway` (a bot's sessions, its challenges, seeks
and decisions); :mod:`.socket` (the ``/ws/bot`` route); :mod:`.codes` (its errors' codes); :mod:`.accepts` (what
tables a bot takes).
"""
