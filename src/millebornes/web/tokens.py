"""The secrets a link or a sign-in carries: drawn here, kept only as hashes, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_opens(token_hash: str | None, token: str) -> bool:
    """Whether ``token`` is the one whose hash was stored; in constant time, so timing tells nothing."""
    return token_hash is not None and hmac.compare_digest(hash_token(token), token_hash)


def new_token() -> str:
    return secrets.token_urlsafe(24)
