// @ts-check
// Puzzles: the position as the seat saw it, its legal moves as buttons in words; one answer each: found, or not, the
// chances of the hand the two moves gave, and why the better move is better (the puzzle's reason, said by
// lib/words.js reasonNodes). Three sets (docs/review.md, "Learn from your mistakes"):
// - /puzzles: the shipped set, then puzzles from public games played here (GET /api/puzzles); a visit opens at the
//   first one this browser has not answered (localStorage "millebornes.puzzles.done"), so a newcomer starts with
//   the shipped set. Nobody is named: the seat to play is "You", the others "Opponent" or "Partner".
// - /puzzles?mine=1: the signed-in player's own mistakes from their reviewed games (GET /api/puzzles/mine).
// - /puzzles?table=ID&seat=N: that seat's mistakes in the table's review, its players named as at the table; "your
//   mistakes" only when the server says the seat is this browser's (its link) or the signed-in account's.
// The streak of puzzles found in a row is kept in this browser (localStorage "millebornes.streak": {now, best}).

import {
  t, tn, setupLangSelect, onLangChange, describeAction, percent, editionName, formatNumber, seatName, reasonNodes,
} from "./lib/words.js";
import { $, el, $$ } from "./lib/dom.js";
import { getJSON } from "./lib/http.js";
import { loadCards } from "./lib/cards.js";
import { cardElement } from "./cards.js";
import { tableauElement } from "./board.js";
import { seatHeaders } from "./mytables.js";

const STREAK = "millebornes.streak";
const DONE = "millebornes.puzzles.done";
const DONE_MAX = 1000; // ids of answered puzzles this browser keeps, the latest
const params = new URLSearchParams(location.search);
const MODE = params.has("table") ? "table" : params.get("mine") === "1" ? "mine" : "set";
// yours: the table's seat is the asker's; seats: the table's seats as it named them; signedIn: for "mine"
// failed: the set could not be loaded (no review yet, a private game, the server away)
const P = { list: [], at: 0, answer: null, yours: false, seats: [], seat: 0, signedIn: true, failed: false };

function stored(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key)) || fallback; } catch (e) { return fallback; }
}

function store(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* storage off */ }
}

function streak() {
  return stored(STREAK, { now: 0, best: 0 });
}

function count(found, id) {
  const s = streak();
  s.now = found ? s.now + 1 : 0;
  s.best = Math.max(s.best, s.now);
  store(STREAK, s);
  const done = stored(DONE, []).filter((x) => x !== id);
  store(DONE, [...done, id].slice(-DONE_MAX));
}

// where a visit starts: the first puzzle not answered here (all answered: the first)
function firstNew() {
  if (MODE === "table") return 0;
  const done = new Set(stored(DONE, []));
  const at = P.list.findIndex((p) => !done.has(p.id));
  return at < 0 ? 0 : at;
}

// the names on the board: the table's own, or (a set that names nobody) "You" and the others by their side
function ctxOf(obs) {
  if (MODE === "table") return { seats: P.seats, sides: obs.sides };
  const mine = obs.sides.find((list) => list.includes(obs.seat)) || [obs.seat];
  const others = obs.sides.flat().filter((s) => !mine.includes(s));
  const label = (seat) => {
    if (seat === obs.seat) return t("puzzle.you");
    if (mine.includes(seat)) return t("puzzle.partner");
    return others.length > 1 ? t("puzzle.opponent_n", { n: others.indexOf(seat) + 1 }) : t("puzzle.opponent");
  };
  return { seats: obs.sides.flat().map((seat) => ({ seat, kind: "human", nickname: label(seat) })), sides: obs.sides };
}

function seatWords() {
  return seatName({ seats: P.seats }, P.seat);
}

function introNodes() {
  if (MODE === "set") return [t("puzzle.intro_set")];
  if (MODE === "mine") return [t("puzzle.intro_my_games")];
  return P.yours ? [t("puzzle.intro_mine")] : tn("puzzle.intro_theirs", { name: seatWords() });
}

function noneNodes() {
  if (P.failed) return [t("puzzle.none_failed")];
  if (MODE === "set") return [t("puzzle.none")];
  if (MODE === "mine") {
    if (!P.signedIn) return [t("puzzle.signed_out"), " ", el("a", { href: "/account" }, t("account.signin_link"))];
    return [t("puzzle.none_my_games")];
  }
  return P.yours ? [t("puzzle.none_mine")] : tn("puzzle.none_theirs", { name: seatWords() });
}

// where the puzzle comes from: the shipped set, a game played here, or one of the player's own games
function sourceNodes(p) {
  if (p.source === "mine" && p.table) {
    return [" · ", el("a", { href: `/replay/${encodeURIComponent(p.table)}`, class: "puzzle-game" }, t("puzzle.source.mine"))];
  }
  return p.source === "games" ? [" · ", t("puzzle.source.games")] : [];
}

function tabs() {
  for (const a of $$("#puzzle-tabs a")) {
    const on = a.dataset.mode === MODE;
    if (on) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
}

function draw() {
  const s = streak();
  tabs();
  $("#puzzle-streak").textContent = t("puzzle.streak", { n: formatNumber(s.now), best: formatNumber(s.best) });
  $("#puzzle-intro").replaceChildren(...introNodes());
  const p = P.list[P.at];
  if (!p) {
    $("#puzzle").hidden = true;
    $("#puzzle-none").hidden = false;
    $("#puzzle-none").replaceChildren(...noneNodes());
    return;
  }
  const obs = p.observation;
  const c = ctxOf(obs);
  $("#puzzle").hidden = false;
  $("#puzzle-none").hidden = true;
  $("#puzzle").dataset.puzzle = p.id;
  $("#puzzle-head").textContent = t("puzzle.count", { n: formatNumber(P.at + 1), total: formatNumber(P.list.length) });
  $("#puzzle-theme").replaceChildren(`${editionName(p.edition)} · ${t(`puzzle.theme.${p.theme}`)}`, ...sourceNodes(p));
  $("#puzzle-ask").replaceChildren(...(MODE !== "table" || P.yours ? [t("puzzle.ask_yours")]
    : tn("puzzle.ask", { name: seatName(c, p.seat) })));
  const mySeat = MODE === "table" && P.yours ? p.seat : null;
  $("#puzzle-board").replaceChildren(...obs.sides.map((_, side) => tableauElement({
    tableau: obs.tableaux[side], side, ctx: c, target: obs.target, score: obs.match_scores[side],
    mine: side === obs.side, turnSeat: obs.turn, toAct: obs.to_act, handSizes: obs.hand_sizes, showOnline: false, mySeat,
  })));
  $("#puzzle-hand-title").replaceChildren(...(MODE !== "table" || P.yours ? [t("hand.label", { n: obs.hand.length })]
    : tn("puzzle.hand_of", { name: seatName(c, p.seat), n: obs.hand.length })));
  $("#puzzle-hand").replaceChildren(...obs.hand.map((id) => cardElement(id)));
  $("#puzzle-moves").replaceChildren(...obs.legal_actions.map((action) => el("button", {
    type: "button", class: "puzzle-move", dataset: { action }, disabled: P.answer !== null ? "" : null,
    onclick: () => answer(action),
  }, ...describeAction(action, c, obs))));
  const result = $("#puzzle-result");
  result.replaceChildren();
  if (P.answer !== null) {
    const found = P.answer === p.best;
    const words = (action) => describeAction(action, c, obs);
    result.dataset.found = found ? "1" : "0";
    result.replaceChildren(...(found
      ? tn("puzzle.found", { best: words(p.best), chance: percent(p.best_chance) })
      : tn("puzzle.missed", { move: words(P.answer), best: words(p.best), chance: percent(p.best_chance),
        played: words(p.played), lost: percent(p.chance) })));
    const why = reasonNodes(p.reason, c, ["chance"]); // why the better move is better (the verdict gave the chances)
    if (why.length) result.append(el("span", { class: "puzzle-reason" }, ...why));
    for (const b of $$("#puzzle-moves > *")) b.classList.toggle("best", b.dataset.action === p.best);
  } else {
    delete result.dataset.found;
  }
  $("#puzzle-next").hidden = P.answer === null || P.at + 1 >= P.list.length;
}

function answer(action) {
  if (P.answer !== null) return;
  P.answer = action;
  count(action === P.list[P.at].best, P.list[P.at].id);
  draw();
  const next = $("#puzzle-next");
  (next.hidden ? $("#puzzle-result") : next).focus?.();
}

async function load() {
  if (MODE === "table") {
    const id = params.get("table");
    P.seat = Number(params.get("seat")) || 0;
    const data = await getJSON(`/api/tables/${encodeURIComponent(id)}/puzzles?seat=${P.seat}`, seatHeaders(id));
    P.yours = data.yours === true;
    P.seats = Array.isArray(data.seats) ? data.seats : [];
    return data.puzzles || [];
  }
  if (MODE === "mine") {
    const data = await getJSON("/api/puzzles/mine");
    P.signedIn = data.signed_in === true;
    return data.puzzles || [];
  }
  return (await getJSON("/api/puzzles")).puzzles || [];
}

async function main() {
  await setupLangSelect($("#lang"));
  await loadCards();
  try {
    P.list = await load();
  } catch (e) {
    P.list = [];
    P.failed = true;
  }
  P.at = firstNew();
  $("#puzzle-next").addEventListener("click", () => {
    P.at += 1;
    P.answer = null;
    draw();
    $("#puzzle-head").setAttribute("tabindex", "-1");
    $("#puzzle-head").focus();
  });
  onLangChange(draw);
  draw();
  document.body.dataset.ready = "1";
}

main();
