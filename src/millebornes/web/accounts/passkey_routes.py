"""Passkeys (WebAuthn), a second way into an account (docs/web-api.md, "Passkeys"): a signed-in person registers up to
``PASSKEYS_MAX`` of them, and anyone signs in with one alone, no username asked: the passkey is discoverable
(``residentKey: required``) and holds the account's id as its user handle.

The relying party is the request's own site: its ID the request's host name, the origin the browser must report
its scheme and host (behind a proxy, one that keeps ``Host`` and says ``X-Forwarded-Proto``, docs/web-api.md).  A
passkey made for one host name signs in on that host name only; a browser offers WebAuthn on HTTPS pages and on
``http://localhost`` only.  Every challenge is used once and lives ``CHALLENGE_LIFETIME``; the changes are guarded as
every change to an account (web/accounts/signin.py), and a passkey sign-in opens the same session as a password's.
"""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, generate_challenge
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from .. import metrics
from ..apidoc import CHANGE, GUEST_CHANGE, ok, refusals
from ..deps import AccountsDep, SettingsDep, SignInGuardDep, SignInThrottlesDep
from ..tables.facts import iso
from .passkey_repo import Known, Passkey, Passkeys, TooMany
from .session import Empty, Links, Welcome, address, answer, claim_seats, session_of, throttled, welcome
from .signin import cross_site, refusal

PASSKEYS_MAX = 10
"""Passkeys one account may hold: a phone, a laptop, a security key or two, with room to spare."""
CHALLENGE_LIFETIME = timedelta(minutes=5)
TIMEOUT_MS = 180_000
"""What the options tell the browser to wait for the person: less than a challenge lives."""
RP_NAME = "Mille Bornes"
"""What the browser and the authenticator call the site."""
NAME_MAX = 64
CREDENTIAL_ID_MAX = 1366
"""A credential id is at most 1023 bytes (WebAuthn Level 3): 1364 characters of base64url."""
MALFORMED = (WebAuthnException, ValueError, TypeError, KeyError, IndexError)
"""What the library raises on an answer it cannot read (a bad base64url, CBOR or key reach it as these too)."""

router = APIRouter()  # tagged "accounts" by the accounts router that includes it


def passkey_entry(p: Passkey) -> dict:
    """What the account is shown of a passkey: never its key nor its credential id."""
    return {"id": p.id, "name": p.name, "created": iso(p.created), "last_used": iso(p.last_used)}


B64 = r"^[A-Za-z0-9_-]*$"
"""Unpadded base64url, as the browser's ``toJSON()`` writes every binary field."""

CredentialId = Annotated[str, StringConstraints(strict=True, min_length=1, max_length=CREDENTIAL_ID_MAX, pattern=B64)]
ClientData = Annotated[str, StringConstraints(strict=True, min_length=1, max_length=4096, pattern=B64)]
Key = Annotated[str, StringConstraints(strict=True, min_length=1, max_length=4096, pattern=B64)]
AuthenticatorData = Annotated[str, StringConstraints(strict=True, min_length=37, max_length=16384, pattern=B64)]
"""At least its 37 fixed bytes (RP ID hash, flags, counter); more with a new key or extensions."""
Signature = Annotated[str, StringConstraints(strict=True, min_length=1, max_length=2048, pattern=B64)]
UserHandle = Annotated[str, StringConstraints(strict=True, max_length=128, pattern=B64)]
Transport = Annotated[str, StringConstraints(strict=True, max_length=16)]
Attachment = Literal["platform", "cross-platform"]
Extensions = Annotated[dict[str, Any], Field(max_length=16)]
"""The client's extension results: nothing this server asks for, passed over."""


class Attestation(BaseModel):
    """``response`` of a registration, as ``PublicKeyCredential.toJSON()`` writes it."""

    model_config = ConfigDict(extra="forbid")
    clientDataJSON: ClientData
    attestationObject: Annotated[str, StringConstraints(strict=True, min_length=1, max_length=16384, pattern=B64)]
    transports: Annotated[list[Transport], Field(max_length=8)] = []
    publicKeyAlgorithm: Annotated[int, Field(strict=True)] | None = None
    publicKey: Key | None = None
    authenticatorData: AuthenticatorData | None = None


class Registration(BaseModel):
    """The browser's answer to ``navigator.credentials.create()``."""

    model_config = ConfigDict(extra="forbid")
    id: CredentialId
    rawId: CredentialId
    type: Literal["public-key"]
    response: Attestation
    authenticatorAttachment: Attachment | None = None
    clientExtensionResults: Extensions = {}


class Assertion(BaseModel):
    """``response`` of a sign-in, as ``PublicKeyCredential.toJSON()`` writes it."""

    model_config = ConfigDict(extra="forbid")
    clientDataJSON: ClientData
    authenticatorData: AuthenticatorData
    signature: Signature
    userHandle: UserHandle | None = None


class Authentication(BaseModel):
    """The browser's answer to ``navigator.credentials.get()``."""

    model_config = ConfigDict(extra="forbid")
    id: CredentialId
    rawId: CredentialId
    type: Literal["public-key"]
    response: Assertion
    authenticatorAttachment: Attachment | None = None
    clientExtensionResults: Extensions = {}


Name = Annotated[
    str,
    StringConstraints(
        strict=True, strip_whitespace=True, min_length=1, max_length=NAME_MAX, pattern=r"^[^\x00-\x1f\x7f]+$"
    ),
]
"""What the person calls the passkey ("Phone", "Work laptop"): one line of text."""


class Register(BaseModel):
    model_config = ConfigDict(extra="forbid")
    credential: Registration
    name: Name = "Passkey"


class Rename(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Name


class PasskeySignIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    challenge: Annotated[str, StringConstraints(strict=True, min_length=1, max_length=64)]
    """The handle ``POST /api/account/passkey/options`` gave with the options."""
    credential: Authentication
    seats: Links = Field(default_factory=list)
    """The guest tables of this browser, claimed into the account as a password sign-in claims them."""


PasskeyId = Annotated[str, StringConstraints(strict=True, min_length=1, max_length=16)]


def get_passkeys(accounts: AccountsDep) -> Passkeys:
    return Passkeys(accounts.db)


PasskeysDep = Annotated[Passkeys, Depends(get_passkeys)]


def _refused(status: int, code: str, detail: str) -> JSONResponse:
    """A refusal (web/accounts/signin.py's) that no cache keeps, as every answer about a sign-in."""
    response = refusal(status, code, detail)
    response.headers["Cache-Control"] = "no-store"
    return response


def _party(request: Request) -> tuple[str, str]:
    """(the RP ID, the expected origin): the host name this request came to, and its scheme and host."""
    return request.url.hostname or "", f"{request.url.scheme}://{request.url.netloc}"


def _options(options: Any) -> dict:
    return json.loads(options_to_json(options))


def _bytes(text: str) -> bytes | None:
    try:
        return base64url_to_bytes(text)
    except ValueError:
        return None


def _transports(names: list[str]) -> list[str]:
    known = {t.value for t in AuthenticatorTransport}
    return [t for t in dict.fromkeys(names) if t in known]


@router.post(
    "/api/account/passkeys/options",
    responses=ok("The options for `navigator.credentials.create()`.")
    | refusals(*CHANGE, 409, r409="The account holds as many passkeys as it may (`too-many`)."),
)
async def registration_options(
    body: Empty, request: Request, accounts: AccountsDep, passkeys: PasskeysDep, settings: SettingsDep
):
    """The options for ``navigator.credentials.create()``; the challenge in them is the account's only one."""
    session = await session_of(request, accounts, settings, change=True)
    if isinstance(session, JSONResponse):
        return session
    account = session.account
    held = await asyncio.to_thread(passkeys.descriptors, account.id)
    if len(held) >= PASSKEYS_MAX:
        return _refused(409, "too-many", f"an account holds at most {PASSKEYS_MAX} passkeys: delete one first")
    rp_id, _ = _party(request)
    challenge = generate_challenge()
    options = generate_registration_options(
        rp_id=rp_id,
        rp_name=RP_NAME,
        user_name=account.username,
        user_id=account.id.encode(),
        challenge=challenge,
        timeout=TIMEOUT_MS,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(
                id=base64url_to_bytes(credential_id), transports=[AuthenticatorTransport(t) for t in transports]
            )
            for credential_id, transports in held
        ],
    )
    await asyncio.to_thread(passkeys.challenge, challenge, CHALLENGE_LIFETIME, account.id)
    return answer({"options": _options(options)})


@router.post(
    "/api/account/passkeys",
    status_code=201,
    responses=ok("The passkey kept: its id, name and dates (never its key).", status=201)
    | refusals(
        *CHANGE, 400, 409, r409="No registration under way (`expired`), too many (`too-many`) or known (`known`)."
    ),
)
async def register(
    body: Register, request: Request, accounts: AccountsDep, passkeys: PasskeysDep, settings: SettingsDep
):
    """Check the browser's answer against the account's challenge (used up either way) and keep the passkey."""
    session = await session_of(request, accounts, settings, change=True)
    if isinstance(session, JSONResponse):
        return session
    challenge = await asyncio.to_thread(passkeys.take_challenge, None, session.account.id)
    if challenge is None:
        return _refused(409, "expired", "no registration under way: ask POST /api/account/passkeys/options again")
    rp_id, origin = _party(request)
    try:
        verified = verify_registration_response(
            credential=body.credential.model_dump(exclude_none=True),
            expected_challenge=challenge,
            expected_rp_id=rp_id,
            expected_origin=origin,
        )
    except MALFORMED as exc:
        return _refused(400, "invalid", f"the passkey was not made for this challenge and site: {exc}")
    try:
        passkey = await asyncio.to_thread(
            passkeys.add,
            session.account.id,
            body.credential.id,
            verified.credential_public_key,
            verified.sign_count,
            _transports(body.credential.response.transports),
            body.name,
            PASSKEYS_MAX,
        )
    except TooMany:
        return _refused(409, "too-many", f"an account holds at most {PASSKEYS_MAX} passkeys: delete one first")
    except Known:
        return _refused(409, "known", "that passkey is registered already")
    return answer(passkey_entry(passkey), 201)


@router.patch(
    "/api/account/passkeys/{passkey_id}",
    responses=ok("The passkey, renamed.")
    | refusals(*CHANGE, 404, r404="The account has no passkey of that id (`no-passkey`)."),
)
async def rename(
    passkey_id: PasskeyId,
    body: Rename,
    request: Request,
    accounts: AccountsDep,
    passkeys: PasskeysDep,
    settings: SettingsDep,
):
    """Name one of the account's passkeys anew (the person tells their phone from their laptop by it)."""
    session = await session_of(request, accounts, settings, change=True)
    if isinstance(session, JSONResponse):
        return session
    passkey = await asyncio.to_thread(passkeys.rename, session.account.id, passkey_id, body.name)
    if passkey is None:
        return _refused(404, "no-passkey", "the account has no passkey of that id")
    return answer(passkey_entry(passkey))


@router.delete(
    "/api/account/passkeys/{passkey_id}",
    responses=ok("The passkey's id, deleted.")
    | refusals(*CHANGE, 404, r404="The account has no passkey of that id (`no-passkey`)."),
)
async def remove(
    passkey_id: PasskeyId,
    body: Empty,
    request: Request,
    accounts: AccountsDep,
    passkeys: PasskeysDep,
    settings: SettingsDep,
):
    """Delete one of the account's passkeys: it signs nobody in any more (the authenticator still holds it)."""
    session = await session_of(request, accounts, settings, change=True)
    if isinstance(session, JSONResponse):
        return session
    if not await asyncio.to_thread(passkeys.remove, session.account.id, passkey_id):
        return _refused(404, "no-passkey", "the account has no passkey of that id")
    return answer({"deleted": passkey_id})


@router.post(
    "/api/account/passkey/options",
    responses=ok("The options for `navigator.credentials.get()` and their challenge's handle.")
    | refusals(*GUEST_CHANGE, 429),
)
async def sign_in_options(body: Empty, request: Request, passkeys: PasskeysDep, throttles: SignInThrottlesDep):
    """The options for ``navigator.credentials.get()``, with no credentials listed (the browser offers the site's
    passkeys), and the handle of their challenge; counted against the address's sign-ins."""
    if (refused := cross_site(request)) is not None:
        return refused
    wait = throttles.by_address.take(address(request))
    if wait is not None:
        return throttled(wait, throttles.by_address.per_minute, "sign-ins from one address")
    rp_id, _ = _party(request)
    challenge = generate_challenge()
    options = generate_authentication_options(
        rp_id=rp_id,
        challenge=challenge,
        timeout=TIMEOUT_MS,
        user_verification=UserVerificationRequirement.PREFERRED,
    )
    handle = await asyncio.to_thread(passkeys.challenge, challenge, CHALLENGE_LIFETIME)
    return answer({"options": _options(options), "challenge": handle})


@router.post(
    "/api/account/passkey/signin",
    responses=ok("Signed in: the username, the CSRF token, the seats claimed; the sign-in's cookie.", Welcome)
    | refusals(*GUEST_CHANGE, 401, 429, r401="That passkey does not sign in here (`wrong`)."),
)
async def sign_in(
    body: PasskeySignIn,
    request: Request,
    accounts: AccountsDep,
    passkeys: PasskeysDep,
    settings: SettingsDep,
    guard: SignInGuardDep,
):
    """Sign in with a passkey: its challenge used up whatever the outcome, its signature checked with the kept
    public key, its counter moved on; any failure is the same 401 ``wrong`` and changes nothing else."""
    if (refused := cross_site(request)) is not None:
        return refused
    wrong = _refused(401, "wrong", "that passkey does not sign in here: ask for new options and try again")
    challenge = await asyncio.to_thread(passkeys.take_challenge, body.challenge)
    if challenge is None:
        return wrong
    credential = body.credential
    stored = await asyncio.to_thread(passkeys.find, credential.id)
    if stored is None:
        return wrong
    handle = credential.response.userHandle
    if handle is not None and _bytes(handle) != stored.account.id.encode():
        return wrong
    rp_id, origin = _party(request)
    try:
        verified = verify_authentication_response(
            credential=credential.model_dump(exclude_none=True),
            expected_challenge=challenge,
            expected_rp_id=rp_id,
            expected_origin=origin,
            credential_public_key=stored.public_key,
            credential_current_sign_count=stored.sign_count,
        )
    except MALFORMED:
        return wrong
    if not await asyncio.to_thread(passkeys.used, stored.id, stored.sign_count, verified.new_sign_count):
        return wrong
    account = stored.account
    if account.disabled is not None:
        metrics.signed_in("disabled")
        return _refused(403, "disabled", "this account is disabled: the server's operator can say why")
    metrics.signed_in("passkey")
    held = await claim_seats(accounts, account.id, body.seats)
    return await welcome(request, accounts, settings, guard, account.id, account.username, held, 200)
