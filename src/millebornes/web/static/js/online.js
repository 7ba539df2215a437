// @ts-check
// The bots online (/bots; GET /api/bots/online, docs/web-api.md "Bots online"): each bot connected now with who runs
// it, its ratings, the matches it accepts (its hello's `accepts`; absent: any) and whether it is busy, and a link that
// opens the home page's new table with a seat given to it (/?bot=NAME). Read again every few seconds; the status line
// (polite) says only how many bots are online, when that changes, and a list redrawn keeps the focus where it was.

import { t, tn, setupLangSelect, onLangChange, editionName, ratingText } from "./lib/words.js";
import { $, el, Name } from "./lib/dom.js";
import { getJSON } from "./lib/http.js";

const EVERY_MS = 10000;
// bots: as last read (null: not read yet); failed: the last read failed; said: the status line's words
const O = { bots: /** @type {any[] | null} */ (null), failed: false, seen: "" };

function edition(name) {
  return editionName(name) || name;
}

function ratingsWords(ratings) {
  const rated = Object.entries(ratings || {}).map(([family, r]) => t("online.rating", { edition: edition(family), rating: ratingText(r) }));
  return rated.length ? rated.join(", ") : t("online.unrated");
}

// What the bot accepts, in words: each member absent or null means any.
function acceptsWords(accepts) {
  const a = accepts || {};
  const editions = Array.isArray(a.editions) ? t("online.editions", { list: a.editions.map(edition).join(", ") }) : t("online.any_edition");
  const players = Array.isArray(a.players) ? t("online.players", { list: a.players.join(", ") }) : t("online.any_players");
  const rated = a.rated !== false, casual = a.casual !== false;
  const kind = rated && casual ? "online.rated_or_casual" : rated ? "online.rated_only" : casual ? "online.casual_only" : "online.no_matches";
  return [editions, players, t(kind)];
}

// The home page's address that sets a new table up for this bot: the first edition and table size it accepts when
// it does not take two-player Classic, the home page's default, and a rated match when it plays no other.
function challengeHref(bot) {
  const q = new URLSearchParams({ bot: bot.name });
  const a = bot.accepts || {};
  if (Array.isArray(a.editions) && a.editions.length && !a.editions.includes("classic")) q.set("edition", a.editions[0]);
  if (Array.isArray(a.players) && a.players.length && !a.players.includes(2)) q.set("players", String(a.players[0]));
  if (a.casual === false) q.set("rated", "1");
  return `/?${q}`;
}

function fact(key, ...value) {
  return [el("dt", {}, t(key)), el("dd", {}, ...value)];
}

function profile(name) {
  return el("a", { href: `/players/${encodeURIComponent(name)}` }, new Name(name));
}

function card(bot) {
  const id = `bot-${bot.name}`;
  return el("li", { class: "panel account-panel online-bot", dataset: { name: bot.name, busy: bot.busy ? "1" : "0" }, "aria-labelledby": `${id}-name` },
    el("h2", { id: `${id}-name` }, profile(bot.name)),
    el("dl", { class: "online-facts" },
      ...fact("online.owner", bot.owner ? profile(bot.owner) : t("online.no_owner")),
      ...fact("online.ratings", ratingsWords(bot.ratings)),
      ...fact("online.accepts", acceptsWords(bot.accepts).join(" · ")),
      ...fact("online.state", el("span", { class: "online-state" }, t(bot.busy ? "online.busy" : "online.free")))),
    bot.busy ? null : el("a", { class: "button primary", id: `${id}-challenge`, href: challengeHref(bot) },
      el("span", {}, ...tn("online.challenge", { name: new Name(bot.name) }))));  // a flex box would eat the space
}

function statusWords() {
  if (O.failed) return t("online.network");
  if (O.bots === null) return t("online.loading");
  return O.bots.length ? t("online.count", { n: O.bots.length }) : t("online.none");
}

function draw() {
  const focused = document.activeElement?.id || "";
  $("#online-list").replaceChildren(...(O.bots || []).map(card));
  if (focused) document.getElementById(focused)?.focus();
  const words = statusWords();
  if (words !== O.seen) $("#online-status").textContent = O.seen = words;
}

async function read() {
  try {
    const data = await getJSON("/api/bots/online");
    const bots = Array.isArray(data?.bots) ? data.bots : [];
    const changed = O.failed || JSON.stringify(bots) !== JSON.stringify(O.bots);
    O.bots = bots;
    O.failed = false;
    if (changed) draw();
  } catch (x) {
    O.failed = true;
    draw();
  }
}

async function main() {
  await setupLangSelect($("#lang"));
  onLangChange(() => { O.seen = ""; draw(); });
  draw();
  await read();
  document.body.dataset.ready = "1";
  setInterval(() => { if (!document.hidden) read(); }, EVERY_MS);
}

main();
