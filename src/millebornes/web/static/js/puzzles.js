// @ts-check
// Puzzles (GET /api/puzzles, or ?table=ID&seat=N for that seat's own mistakes in the table's review): the position
// as the seat saw it, its legal moves as buttons in words; one answer each: found, or not, the chances of the hand
// the two moves gave, and why the better move is better (the puzzle's reason, said by lib/words.js reasonNodes).
// The streak of puzzles found in a row is kept in this browser (localStorage "millebornes.streak": {now, best}).

import {
  t, tn, setupLangSelect, onLangChange, describeAction, percent, editionName, formatNumber, reasonNodes,
} from "./lib/words.js";
import { $, el, $$ } from "./lib/dom.js";
import { getJSON } from "./lib/http.js";
import { loadCards } from "./lib/cards.js";
import { cardElement } from "./cards.js";
import { tableauElement } from "./board.js";
import { seatHeaders } from "./mytables.js";

const STREAK = "millebornes.streak";
const params = new URLSearchParams(location.search);
const P = { list: [], at: 0, answer: null, mine: params.has("table") };

function streak() {
  try { return JSON.parse(localStorage.getItem(STREAK)) || { now: 0, best: 0 }; } catch (e) { return { now: 0, best: 0 }; }
}

function count(found) {
  const s = streak();
  s.now = found ? s.now + 1 : 0;
  s.best = Math.max(s.best, s.now);
  try { localStorage.setItem(STREAK, JSON.stringify(s)); } catch (e) { /* storage off */ }
}

function ctxOf(obs) {
  return { seats: [], sides: obs.sides };
}

function draw() {
  const s = streak();
  $("#puzzle-streak").textContent = t("puzzle.streak", { n: formatNumber(s.now), best: formatNumber(s.best) });
  $("#puzzle-intro").textContent = t(P.mine ? "puzzle.intro_mine" : "puzzle.intro_set");
  const p = P.list[P.at];
  if (!p) {
    $("#puzzle").hidden = true;
    $("#puzzle-none").hidden = false;
    $("#puzzle-none").textContent = t(P.mine ? "puzzle.none_mine" : "puzzle.none");
    return;
  }
  const obs = p.observation;
  const c = ctxOf(obs);
  $("#puzzle").hidden = false;
  $("#puzzle-none").hidden = true;
  $("#puzzle").dataset.puzzle = p.id;
  $("#puzzle-head").textContent = t("puzzle.count", { n: formatNumber(P.at + 1), total: formatNumber(P.list.length) });
  $("#puzzle-theme").textContent = `${editionName(p.edition)} · ${t(`puzzle.theme.${p.theme}`)}`;
  $("#puzzle-ask").textContent = t("puzzle.ask", { name: t("seat.name", { n: p.seat + 1 }) });
  $("#puzzle-board").replaceChildren(...obs.sides.map((_, side) => tableauElement({
    tableau: obs.tableaux[side], side, ctx: c, target: obs.target, score: obs.match_scores[side],
    mine: side === obs.side, turnSeat: obs.turn, toAct: obs.to_act, handSizes: obs.hand_sizes, showOnline: false,
  })));
  $("#puzzle-hand-title").textContent = t("hand.label", { n: obs.hand.length });
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
  count(action === P.list[P.at].best);
  draw();
  const next = $("#puzzle-next");
  (next.hidden ? $("#puzzle-result") : next).focus?.();
}

async function main() {
  await setupLangSelect($("#lang"));
  await loadCards();
  try {
    const data = P.mine
      ? await getJSON(`/api/tables/${encodeURIComponent(params.get("table"))}/puzzles?seat=${Number(params.get("seat")) || 0}`,
        seatHeaders(params.get("table")))
      : await getJSON("/api/puzzles");
    P.list = data.puzzles || [];
  } catch (e) {
    P.list = [];
  }
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
