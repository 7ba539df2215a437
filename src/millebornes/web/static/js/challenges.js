// @ts-check
// The bots a new table challenged, answering (docs/web-api.md, "Bots online"): under the invite links, each bot
// account's seat says whether its bot is still to answer (the seconds it has left, from the creation's
// answer_within), accepted and sat down, or declined or never answered, a built-in bot at the table's stand-in level
// having taken the seat. The table's public facts (GET /api/tables/ID) say which, read every second until every
// challenge is settled; a screen reader hears each change once (#challenge-status), not the countdown.

import { t, tn, getLang } from "./lib/words.js";
import { $, el, Name } from "./lib/dom.js";
import { getJSON } from "./lib/http.js";

const EVERY_MS = 1000;
// after the answer was due, the seconds the page keeps asking: the server's own timer declines a seat 5 s after it
const LATE_S = 15;

// seats: each challenged seat {seat, name, state, level}, state "waiting", "accepted", "declined" or "late"
const C = { table: "", made: 0, within: 10, seats: /** @type {any[]} */ ([]), timer: 0, asking: false };

export function watchChallenges(made) {
  clearInterval(C.timer);
  C.table = String(made?.id || "");
  C.made = Number(made?.made) || Date.now();
  C.seats = (made?.seats || []).filter((s) => s.kind === "bot-account" && typeof s.name === "string")
    .map((s) => ({ seat: s.seat, name: s.name, state: "waiting", level: null }));
  C.within = Number(made?.seats?.find((s) => s.kind === "bot-account")?.answer_within) || 10;
  renderChallenges();
  if (!C.seats.length) return;
  say();
  tick();
  C.timer = window.setInterval(tick, EVERY_MS);
}

function left() {
  return Math.max(0, Math.ceil(C.within - (Date.now() - C.made) / 1000));
}

async function tick() {
  renderChallenges();
  if (C.asking) return;
  C.asking = true;
  const table = C.table;
  const facts = await getJSON(`/api/tables/${encodeURIComponent(table)}`).catch(() => null);
  C.asking = false;
  if (table !== C.table) return;
  let changed = false;
  for (const c of C.seats) {
    const s = facts?.seats?.find((x) => x.seat === c.seat);
    const now = !s || c.state !== "waiting" ? c.state : s.kind === "bot" ? "declined" : s.nickname ? "accepted" : "waiting";
    if (now !== c.state) { c.state = now; c.level = s?.level ?? null; changed = true; }
  }
  const overdue = (Date.now() - C.made) / 1000 > C.within + LATE_S;
  for (const c of C.seats) if (overdue && c.state === "waiting") { c.state = "late"; changed = true; }
  if (C.seats.every((c) => c.state !== "waiting")) clearInterval(C.timer);
  if (changed) say();
  renderChallenges();
}

function words(c) {
  const params = { n: c.seat + 1, name: new Name(c.name) };
  if (c.state === "accepted") return tn("challenge.accepted", params);
  if (c.state === "declined") return tn("challenge.declined", { ...params, level: t(`level.${c.level}`) });
  if (c.state === "late") return tn("challenge.late", params);
  return tn("challenge.waiting", { ...params, s: left() });
}

// A change heard once: every seat's sentence as it now stands (said again in a new language).
function say() {
  const box = $("#challenge-status");
  box.textContent = C.seats.map((c) => el("span", {}, ...words(c)).textContent).join(" ");
  box.dataset.lang = getLang();
}

export function renderChallenges() {
  const list = $("#challenge-list");
  if (!list) return;
  const status = $("#challenge-status");
  if (status.textContent && status.dataset.lang !== getLang()) say();
  list.hidden = !C.seats.length;
  list.replaceChildren(...C.seats.map((c) => el("li", { class: "challenge", dataset: { seat: String(c.seat), state: c.state } },
    ...words(c))));
}
