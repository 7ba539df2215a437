// @ts-check
// A seat of the new table's form given to a bot account (docs/web-api.md, "Bots online"): the seat's choice "A bot
// account" shows a name field whose suggestions are the bots online now (GET /api/bots/online, read when the choice
// is made and again, at most every few seconds, when the field takes the focus), and the seat's note says who runs
// the bot chosen, its ratings and whether it is busy. A name typed by hand is sent as it is: the server says whether
// it may be challenged.

import { t, editionName, ratingText } from "./lib/words.js";
import { $, el, $as, $$ } from "./lib/dom.js";
import { getJSON } from "./lib/http.js";

export const BOT_ACCOUNT = "bot-account";
const FRESH_MS = 5000;
const NAME_MAX = 20; // a username's longest (web/accounts/session.py)

// online: the bots online as last read (null: not read yet, or the read failed); read: when (performance.now());
// reading: the read under way; names: each seat's typed name, kept across a redraw of the seats
const B = {
  online: /** @type {any[] | null} */ (null),
  read: -Infinity,
  reading: /** @type {Promise<void> | null} */ (null),
  names: /** @type {Record<string, string>} */ ({}),
};

export function botOption() {
  return el("option", { value: BOT_ACCOUNT }, t("botpick.option"));
}

// Seat `seat`'s bot account is `name` (the bots online page's "Challenge" link: /?bot=NAME), until the player changes it.
export function presetBot(seat, name) {
  B.names[seat] = String(name).slice(0, NAME_MAX);
}

// The name field of seat `seat`, shown while its choice is a bot account.
export function botField(seat, chosen) {
  const id = `seat-bot-${seat}`;
  const input = el("input", {
    id, class: "seat-bot", type: "text", list: "online-bots", maxlength: String(NAME_MAX), autocomplete: "off",
    spellcheck: "false", autocapitalize: "none", "aria-describedby": `seat-note-${seat}`, dataset: { seat: String(seat) },
  });
  input.value = B.names[seat] || "";
  input.addEventListener("input", () => { B.names[seat] = input.value; note(seat); });
  input.addEventListener("focus", () => { read(); });
  return el("span", { class: "bot-pick", id: `seat-bot-box-${seat}`, hidden: !chosen },
    el("label", { for: id }, t("botpick.name")), input);
}

// The choice of seat `seat` changed: its name field shown or hidden, the bots online read if it is a bot account's.
export function followChoice(sel) {
  const on = sel.value === BOT_ACCOUNT;
  $(`#seat-bot-box-${sel.dataset.seat}`).hidden = !on;
  if (on) read();
}

// The bot-account seats' names, by seat; a seat whose field is empty maps to "".
export function chosenBots() {
  /** @type {Record<number, string>} */
  const out = {};
  for (const sel of /** @type {HTMLSelectElement[]} */ ($$("select.seat-kind"))) {
    if (sel.value === BOT_ACCOUNT) out[Number(sel.dataset.seat)] = $as(`#seat-bot-${sel.dataset.seat}`, HTMLInputElement).value.trim();
  }
  return out;
}

function ratingsWords(ratings) {
  return Object.entries(ratings || {}).map(([family, r]) => `${editionName(family) || family} ${ratingText(r)}`).join(", ");
}

// What a suggestion says beside a bot's name: who runs it, its ratings, rated or casual matches only, whether it is busy.
function about(bot) {
  const parts = [t("botpick.owner", { owner: bot.owner })];
  const rated = ratingsWords(bot.ratings);
  if (rated) parts.push(rated);
  if (bot.accepts?.casual === false) parts.push(t("botpick.rated_only"));
  else if (bot.accepts?.rated === false) parts.push(t("botpick.casual_only"));
  if (bot.busy) parts.push(t("botpick.busy"));
  return parts.join(" · ");
}

// What the named bot online takes, as its hello's `accepts` says; null when it is not among the bots online as last
// read (the server still checks every challenge).
export function acceptsOf(name) {
  const bot = online(name);
  return bot ? bot.accepts || {} : null;
}

// The bot of that name among the bots online as last read (names match whatever their case), else null.
function online(name) {
  const key = String(name || "").trim().toLowerCase();
  return (key && B.online?.find((b) => b.name.toLowerCase() === key)) || null;
}

// The seat's note: the chosen bot's facts, or how to choose one.
export function botNote(seat) {
  const name = (B.names[seat] || "").trim();
  const bot = online(name);
  if (bot) return about(bot);
  if (name && B.online) return t("botpick.not_online");
  if (B.online && !B.online.length) return t("botpick.none_online");
  return t("botpick.help");
}

function note(seat) {
  const box = $(`#seat-note-${seat}`);
  if (box) box.textContent = botNote(seat);
}

function fill() {
  const list = $("#online-bots");
  list.replaceChildren(...(B.online || []).map((b) => el("option", { value: b.name, label: about(b) })));
  for (const sel of /** @type {HTMLSelectElement[]} */ ($$("select.seat-kind"))) {
    if (sel.value === BOT_ACCOUNT) note(sel.dataset.seat);
  }
}

// Read the bots online, unless they were read a moment ago (or are being read).
export function read() {
  if (B.reading || performance.now() - B.read < FRESH_MS) return B.reading || Promise.resolve();
  B.reading = getJSON("/api/bots/online")
    .then((data) => { B.online = Array.isArray(data?.bots) ? data.bots : []; })
    .catch(() => { B.online = null; })
    .finally(() => { B.read = performance.now(); B.reading = null; fill(); });
  return B.reading;
}

// The suggestions in the page's language again.
export function renderBotPick() {
  fill();
}
