"""The JSON API's refusals as HTTP answers, one shape for every domain: a 422 names the field, a 429 says when to try
again."""

from __future__ import annotations

from fastapi.responses import JSONResponse

from .tables.creation import brief, shown


def unprocessable(field: str, message: str, code: str | None = None) -> JSONResponse:
    """The API's 422: a message that names the field, and the field on its own for a page to mark (with a ``code``
    when the field alone does not say why)."""
    field = shown(field)
    body = {"detail": brief(f"{field}: {message}"), "field": field} | ({"code": code} if code else {})
    return JSONResponse(body, status_code=422)


def rate_limited(wait: int, per_minute: int, what: str) -> JSONResponse:
    return JSONResponse(
        {"detail": f"at most {per_minute} {what} a minute from one address; try again in {wait} s"},
        status_code=429,
        headers={"Retry-After": str(wait)},
    )
