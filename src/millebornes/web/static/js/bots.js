// @ts-check
// The bots page (/account/bots, web/botaccounts/routes.py): a signed-in person makes bot accounts, sees each one's token
// once (the server keeps only its hash), renews or deletes them. Every change carries the sign-in's CSRF token;
// every refusal's code becomes the catalog's words.

import { t, tn, setupLangSelect, onLangChange, formatDate } from "./lib/words.js";
import { $, el, Name, $as } from "./lib/dom.js";
import { whoIsSignedIn } from "./lib/me.js";

// bots: the owner's bots as GET /api/account/bots lists them (null: signed out); token: the one to show
// once, with its bot's name; note: the status line, [key, params]; doomed: the bot the dialog asks about
const B = { csrf: null, bots: null, token: null, note: null, doomed: null };

const USERNAME = /^[A-Za-z0-9][A-Za-z0-9_-]{2,19}$/;

const CODES = {
  taken: "account.error.taken",
  "too-many-bots": "bots.error.too_many",
  rate: "account.error.rate",
  csrf: "account.error.csrf",
  "cross-site": "account.error.cross_site",
  "signed-out": "account.error.signed_out",
  "no-bot": "bots.error.no_bot",
};

async function send(method, url, body) {
  const headers = { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": B.csrf || "" };
  try {
    const r = await fetch(url, { method, headers, body: JSON.stringify(body) });
    return { ok: r.ok, status: r.status, headers: r.headers, data: await r.json().catch(() => null) };
  } catch (x) {
    return null;
  }
}

function refusal(r) {
  if (!r) return t("account.error.network");
  const code = typeof r.data?.code === "string" ? r.data.code : "";
  if (r.status === 429) return t("account.error.rate", { s: Number(r.headers.get("Retry-After")) || 60 });
  if (CODES[code]) return t(CODES[code]);
  if (r.data?.field === "username") return t("account.error.username");
  return t("account.error.refused");
}

function say(key, params = {}) {
  B.note = [key, params];
  $("#bots-status").replaceChildren(...tn(key, params));
}

// ------------------------------------------------------------------ the list
function botItem(bot) {
  const state = bot.revoked ? "bots.state_revoked" : bot.connected ? "bots.state_connected" : "bots.state_ready";
  const renew = el("button", { type: "button", "data-bot": bot.name }, t("bots.renew"));
  renew.setAttribute("aria-label", t("bots.renew_for", { name: bot.name }));
  renew.addEventListener("click", () => renewToken(bot.name));
  const remove = el(
    "button", { type: "button", class: "danger", "aria-haspopup": "dialog", "data-delete": bot.name }, t("bots.delete_open"),
  );
  remove.setAttribute("aria-label", t("bots.delete_for", { name: bot.name }));
  remove.addEventListener("click", () => askDelete(bot.name));
  return el(
    "li",
    { class: "bot-item" },
    el("h3", {}, el("bdi", {}, bot.name)),
    el("p", { class: "muted" }, t(state)),
    el("p", { class: "muted" }, t("bots.created", { date: formatDate(bot.created) })),
    el("p", { class: "muted" }, bot.last_connected
      ? t("bots.last_connected", { date: formatDate(bot.last_connected) })
      : t("bots.never_connected")),
    el("div", { class: "account-actions" }, renew, remove),
  );
}

function draw() {
  const signedIn = B.bots !== null;
  document.body.dataset.signedIn = signedIn ? "1" : "0";
  $("#bots-signed-out").hidden = signedIn;
  $("#bots-signed-in").hidden = !signedIn;
  if (B.note) $("#bots-status").replaceChildren(...tn(B.note[0], B.note[1]));
  if (!signedIn) return;
  $("#bot-list").replaceChildren(...B.bots.map(botItem));
  $("#bot-list-none").hidden = B.bots.length > 0;
  if (B.token) {
    $("#token-label").textContent = t("bots.token_label", { name: B.token.name });
    $("#token-copied").textContent = B.token.copied ? t(B.token.copied) : "";
  }
  if (B.doomed) $("#delete-bot-title").textContent = t("bots.delete_title", { name: B.doomed.name });
}

async function load() {
  const me = await whoIsSignedIn(); // signed out, the bots are not asked for: no refusal in the console
  const r = me ? await fetch("/api/account/bots", { headers: { Accept: "application/json" } }).catch(() => null) : null;
  if (!r || !r.ok) {
    B.bots = null;
    draw();
    return;
  }
  B.bots = (await r.json()).bots;
  B.csrf = me.csrf;
  draw();
}

// ------------------------------------------------------------------ the token, shown once
function showToken(name, token) {
  B.token = { name };
  $as("#token-value", HTMLInputElement).value = token;
  $("#token-copied").textContent = "";
  $("#token-panel").hidden = false;
  draw();
  $("#token-title").focus();
}

function hideToken() {
  B.token = null;
  $as("#token-value", HTMLInputElement).value = "";
  $("#token-panel").hidden = true;
  $("#bot-list-title").focus();
}

async function copyToken() {
  const input = $as("#token-value", HTMLInputElement);
  try {
    await navigator.clipboard.writeText(input.value);
    B.token.copied = "bots.copied";
  } catch (x) {
    input.select();
    B.token.copied = "bots.copy_by_hand";
  }
  $("#token-copied").textContent = t(B.token.copied);
}

// ------------------------------------------------------------------ changes
async function createBot(ev) {
  ev.preventDefault();
  const input = $as("#new-bot-name", HTMLInputElement);
  const error = $("#new-bot-error");
  error.textContent = "";
  input.removeAttribute("aria-invalid");
  if (!USERNAME.test(input.value)) {
    error.textContent = t("account.error.username");
    input.setAttribute("aria-invalid", "true");
    input.focus();
    return;
  }
  const r = await send("POST", "/api/account/bots", { username: input.value });
  if (!r || !r.ok) {
    error.textContent = refusal(r);
    input.setAttribute("aria-invalid", "true");
    input.focus();
    return;
  }
  input.value = "";
  B.bots = [...B.bots, r.data.bot];
  say("bots.made", { name: new Name(r.data.bot.name) });
  showToken(r.data.bot.name, r.data.token);
}

async function renewToken(name) {
  $("#bot-list-error").textContent = "";
  const r = await send("POST", `/api/account/bots/${encodeURIComponent(name)}/token`, {});
  if (!r || !r.ok) {
    $("#bot-list-error").textContent = refusal(r);
    return;
  }
  B.bots = B.bots.map((b) => (b.name === name ? r.data.bot : b));
  say("bots.renewed", { name: new Name(name) });
  showToken(name, r.data.token);
}

// A modal <dialog>: the page behind is inert, Escape cancels, and the focus goes back to the button that opened it.
function askDelete(name) {
  B.doomed = { name };
  $("#delete-bot-title").textContent = t("bots.delete_title", { name });
  $("#delete-bot-text").textContent = t("bots.delete_text");
  $("#delete-bot-error").textContent = "";
  $as("#delete-bot-dialog", HTMLDialogElement).showModal();
  $("#delete-bot-cancel").focus();
}

async function deleteBot(ev) {
  ev.preventDefault();
  const { name } = B.doomed;
  const r = await send("DELETE", `/api/account/bots/${encodeURIComponent(name)}`, {});
  if (!r || !r.ok) {
    $("#delete-bot-error").textContent = refusal(r);
    return;
  }
  B.bots = B.bots.filter((b) => b.name !== name);
  B.doomed = null;
  $as("#delete-bot-dialog", HTMLDialogElement).close();
  if (B.token && B.token.name === name) hideToken();
  say("bots.deleted", { name: new Name(name) });
  draw();
  $("#bot-list-title").focus();
}

async function start() {
  await setupLangSelect($("#lang"));
  onLangChange(draw);
  $("#new-bot-form").addEventListener("submit", createBot);
  $("#token-copy").addEventListener("click", copyToken);
  $("#token-done").addEventListener("click", hideToken);
  $("#delete-bot-form").addEventListener("submit", deleteBot);
  $("#delete-bot-cancel").addEventListener("click", () => $as("#delete-bot-dialog", HTMLDialogElement).close());
  $("#delete-bot-dialog").addEventListener("close", () => {
    // the list may have been drawn again meanwhile (a language change): its button of that bot, as it is now
    if (B.doomed) $(`[data-delete="${CSS.escape(B.doomed.name)}"]`)?.focus();
    B.doomed = null;
  });
  await load();
  document.body.dataset.ready = "1";
}

start();
