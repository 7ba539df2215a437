// @ts-check
// The account page (/account, web/accounts/routes.py): signed out, sign in or create an account, this browser's
// "My tables" brought in either way; signed in, the account's ratings and tables as the server keeps them, its
// data exported, sign out, and the account deleted once its password is given again. Every change carries the
// sign-in's CSRF token (GET /api/account gives it); every refusal's code becomes the catalog's words. Its devices and
// password: account/security.js.

import {
  t, tn, setupLangSelect, onLangChange, editionName, formatDate, formatNumber, ratingText,
} from "./lib/words.js";
import { $, el, Name, $as } from "./lib/dom.js";
import { myTables, seatLinks } from "./mytables.js";
import { setupSecurity, loadSecurity, drawSecurity } from "./account/security.js";
import { setupPasskeys, drawPasskeys } from "./account/passkeys.js";
import { whoIsSignedIn } from "./lib/me.js";

// me: GET /api/account's answer (null: signed out); note: the status line's messages, each [key, params], said
// again in a new language; errors: each form's refusal as {message: [key, params], field}
const A = { me: null, note: null, errors: {} };

// The server's own rules (web/accounts/routes.py), checked here first so that a typing slip costs no request.
const USERNAME = /^[A-Za-z0-9][A-Za-z0-9_-]{2,19}$/;
const PASSWORD_MIN = 8;

const FORMS = {
  signin: { error: "#signin-error", fields: { username: "#signin-username", password: "#signin-password" } },
  signup: { error: "#signup-error", fields: { username: "#signup-username", password: "#signup-password" } },
  me: { error: "#me-error", fields: {} },
  delete: { error: "#delete-error", fields: { password: "#delete-password" } },
};

// What a refusal's code says; `wrong` depends on what was asked (a name and password, or the password alone).
const CODES = {
  taken: "account.error.taken",
  rate: "account.error.rate",
  csrf: "account.error.csrf",
  "cross-site": "account.error.cross_site",
  "password-is-name": "account.error.password_is_name",
  "signed-out": "account.error.signed_out",
  disabled: "account.error.disabled",
};
const WEAK = ["short", "name", "common", "pattern"];
const FIELDS = { username: "account.error.username", password: "account.error.password" };

async function send(method, url, body, csrf) {
  const headers = { "Content-Type": "application/json", Accept: "application/json" };
  if (csrf) headers["X-CSRF-Token"] = csrf;
  let r;
  try {
    r = await fetch(url, { method, headers, body: JSON.stringify(body) });
  } catch (x) {
    return null;
  }
  return { ok: r.ok, status: r.status, headers: r.headers, data: await r.json().catch(() => null) };
}

// A refusal as {message: [key, params], field}; `wrong`: the words for a wrong password here.
function refusal(r, wrong) {
  if (!r) return { message: ["account.error.network"] };
  const code = typeof r.data?.code === "string" ? r.data.code : "";
  if (r.status === 429) return { message: ["account.error.rate", { s: Number(r.headers.get("Retry-After")) || 60 }] };
  if (code === "wrong") return { message: [wrong], field: "password" };
  if (code === "password-is-name") return { message: [CODES[code]], field: "password" };
  if (code === "weak-password") {
    return { message: [`account.weak.${WEAK.includes(r.data?.reason) ? r.data.reason : "short"}`], field: "password" };
  }
  if (code === "taken") return { message: [CODES[code]], field: "username" };
  if (CODES[code]) return { message: [CODES[code]] };
  const field = typeof r.data?.field === "string" ? r.data.field : "";
  if (FIELDS[field]) return { message: [FIELDS[field]], field };
  return { message: ["account.error.refused"] };
}

function messageText([key, params = {}]) {
  return t(key, "s" in params ? { ...params, s: formatNumber(params.s) } : params);
}

// ------------------------------------------------------------------ errors tied to their fields
function clearError(form) {
  delete A.errors[form];
  const f = FORMS[form];
  $(f.error).textContent = "";
  for (const sel of Object.values(f.fields)) {
    const node = $(sel);
    node.removeAttribute("aria-invalid");
    const rest = (node.getAttribute("aria-describedby") || "").split(" ").filter((x) => x && `#${x}` !== f.error);
    if (rest.length) node.setAttribute("aria-describedby", rest.join(" "));
    else node.removeAttribute("aria-describedby");
  }
}

// The error is read at once (role=alert), and the field it is about says so and takes the focus.
function showError(form, refused) {
  const f = FORMS[form];
  A.errors[form] = refused;
  $(f.error).textContent = messageText(refused.message);
  const node = refused.field && f.fields[refused.field] && $(f.fields[refused.field]);
  if (!node) return;
  node.setAttribute("aria-invalid", "true");
  const ids = (node.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
  const id = f.error.slice(1);
  if (!ids.includes(id)) node.setAttribute("aria-describedby", [...ids, id].join(" "));
  node.focus();
}

function noteText() {
  return (A.note || []).map(messageText).join(" ");
}

// The status line (role=status: read when the reader is free), one or more messages.
function say(...messages) {
  A.note = messages;
  $("#account-status").textContent = noteText();
}

function busy(button, on) {
  button.disabled = on;
  button.setAttribute("aria-busy", on ? "true" : "false");
}

// ------------------------------------------------------------------ signed out: sign in, sign up
async function enter(form, e) {
  e.preventDefault();
  clearError(form);
  const f = FORMS[form];
  const username = $as(f.fields.username, HTMLInputElement).value.trim();
  const password = $as(f.fields.password, HTMLInputElement).value;
  if (!username) return showError(form, { message: ["account.error.missing_username"], field: "username" });
  if (form === "signup" && !USERNAME.test(username)) {
    return showError(form, { message: ["account.error.username"], field: "username" });
  }
  if (!password) return showError(form, { message: ["account.error.missing_password"], field: "password" });
  if (form === "signup" && (password.length < PASSWORD_MIN || !password.trim())) {
    return showError(form, { message: ["account.weak.short"], field: "password" });
  }
  if (form === "signup" && password.toLowerCase() === username.toLowerCase()) {
    return showError(form, { message: ["account.error.password_is_name"], field: "password" });
  }
  const seats = seatLinks();
  const button = $(`#${form}-submit`);
  busy(button, true);
  const r = await send("POST", `/api/account/${form}`, { username, password, seats });
  busy(button, false);
  if (!r || !r.ok) return showError(form, refusal(r, "account.error.wrong"));
  $as(f.fields.password, HTMLInputElement).value = "";
  if (!(await welcome(form === "signup" ? "account.welcome_new" : "account.welcome", r.data, seats))) {
    showError(form, { message: ["account.error.cookie"] });
  }
}

// After a sign-in, a password's or a passkey's (`data` its answer, `seats` the links it brought): the account shown,
// with what was brought into it; false when the browser kept no sign-in.
async function welcome(key, data, seats) {
  const claimed = Array.isArray(data?.claimed) ? data.claimed.length : 0;
  await load();
  if (!A.me) return false;
  const hello = [key, { name: A.me.username }];
  if (claimed) say(hello, ["account.brought", { n: claimed }]);
  else if (seats.length) say(hello, ["account.claimed_none"]);
  else say(hello);
  draw();
  $("#me-title").focus();
  return true;
}

// ------------------------------------------------------------------ signed in
function sideOf(s) {
  const sides = s.teams ? s.players / 2 : s.players;
  return sides > 0 ? s.seat % sides : s.seat;
}

function statusText(status) {
  const key = `status.${status}`;
  const text = t(key);
  return text === key ? t("mine.unknown") : text;
}

// A finished table's result from this seat's side: won, a tie, or lost, and the scores, this side's first.
function resultLine(s) {
  if (s.status !== "finished" || !Array.isArray(s.scores) || !s.scores.length) return null;
  const side = sideOf(s);
  const winners = Array.isArray(s.winners) ? s.winners : [];
  const result = !winners.includes(side) ? "account.lost" : winners.length > 1 ? "account.tie" : "account.won";
  const others = s.scores.filter((_, i) => i !== side).map((p) => formatNumber(p ?? 0)).join(" – ");
  return el("p", { class: "account-result", dataset: { result: result.split(".")[1] } },
    el("strong", {}, t(result)), " · ",
    t("account.scores", { mine: formatNumber(s.scores[side] ?? 0), others }));
}

function tableItem(s, local) {
  const edition = editionName(s.ruleset) || t("mine.unknown");
  const when = formatDate(s.finished || s.created);
  const facts = [
    t("ed.players", { n: s.players }) + (s.teams ? ` (${t("account.in_teams")})` : ""),
    statusText(s.status),
    t("mine.seat", { n: s.seat + 1 }),
  ];
  const actions = [];
  if (s.status === "finished") {
    actions.push(el("a", {
      class: "button replay-link", href: `/replay/${encodeURIComponent(s.table)}`, dataset: { table: s.table },
      "aria-label": t("home.replay_of", { when }),
    }, t("home.replay")));
  } else {
    // the way back to the seat: this browser's link of it, else the account opens it (another device)
    const mine = local.find((e) => e.id === s.table && e.seat === s.seat && e.url);
    const url = mine?.url || `/t/${encodeURIComponent(s.table)}#seat=${s.seat}&account=1`;
    if (s.status !== "broken" && s.status !== "expired") {
      actions.push(el("a", { class: "button primary back-link", href: url, "aria-label": t("mine.back_to", { edition, when }) },
        t("mine.back")));
    }
  }
  return el("li", { class: "mine-table", dataset: { table: s.table, status: s.status } },
    el("h3", {}, t("mine.table", { edition, when })),
    el("p", { class: "muted" }, facts.join(" · ")),
    s.nickname ? el("p", { class: "muted" }, ...tn("account.nickname", { name: new Name(s.nickname) })) : null,
    resultLine(s),
    actions.length ? el("div", { class: "mine-actions" }, ...actions) : null);
}

// The account's rating in each edition it played rated (GET /api/account's ratings, by family).
function ratingsTable(ratings) {
  const rows = Object.entries(ratings && typeof ratings === "object" ? ratings : {})
    .filter(([, r]) => Number.isFinite(r?.rating) && Number.isFinite(r?.matches));
  if (!rows.length) return el("p", { class: "muted" }, t("account.ratings_none"));
  const th = (key) => el("th", { scope: "col" }, t(key));
  return el("div", { class: "table-scroll" }, el("table", { class: "ratings-table" },
    el("caption", { class: "sr" }, t("account.ratings_caption")),
    el("thead", {}, el("tr", {}, th("account.ratings_edition"), th("account.ratings_rating"), th("account.ratings_matches"))),
    el("tbody", {}, ...rows.map(([family, r]) => el("tr", { dataset: { family, provisional: r.provisional ? "1" : "0" } },
      el("th", { scope: "row" }, editionName(family) || family),
      el("td", { class: "rating" }, ratingText(r)),
      el("td", {}, formatNumber(r.matches)))))));
}

// This browser's seats that the account does not hold yet.
function unclaimed() {
  const held = new Set((A.me?.seats || []).map((s) => `${s.table}:${s.seat}`));
  return seatLinks().filter((l) => !held.has(`${l.table}:${l.seat}`));
}

function drawSignedIn() {
  const me = A.me;
  $("#me-title").replaceChildren(...tn("account.me", { name: new Name(me.username) }));
  $("#me-since").textContent = me.created ? t("account.since", { when: formatDate(me.created) }) : "";
  $("#account-ratings").replaceChildren(ratingsTable(me.ratings));
  const seats = Array.isArray(me.seats) ? me.seats : [];
  const local = myTables();
  $("#account-tables").replaceChildren(seats.length
    ? el("ul", { class: "mine-tables account-tables", "aria-labelledby": "tables-title" }, ...seats.map((s) => tableItem(s, local)))
    : el("p", { class: "muted" }, t("account.no_tables")));
  const left = unclaimed().length;
  $("#bring").hidden = left === 0;
  $("#bring-offer").textContent = left ? t("account.bring_offer", { n: left }) : "";
  drawSecurity();
}

function drawSignedOut() {
  const n = seatLinks().length;
  $("#bring-note").hidden = n === 0;
  $("#bring-note").textContent = n ? t("account.bring_note", { n }) : "";
}

function draw() {
  $("#signed-in").hidden = !A.me;
  $("#signed-out").hidden = !!A.me;
  if (A.me) drawSignedIn();
  else drawSignedOut();
  drawPasskeys();
  for (const [form, refused] of Object.entries(A.errors)) $(FORMS[form].error).textContent = messageText(refused.message);
  if (A.note) $("#account-status").textContent = noteText();
  document.body.dataset.signedIn = A.me ? "1" : "0";
}

// Who is signed in, or null; false when the server could not be asked.
async function load() {
  try {
    const me = await whoIsSignedIn();
    if (me === undefined) return false;
    A.me = me;
    if (me) await loadSecurity();
    return true;
  } catch (x) {
    return false;
  }
}

// A change made with the sign-in; a sign-in gone meanwhile (expired, or signed out elsewhere) shows the forms.
async function change(method, url, body, form, wrong) {
  const r = await send(method, url, body, A.me?.csrf);
  if (r && r.ok) return r;
  const refused = refusal(r, wrong);
  if (r?.data?.code === "signed-out") {
    endedHere();
    return null;
  }
  showError(form, refused);
  return null;
}

// The sign-in ended meanwhile (expired, signed out from another device, or this one signed out from its list).
function endedHere() {
  A.me = null;
  closeDialog();
  say(["account.error.signed_out"]);
  draw();
  $("#account-title").focus();
}

async function signOut() {
  clearError("me");
  const button = $("#signout");
  busy(button, true);
  const r = await change("POST", "/api/account/signout", {}, "me", "account.error.refused");
  busy(button, false);
  if (!r) return;
  A.me = null;
  say(["account.signed_out"]);
  draw();
  $("#account-title").focus();
}

async function bringIn() {
  clearError("me");
  const button = $("#bring-button");
  busy(button, true);
  const seats = unclaimed();
  const r = await change("POST", "/api/account/claim", { seats }, "me", "account.error.refused");
  busy(button, false);
  if (!r) return;
  const n = Array.isArray(r.data?.claimed) ? r.data.claimed.length : 0;
  await load();
  say(n ? ["account.brought", { n }] : ["account.claimed_none"]);
  draw();
  $("#tables-title").focus();
}

// ------------------------------------------------------------------ deleting the account
// A modal <dialog>: the page behind is inert, Escape cancels, and the focus goes back to the button that opened it.
function openDialog() {
  clearError("delete");
  $as("#delete-password", HTMLInputElement).value = "";
  $as("#delete-username", HTMLInputElement).value = A.me?.username || ""; // for a password manager: whose password this is
  $as("#delete-dialog", HTMLDialogElement).showModal();
  $("#delete-password").focus();
}

function closeDialog() {
  const dialog = $as("#delete-dialog", HTMLDialogElement);
  if (dialog.open) dialog.close();
}

async function deleteAccount(e) {
  e.preventDefault();
  clearError("delete");
  const password = $as("#delete-password", HTMLInputElement).value;
  if (!password) return showError("delete", { message: ["account.error.missing_password"], field: "password" });
  const button = $("#delete-confirm");
  busy(button, true);
  const r = await change("DELETE", "/api/account", { password }, "delete", "account.error.wrong_password");
  busy(button, false);
  if (!r) return;
  A.me = null;
  closeDialog();
  say(["account.deleted"]);
  draw();
  $("#account-title").focus();
}

async function main() {
  await setupLangSelect($("#lang"));
  onLangChange(draw);
  $("#signin-form").addEventListener("submit", (e) => enter("signin", e));
  $("#signup-form").addEventListener("submit", (e) => enter("signup", e));
  $("#signout").addEventListener("click", signOut);
  $("#bring-button").addEventListener("click", bringIn);
  $("#delete-open").addEventListener("click", openDialog);
  $("#delete-cancel").addEventListener("click", () => closeDialog());
  $("#delete-form").addEventListener("submit", deleteAccount);
  setupSecurity({
    csrf: () => A.me?.csrf || "",
    username: () => A.me?.username || "",
    refusal,
    messageText,
    signedOut: endedHere,
  });
  setupPasskeys({ me: () => A.me, signedIn: (data, seats) => welcome("account.welcome", data, seats),
    signedOut: endedHere, say });
  // closed by Cancel or Escape, the account still there: back to the button that opened it (a deleted account's
  // page takes the focus to its title instead)
  $("#delete-dialog").addEventListener("close", () => { if (A.me) $("#delete-open").focus(); });
  if (!(await load())) say(["account.error.network"]);
  draw();
  document.body.dataset.ready = "1";
}

main();
