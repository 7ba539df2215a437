// @ts-check
// The account page's passkeys (web/accounts/passkey_routes.py; docs/web-api.md, "Passkeys"). Signed in: the
// account's passkeys listed, one added under a name (this browser and system unless the person writes another),
// renamed, or removed once confirmed. Signed out: "Sign in with a passkey" beside the password's form, bringing this
// browser's tables as a password's sign-in does. Only a browser that offers WebAuthn (window.PublicKeyCredential:
// HTTPS pages and http://localhost, by a name) is offered to make or use one. The page (js/account.js) owns the sign-in: it
// gives this module what it needs through setupPasskeys().

import { t, tn, formatDate, formatNumber } from "../lib/words.js";
import { $, el, Name, $as } from "../lib/dom.js";
import { sendJSON } from "../lib/http.js";
import { seatLinks } from "../mytables.js";

// The server's own bounds (PASSKEYS_MAX, NAME_MAX), checked here first so that a slip costs no request.
const MOST = 10;
const NAME = /^[^\u0000-\u001f\u007f]{1,64}$/;

// What a refusal's code says (docs/web-api.md, "Passkeys").
const CODES = {
  "too-many": "passkey.error.too_many",
  expired: "passkey.error.expired",
  invalid: "passkey.error.invalid",
  known: "passkey.error.known",
  "no-passkey": "passkey.error.gone",
  wrong: "passkey.error.wrong",
  csrf: "account.error.csrf",
  "cross-site": "account.error.cross_site",
  "signed-out": "account.error.signed_out",
  disabled: "account.error.disabled",
};

// Where each error is shown; its message is kept as [key, params] so that a new language says it again.
const SLOTS = {
  add: "#passkey-add-error", list: "#passkey-list-error", signin: "#passkey-signin-error",
  rename: "#passkey-rename-error", remove: "#passkey-remove-error",
};

// host: what account.js lends (me, signedIn, signedOut, say); edited: the person wrote the new passkey's name
// (else it follows the language); renaming, removing: the passkey a dialog is about
const P = { host: null, errors: {}, edited: false, renaming: null, removing: null };

// WebAuthn where the browser offers it (a secure context) and the page was opened by a name: an address (127.0.0.1,
// [::1]) cannot be a relying party's ID, and every request there would fail.
export function supported() {
  const address = /^[\d.]+$|:/.test(location.hostname);
  return !address && typeof window.PublicKeyCredential === "function"
    && typeof navigator.credentials?.create === "function";
}

// ------------------------------------------------------------------ WebAuthn's binary fields as base64url
function bytes(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function b64url(buffer) {
  let raw = "";
  for (const b of new Uint8Array(buffer)) raw += String.fromCharCode(b);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const descriptors = (list) => (Array.isArray(list) ? list : []).map((c) => ({ ...c, id: bytes(c.id) }));

/** @returns {PublicKeyCredentialCreationOptions} */
function creationOptions(o) {
  return { ...o, challenge: bytes(o.challenge), user: { ...o.user, id: bytes(o.user.id) },
    excludeCredentials: descriptors(o.excludeCredentials) };
}

/** @returns {PublicKeyCredentialRequestOptions} */
function requestOptions(o) {
  return { ...o, challenge: bytes(o.challenge), allowCredentials: descriptors(o.allowCredentials) };
}

// The browser's answer as the server reads it (PublicKeyCredential.toJSON(), which not every browser has yet).
/** @param {PublicKeyCredential} c */
function credentialJSON(c) {
  const r = c.response;
  const response = r instanceof AuthenticatorAttestationResponse
    ? { clientDataJSON: b64url(r.clientDataJSON), attestationObject: b64url(r.attestationObject),
        transports: typeof r.getTransports === "function" ? r.getTransports().slice(0, 8) : [] }
    : { clientDataJSON: b64url(r.clientDataJSON),
        authenticatorData: b64url(/** @type {AuthenticatorAssertionResponse} */ (r).authenticatorData),
        signature: b64url(/** @type {AuthenticatorAssertionResponse} */ (r).signature),
        userHandle: /** @type {AuthenticatorAssertionResponse} */ (r).userHandle
          ? b64url(/** @type {AuthenticatorAssertionResponse} */ (r).userHandle) : null };
  return { id: c.id, rawId: b64url(c.rawId), type: c.type, response,
    authenticatorAttachment: c.authenticatorAttachment || null, clientExtensionResults: {} };
}

// ------------------------------------------------------------------ words
// What a refused request says, as [key, params].
function refusal(r) {
  if (!r) return ["account.error.network"];
  const code = typeof r.data?.code === "string" ? r.data.code : "";
  if (r.status === 429) return ["account.error.rate", { s: Number(r.headers.get("Retry-After")) || 60 }];
  if (code === "too-many") return [CODES[code], { n: MOST }];
  if (CODES[code]) return [CODES[code]];
  if (r.data?.field === "name") return ["passkey.error.name"];
  return ["account.error.refused"];
}

// What the browser's refusal says: the person cancelled or waited too long, the key is this device's already...
function browserRefusal(x, making) {
  const name = x && typeof x === "object" && "name" in x ? x.name : "";
  if (name === "NotAllowedError" || name === "AbortError") {
    return [making ? "passkey.error.cancelled_add" : "passkey.error.cancelled_signin"];
  }
  if (name === "InvalidStateError") return ["passkey.error.known"];
  if (name === "NotSupportedError") return ["passkey.error.unsupported"];
  if (name === "SecurityError") return ["passkey.error.insecure"];
  return ["passkey.error.failed"];
}

function messageText([key, params = {}]) {
  return t(key, "s" in params ? { ...params, s: formatNumber(params.s) } : params);
}

function showError(slot, message, field = null) {
  P.errors[slot] = message;
  $(SLOTS[slot]).textContent = messageText(message);
  if (!field) return;
  field.setAttribute("aria-invalid", "true");
  field.focus();
}

function clearError(slot, field = null) {
  delete P.errors[slot];
  $(SLOTS[slot]).textContent = "";
  field?.removeAttribute("aria-invalid");
}

function busy(button, on) {
  button.disabled = on;
  button.setAttribute("aria-busy", on ? "true" : "false");
}

// Browsers and systems as a user agent names them, most specific first (Edge's names Chrome and Safari too).
/** @type {[RegExp, string][]} */
const BROWSERS = [
  [/Edg(?:e|A|iOS)?\//, "Edge"], [/OPR\/|Opera/, "Opera"], [/SamsungBrowser\//, "Samsung Internet"],
  [/Firefox\/|FxiOS\//, "Firefox"], [/Chrom(?:e|ium)\/|CriOS\//, "Chrome"], [/Safari\//, "Safari"],
];
/** @type {[RegExp, string][]} */
const SYSTEMS = [
  [/Android/, "Android"], [/iPhone|iPad|iPod/, "iOS"], [/CrOS/, "ChromeOS"], [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"], [/Linux/, "Linux"],
];

// A name for the new passkey that tells this device from the others: its browser and its system.
export function defaultName(ua = navigator.userAgent) {
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  if (browser && system) return t("passkey.default_name", { browser, system });
  return browser || system || t("passkey.default_plain");
}

// ------------------------------------------------------------------ the list
function passkeys() {
  const me = P.host.me();
  return Array.isArray(me?.passkeys) ? me.passkeys : [];
}

function setPasskeys(list) {
  const me = P.host.me();
  if (me) me.passkeys = list;
}

function item(p) {
  const name = new Name(p.name);
  const rename = el("button", { type: "button", "aria-haspopup": "dialog", dataset: { rename: p.id },
    "aria-label": t("passkey.rename_for", { name: p.name }), onclick: () => openRename(p.id) }, t("passkey.rename"));
  const remove = el("button", { type: "button", class: "danger", "aria-haspopup": "dialog", dataset: { remove: p.id },
    "aria-label": t("passkey.remove_for", { name: p.name }), onclick: () => openRemove(p.id) }, t("passkey.remove"));
  const dates = p.last_used
    ? t("passkey.dates", { added: formatDate(p.created), used: formatDate(p.last_used) })
    : t("passkey.dates_unused", { added: formatDate(p.created) });
  return el("li", { class: "passkey-item", dataset: { passkey: p.id } },
    el("h3", {}, name),
    el("p", { class: "muted" }, dates),
    el("div", { class: "account-actions" }, rename, remove));
}

// The section as the account and the language are now; called by the page's own draw().
export function drawPasskeys() {
  const ok = supported();
  $("#passkey-signin").hidden = !ok;
  const list = passkeys();
  $("#passkey-list").replaceChildren(...list.map(item));
  $("#passkey-list").hidden = list.length === 0;
  $("#passkey-none").hidden = list.length > 0;
  $("#passkey-add-form").hidden = !ok;
  $("#passkey-unsupported").hidden = ok;
  const input = $as("#passkey-name", HTMLInputElement);
  if (!P.edited) input.value = defaultName();
  for (const [slot, sel] of Object.entries(SLOTS)) $(sel).textContent = P.errors[slot] ? messageText(P.errors[slot]) : "";
  if (P.renaming) $("#passkey-rename-title").replaceChildren(...tn("passkey.rename_for", { name: new Name(P.renaming.name) }));
  if (P.removing) $("#passkey-remove-title").replaceChildren(...tn("passkey.remove_title", { name: new Name(P.removing.name) }));
}

// A change refused because the sign-in is gone: the page shows its forms again.
function refused(slot, r, field = null) {
  if (r?.data?.code === "signed-out") {
    closeDialogs();
    P.errors = {};
    P.host.signedOut();
    return;
  }
  showError(slot, refusal(r), field);
}

const csrf = () => ({ "X-CSRF-Token": P.host.me()?.csrf || "" });

// ------------------------------------------------------------------ adding one
async function add(e) {
  e.preventDefault();
  const input = $as("#passkey-name", HTMLInputElement);
  clearError("list");
  clearError("add", input);
  const name = input.value.trim();
  if (!NAME.test(name)) return showError("add", ["passkey.error.name"], input);
  if (passkeys().length >= MOST) return showError("add", ["passkey.error.too_many", { n: MOST }]);
  const button = $("#passkey-add");
  busy(button, true);
  try {
    const asked = await sendJSON("POST", "/api/account/passkeys/options", {}, csrf());
    if (!asked || !asked.ok) return refused("add", asked);
    let made;
    try {
      made = /** @type {PublicKeyCredential} */ (
        await navigator.credentials.create({ publicKey: creationOptions(asked.data.options) }));
    } catch (x) {
      return showError("add", browserRefusal(x, true));
    }
    const r = await sendJSON("POST", "/api/account/passkeys", { credential: credentialJSON(made), name }, csrf());
    if (!r || !r.ok) return refused("add", r, r?.data?.field === "name" ? input : null);
    setPasskeys([...passkeys(), r.data]);
    P.edited = false;
    P.host.say(["passkey.added", { name: r.data.name }]);
    drawPasskeys();
    $("#passkeys-title").focus();
  } finally {
    busy(button, false);
  }
}

// ------------------------------------------------------------------ renaming and removing, each in a modal dialog
function find(id) {
  return passkeys().find((p) => p.id === id) || null;
}

function openRename(id) {
  clearError("list");
  P.renaming = find(id);
  if (!P.renaming) return;
  const input = $as("#passkey-rename-name", HTMLInputElement);
  clearError("rename", input);
  input.value = P.renaming.name;
  drawPasskeys();
  $as("#passkey-rename-dialog", HTMLDialogElement).showModal();
  input.select();
}

async function rename(e) {
  e.preventDefault();
  const input = $as("#passkey-rename-name", HTMLInputElement);
  clearError("rename", input);
  const name = input.value.trim();
  if (!NAME.test(name)) return showError("rename", ["passkey.error.name"], input);
  const { id } = P.renaming;
  const button = $("#passkey-rename-confirm");
  busy(button, true);
  const r = await sendJSON("PATCH", `/api/account/passkeys/${encodeURIComponent(id)}`, { name }, csrf());
  busy(button, false);
  if (r?.status === 404) return gone("rename", id);
  if (!r || !r.ok) return refused("rename", r, r?.data?.field === "name" ? input : null);
  setPasskeys(passkeys().map((p) => (p.id === id ? r.data : p)));
  P.host.say(["passkey.renamed", { name: r.data.name }]);
  closeDialog("#passkey-rename-dialog");
}

function openRemove(id) {
  clearError("list");
  P.removing = find(id);
  if (!P.removing) return;
  clearError("remove");
  drawPasskeys();
  $as("#passkey-remove-dialog", HTMLDialogElement).showModal();
  $("#passkey-remove-cancel").focus();
}

async function remove(e) {
  e.preventDefault();
  clearError("remove");
  const { id, name } = P.removing;
  const button = $("#passkey-remove-confirm");
  busy(button, true);
  const r = await sendJSON("DELETE", `/api/account/passkeys/${encodeURIComponent(id)}`, {}, csrf());
  busy(button, false);
  if (r?.status === 404) return gone("remove", id);
  if (!r || !r.ok) return refused("remove", r);
  setPasskeys(passkeys().filter((p) => p.id !== id));
  P.removing = null;
  P.host.say(["passkey.removed", { name }]);
  closeDialog("#passkey-remove-dialog");
  drawPasskeys();
  $("#passkeys-title").focus();
}

// The passkey went meanwhile (removed from another device): the list says so and no longer shows it.
function gone(slot, id) {
  setPasskeys(passkeys().filter((p) => p.id !== id));
  P.renaming = P.removing = null;
  closeDialogs();
  drawPasskeys();
  showError("list", ["passkey.error.gone"]);
  $("#passkeys-title").focus();
}

function closeDialog(sel) {
  const dialog = $as(sel, HTMLDialogElement);
  if (dialog.open) dialog.close();
}

function closeDialogs() {
  closeDialog("#passkey-rename-dialog");
  closeDialog("#passkey-remove-dialog");
}

// Closed by Cancel, Escape or a change made: the focus goes back to that passkey's button (drawn anew meanwhile).
function afterDialog(which) {
  const p = P[which];
  P[which] = null;
  drawPasskeys();
  const button = p && $(`[data-${which === "renaming" ? "rename" : "remove"}="${CSS.escape(p.id)}"]`);
  if (button) button.focus();
}

// ------------------------------------------------------------------ signing in with one
async function signIn() {
  clearError("signin");
  const button = $as("#passkey-signin-button", HTMLButtonElement);
  busy(button, true);
  try {
    const asked = await sendJSON("POST", "/api/account/passkey/options", {});
    if (!asked || !asked.ok) return showError("signin", refusal(asked));
    let used;
    try {
      used = /** @type {PublicKeyCredential} */ (
        await navigator.credentials.get({ publicKey: requestOptions(asked.data.options) }));
    } catch (x) {
      return showError("signin", browserRefusal(x, false));
    }
    const seats = seatLinks();
    const r = await sendJSON("POST", "/api/account/passkey/signin",
      { challenge: asked.data.challenge, credential: credentialJSON(used), seats });
    if (!r || !r.ok) return showError("signin", refusal(r));
    P.errors = {};
    if (!(await P.host.signedIn(r.data, seats))) showError("signin", ["account.error.cookie"]);
  } finally {
    busy(button, false);
  }
}

/**
 * Wire the section and the sign-in button; `host` is the page's: me() the signed-in account (GET /api/account's
 * answer, its passkeys kept up to date here) or null; signedIn(answer, seats) after a passkey's sign-in, false when
 * the browser kept no sign-in; signedOut() when a change finds the sign-in gone; say(...messages) the status line.
 * @param {{me: () => any, signedIn: (data: any, seats: any[]) => Promise<boolean>, signedOut: () => void,
 *          say: (...messages: any[]) => void}} host
 */
export function setupPasskeys(host) {
  P.host = host;
  $("#passkey-add-form").addEventListener("submit", add);
  $("#passkey-name").addEventListener("input", () => { P.edited = true; });
  $("#passkey-signin-button").addEventListener("click", signIn);
  $("#passkey-rename-form").addEventListener("submit", rename);
  $("#passkey-rename-cancel").addEventListener("click", () => closeDialog("#passkey-rename-dialog"));
  $("#passkey-rename-dialog").addEventListener("close", () => afterDialog("renaming"));
  $("#passkey-remove-form").addEventListener("submit", remove);
  $("#passkey-remove-cancel").addEventListener("click", () => closeDialog("#passkey-remove-dialog"));
  $("#passkey-remove-dialog").addEventListener("close", () => afterDialog("removing"));
}
