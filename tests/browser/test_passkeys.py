"""Passkeys (docs/web-api.md, "Passkeys") with a real authenticator: a real `millebornes serve` and Chromium, whose
virtual authenticator (the DevTools protocol's WebAuthn domain) makes and uses the keys as a phone or a laptop
would.  No page of the site is needed: the test's script asks the API for options, hands them to
``navigator.credentials`` and sends the answer back, as the account page does.

The server is reached as ``http://localhost``: a secure context without TLS, and a host name (an address cannot
be a relying party's ID).  The API's guards and bounds without a browser: tests/web/accounts/test_passkeys.py."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from tests.browsing import CHROMIUM, browser, pages, server  # noqa: E402,F401

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
    pytest.mark.server,
]

PASSWORD = "correct horse battery"

SCRIPT = """() => {
window.b64 = {
  bytes: s => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - s.length % 4) % 4)),
                              c => c.charCodeAt(0)).buffer,
  text: buf => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\\+/g, '-').replace(/\\//g, '_')
                .replace(/=+$/, ''),
};
window.api = async (method, path, body, csrf) => {
  const headers = {'Content-Type': 'application/json'};
  if (csrf) headers['X-CSRF-Token'] = csrf;
  const r = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  return {status: r.status, body: await r.json()};
};
window.create = async options => {
  const o = structuredClone(options);
  o.challenge = b64.bytes(o.challenge);
  o.user.id = b64.bytes(o.user.id);
  o.excludeCredentials = (o.excludeCredentials || []).map(c => ({...c, id: b64.bytes(c.id)}));
  const c = await navigator.credentials.create({publicKey: o});
  return {id: c.id, rawId: b64.text(c.rawId), type: c.type, authenticatorAttachment: c.authenticatorAttachment,
          clientExtensionResults: c.getClientExtensionResults(),
          response: {clientDataJSON: b64.text(c.response.clientDataJSON),
                     attestationObject: b64.text(c.response.attestationObject),
                     transports: c.response.getTransports()}};
};
window.get = async options => {
  const o = structuredClone(options);
  o.challenge = b64.bytes(o.challenge);
  o.allowCredentials = (o.allowCredentials || []).map(c => ({...c, id: b64.bytes(c.id)}));
  const c = await navigator.credentials.get({publicKey: o});
  const r = c.response;
  return {id: c.id, rawId: b64.text(c.rawId), type: c.type, authenticatorAttachment: c.authenticatorAttachment,
          clientExtensionResults: c.getClientExtensionResults(),
          response: {clientDataJSON: b64.text(r.clientDataJSON), authenticatorData: b64.text(r.authenticatorData),
                     signature: b64.text(r.signature), userHandle: r.userHandle && b64.text(r.userHandle)}};
};
}"""


class Browser:
    """One person's browser on the site, with a platform authenticator that verifies them without asking.  Each
    comes from an address of its own (``X-Forwarded-For``, which the server trusts from 127.0.0.1, as from a
    proxy there), so that the sign-up and sign-in throttles count each person apart."""

    people = 0

    def __init__(self, pages, base: str):
        self.page = page = pages.new()
        Browser.people += 1
        page.context.set_extra_http_headers({"X-Forwarded-For": f"192.0.2.{Browser.people}"})
        cdp = page.context.new_cdp_session(page)
        cdp.send("WebAuthn.enable")
        self.authenticator = cdp.send(
            "WebAuthn.addVirtualAuthenticator",
            {
                "options": {
                    "protocol": "ctap2",
                    "transport": "internal",
                    "hasResidentKey": True,
                    "hasUserVerification": True,
                    "isUserVerified": True,
                }
            },
        )["authenticatorId"]
        self.cdp = cdp
        page.goto(base + "/healthz")
        page.evaluate(SCRIPT)

    def api(self, method: str, path: str, body: object = None, csrf: bool = False) -> tuple[int, dict]:
        token = self.api("GET", "/api/account")[1].get("csrf") if csrf else None
        r = self.page.evaluate("([m, p, b, t]) => api(m, p, b ?? undefined, t)", [method, path, body, token])
        return r["status"], r["body"]

    def sign_up(self, username: str) -> None:
        assert self.api("POST", "/api/account/signup", {"username": username, "password": PASSWORD})[0] == 201

    def register(self, name: str = "Laptop") -> dict:
        status, body = self.api("POST", "/api/account/passkeys/options", {}, csrf=True)
        assert status == 200, body
        credential = self.page.evaluate("o => create(o)", body["options"])
        status, body = self.api("POST", "/api/account/passkeys", {"credential": credential, "name": name}, csrf=True)
        assert status == 201, body
        return body

    def assertion(self) -> tuple[str, dict]:
        """A fresh challenge's handle and the authenticator's answer to it."""
        status, body = self.api("POST", "/api/account/passkey/options", {})
        assert status == 200, body
        return body["challenge"], self.page.evaluate("o => get(o)", body["options"])

    def passkey_sign_in(self, challenge: str, credential: dict) -> tuple[int, dict]:
        return self.api("POST", "/api/account/passkey/signin", {"challenge": challenge, "credential": credential})

    def sign_out(self) -> None:
        assert self.api("POST", "/api/account/signout", {}, csrf=True)[0] == 200
        assert self.api("GET", "/api/account")[0] == 401

    def session(self) -> str | None:
        return next((c["value"] for c in self.page.context.cookies() if c["name"] == "mb_session"), None)


@pytest.fixture
def site(server):
    """The server as ``http://localhost:PORT``."""
    return server.replace("127.0.0.1", "localhost")


def test_a_passkey_registered_signs_in_alone_with_no_username(site, pages):
    ann = Browser(pages, site)
    ann.sign_up("ann_pk")
    made = ann.register("My laptop")
    assert made["name"] == "My laptop" and made["last_used"] is None
    listed = ann.api("GET", "/api/account")[1]["passkeys"]
    assert listed == [made] and set(made) == {"id", "name", "created", "last_used"}
    stored = ann.cdp.send("WebAuthn.getCredentials", {"authenticatorId": ann.authenticator})["credentials"]
    assert len(stored) == 1 and stored[0]["isResidentCredential"]  # discoverable: no username needed
    ann.sign_out()
    challenge, credential = ann.assertion()
    status, body = ann.passkey_sign_in(challenge, credential)
    assert status == 200 and body["username"] == "ann_pk" and body["csrf"], body
    me = ann.api("GET", "/api/account")[1]
    assert me["username"] == "ann_pk" and [p["id"] for p in me["passkeys"]] == [made["id"]]
    assert me["passkeys"][0]["last_used"] is not None
    export = ann.page.evaluate("async () => (await fetch('/api/account/export')).text()")
    assert made["id"] in export and credential["id"] not in export  # never the credential's id nor its key
    # a second passkey cannot be the same authenticator's key again: the options exclude it, the browser refuses
    status, body = ann.api("POST", "/api/account/passkeys/options", {}, csrf=True)
    assert [c["id"] for c in body["options"]["excludeCredentials"]] == [credential["id"]]
    with pytest.raises(Exception, match="InvalidStateError"):
        ann.page.evaluate("o => create(o)", body["options"])


def test_a_replayed_assertion_and_a_challenge_used_twice_are_refused(site, pages):
    bob = Browser(pages, site)
    bob.sign_up("bob_pk")
    bob.register()
    bob.sign_out()
    challenge, credential = bob.assertion()
    assert bob.passkey_sign_in(challenge, credential)[0] == 200
    signed_in, before = bob.session(), bob.api("GET", "/api/account")[1]["passkeys"]
    # the same answer again, with its own challenge (used up) or with a new one (not the one it signed)
    fresh, _ = bob.assertion()
    for handle in (challenge, fresh):
        status, body = bob.passkey_sign_in(handle, credential)
        assert (status, body["code"]) == (401, "wrong")
    # a second, genuine answer to a challenge already used
    status, body = bob.api("POST", "/api/account/passkey/options", {})
    options, handle = body["options"], body["challenge"]
    first, second = (bob.page.evaluate("o => get(o)", options) for _ in range(2))
    assert bob.passkey_sign_in(handle, first)[0] == 200
    signed_in = bob.session()
    assert bob.passkey_sign_in(handle, second)[0] == 401
    # a forged signature on a fresh challenge
    challenge, credential = bob.assertion()
    credential["response"]["signature"] = credential["response"]["signature"][:-4] + "AAAA"
    assert bob.passkey_sign_in(challenge, credential)[0] == 401
    assert bob.session() == signed_in  # no refused attempt opened a session
    after = bob.api("GET", "/api/account")[1]["passkeys"]
    assert after[0]["last_used"] >= before[0]["last_used"]


def test_a_deleted_passkey_no_longer_signs_in(site, pages):
    cid = Browser(pages, site)
    cid.sign_up("cid_pk")
    made = cid.register("Phone")
    path = f"/api/account/passkeys/{made['id']}"
    status, body = cid.api("DELETE", path, {})  # without the sign-in's CSRF token
    assert (status, body["code"]) == (403, "csrf")
    assert cid.api("DELETE", path, {}, csrf=True) == (200, {"deleted": made["id"]})
    assert cid.api("DELETE", path, {}, csrf=True)[1]["code"] == "no-passkey"
    assert cid.api("GET", "/api/account")[1]["passkeys"] == []
    cid.sign_out()
    challenge, credential = cid.assertion()  # the authenticator still holds it
    status, body = cid.passkey_sign_in(challenge, credential)
    assert (status, body["code"]) == (401, "wrong")


def test_deleting_the_account_deletes_its_passkeys(site, pages):
    dee = Browser(pages, site)
    dee.sign_up("dee_pk")
    dee.register()
    status, _ = dee.api("DELETE", "/api/account", {"password": PASSWORD}, csrf=True)
    assert status == 200
    challenge, credential = dee.assertion()
    assert dee.passkey_sign_in(challenge, credential)[0] == 401
    dee.sign_up("dee_pk")  # the same name, a new account: the old passkey is not its
    assert dee.api("GET", "/api/account")[1]["passkeys"] == []
    challenge, credential = dee.assertion()
    assert dee.passkey_sign_in(challenge, credential)[0] == 401


def test_nobody_registers_a_passkey_without_a_sign_in(site, pages):
    eve = Browser(pages, site)
    status, body = eve.api("POST", "/api/account/passkeys/options", {})
    assert (status, body["code"]) == (401, "signed-out")
    eve.sign_up("eve_pk")
    status, body = eve.api("POST", "/api/account/passkeys/options", {})  # signed in, without the CSRF token
    assert (status, body["code"]) == (403, "csrf")
    status, body = eve.api("POST", "/api/account/passkeys/options", {}, csrf=True)
    credential = eve.page.evaluate("o => create(o)", body["options"])
    eve.sign_out()
    status, body = eve.api("POST", "/api/account/passkeys", {"credential": credential, "name": "Stolen"})
    assert (status, body["code"]) == (401, "signed-out")


def test_a_copy_of_a_passkey_whose_counter_went_back_is_refused(site, pages):
    fay = Browser(pages, site)
    fay.sign_up("fay_pk")
    fay.register()
    for _ in range(2):
        assert fay.passkey_sign_in(*fay.assertion())[0] == 200
    (key,) = fay.cdp.send("WebAuthn.getCredentials", {"authenticatorId": fay.authenticator})["credentials"]
    assert key["signCount"] >= 2  # the authenticator counts its signatures
    copy = Browser(pages, site)
    copy.cdp.send(
        "WebAuthn.addCredential",
        {"authenticatorId": copy.authenticator, "credential": {**key, "signCount": 0}},
    )
    status, body = copy.passkey_sign_in(*copy.assertion())
    assert (status, body["code"]) == (401, "wrong") and copy.session() is None
    assert fay.passkey_sign_in(*fay.assertion())[0] == 200  # the original still signs in
