"""How many tables one client address may create, or seats it may claim from the lobby: a moving
window of a minute per address, one throttle per kind of request.

The `limits` package keeps the windows in this process's memory; an address's entries leave it a
minute after its last request, so the memory is bounded by the addresses of the last minute.  A
restart forgets them, which only lets a little more through.
"""

from __future__ import annotations

import math
import time

from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter


class CreationThrottle:
    """``take(address)`` counts one request (a creation, a claim), or says how long the address must wait."""

    def __init__(self, per_minute: int, what: str = "tables"):
        self.per_minute = per_minute
        self.what = what
        self.item = RateLimitItemPerMinute(per_minute)
        self.window = MovingWindowRateLimiter(MemoryStorage())

    def take(self, address: str) -> int | None:
        """None when ``address`` may make the request now (and it is counted); else whole seconds to wait."""
        if self.window.hit(self.item, self.what, address):
            return None
        reset = self.window.get_window_stats(self.item, self.what, address).reset_time
        return max(1, math.ceil(reset - time.time()))


class SignInThrottles:
    """The passkey sign-in options an address asks for (web/accounts/passkey_routes.py): a flood guard only, since a
    passkey is not guessed.  Wrong passwords are counted in the database instead (web/accounts/guard.py), and so
    are sign-ups (``accounts.signup_address``)."""

    def __init__(self, signins: int):
        self.by_address = CreationThrottle(signins, "signins")
