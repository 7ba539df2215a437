"""Which passwords an account may take (NIST SP 800-63B, 5.1.1): long enough, as long as a passphrase needs, and not
one that guessers try first.

No rule on kinds of characters.  The password is normalized (NFKC, as the standard asks, so that the same
passphrase typed on two keyboards is one) before it is checked and hashed.  The guessability check is the zxcvbn
estimator's (its lists of common passwords, names and words, and its patterns: repeats, sequences, keyboard rows,
dates), fed the username and the game's own words; it reads the first ``ESTIMATED`` characters, where a longer
passphrase has long been strong enough if it ever will be.  A refusal names one ``reason`` the page words from the
catalog (``account.weak.<reason>``): ``short``, ``name`` (the username, or close to it), ``common`` (a common
password or word) or ``pattern``.
"""

from __future__ import annotations

import unicodedata

from zxcvbn import zxcvbn

PASSWORD_MIN = 8
"""Characters, after normalization."""
PASSWORD_MAX = 256
"""Characters: room for a passphrase of many words; argon2 takes any length at one cost."""
ESTIMATED = 64
SCORE_MIN = 3
"""zxcvbn's score out of 4: 3 is "safely unguessable", about 10^8 guesses or more."""
GAME_WORDS = ("millebornes", "mille bornes", "mille", "bornes", "coup fourre", "coup fourré")


def normalized(password: str) -> str:
    return unicodedata.normalize("NFKC", password)


def weakness(password: str, username: str) -> str | None:
    """None when ``password`` (normalized) may be an account's, else the reason it may not."""
    if len(password) < PASSWORD_MIN or not password.strip():
        return "short"
    if password.casefold() == username.casefold():
        return "name"
    found = zxcvbn(password[:ESTIMATED], user_inputs=[username, *GAME_WORDS])
    if found["score"] >= SCORE_MIN:
        return None
    patterns = [m for m in found["sequence"] if len(m["token"]) * 2 >= len(password[:ESTIMATED])]
    for m in patterns or found["sequence"]:
        if m.get("dictionary_name") == "user_inputs":
            return "name"
    for m in patterns or found["sequence"]:
        if m["pattern"] == "dictionary":
            return "common"
    return "pattern"
