// @ts-check
// The replay viewer of a finished game: step through it move by move (buttons, the slider or the keys: ← →
// one move, Page Up / Page Down ten, Home / End, as in the terminal's replay); every hand is shown, since the game
// is over. Each step is told in words in a polite live region ("Move 12 of 140: Ann played Flat Tire on Bob."),
// and every pile and hand says what it is and how many cards it holds. Once the game is reviewed (review.js), each
// judged move also shows its class and the better move, and N / P go to the next or previous mistake.

import {
  t, tn, setupLangSelect, onLangChange, describeEvent, describeAction, seatName, formatNumber, cardName, editionName,
} from "./lib/words.js";
import { $, el, $as, targetOf, focusedElement } from "./lib/dom.js";
import { getJSON } from "./lib/http.js";
import { loadCards } from "./lib/cards.js";
import { cardElement, emptySlot } from "./cards.js";
import { tableauElement, breakdownTable, winnersText } from "./board.js";
import { scoreSheet } from "./sheet.js";
import { setupReview } from "./review.js";
import { seatHeaders } from "./mytables.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const R = { facts: null, total: 0, step: 0, cache: new Map(), data: null, want: 0, told: "" };
let review = null;
const PAGE = 10;

const ctx = () => ({ seats: R.facts?.seats || [], sides: R.data?.state?.sides || R.facts?.sides || [] });

function fetchStep(step) {
  if (!R.cache.has(step)) {
    // a private table's replay opens to its players: this browser's seat token, if it sat there
    const p = getJSON(`/api/tables/${encodeURIComponent(tableId)}/replay?step=${step}`, seatHeaders(tableId));
    p.catch(() => R.cache.delete(step));
    R.cache.set(step, p);
  }
  return R.cache.get(step);
}

async function go(step) {
  step = Math.max(0, Math.min(R.total, step));
  R.want = step;
  let data;
  try {
    data = await fetchStep(step);
  } catch (x) {
    if (R.want === step) R.want = R.step; // the next click counts from the step shown
    showError(failure(x));
    return;
  }
  if (R.want !== step) return; // a later click won
  R.step = step;
  R.total = data.total;
  R.data = data;
  const url = new URL(location.href);
  url.searchParams.set("step", String(step));
  history.replaceState(null, "", url);
  render();
  if (step < R.total) fetchStep(step + 1).catch(() => {});
}

function failure(x) {
  if (x.status === 404) return t("replay.not_found");
  if (x.status === 403) return t("replay.private");
  return x.message;
}

function showError(text) {
  $("#replay-error-text").textContent = text;
  $("#replay-error").hidden = false;
  $("#replay-error a").focus();
}

// The step in words: the deal, or "Move 12 of 140" (the visible label, the slider's value text).
function stepLabel(d) {
  return d.step === 0 ? t("replay.at_start", { n: d.total })
    : t("replay.step", { step: formatNumber(d.step), total: formatNumber(d.total) });
}

// What the step's move did, in words: its public events ("Ann played Flat Tire on Bob."), else the move.
function moveWords(d, c) {
  const said = (d.events || []).map((ev) => describeEvent(ev, c)).filter(Boolean);
  if (said.length) return said.flatMap((nodes, i) => [...(i ? [" "] : []), ...nodes]);
  if (d.action === "draw") return tn("ev.draw", { name: seatName(c, d.seat) });
  return playedWords(d, c);
}

// "Ann: Play Roll": who played the step's move, and the move.
function playedWords(d, c) {
  return tn("replay.move", { name: seatName(c, d.seat), move: describeAction(d.action, c, null) });
}

// Tell the step in the live region once (a language change or a redraw does not repeat it), with what the
// review says of it.
function announce(d, c) {
  const judged = review ? review.words(d) : { key: "", nodes: [] };
  const key = `${d.step}|${judged.key}`;
  if (R.told === key) return;
  R.told = key;
  const extra = judged.nodes.length ? [" ", ...judged.nodes] : [];
  $("#announce").replaceChildren(...(d.step === 0 ? [stepLabel(d), ...extra]
    : [...tn("replay.announce", { step: formatNumber(d.step), total: formatNumber(d.total), text: moveWords(d, c) }), ...extra]));
}

// A pile as one image with a name that says what it is and how many cards it holds.
function pile(spot, label, card) {
  spot.setAttribute("aria-label", label);
  spot.replaceChildren(card);
  card.setAttribute("aria-hidden", "true");
}

function render() {
  const d = R.data;
  if (!d) return;
  const st = d.state;
  const c = ctx();
  $("#step").textContent = stepLabel(d);
  const range = $as("#step-range", HTMLInputElement);
  range.max = String(d.total);
  range.value = String(d.step);
  range.setAttribute("aria-valuetext", stepLabel(d));
  // a button that becomes disabled under the focus hands it to the button that still works
  const focused = focusedElement();
  $as("#first", HTMLButtonElement).disabled = $as("#prev", HTMLButtonElement).disabled = d.step === 0;
  $as("#next", HTMLButtonElement).disabled = $as("#last", HTMLButtonElement).disabled = d.step >= d.total;
  if (focused?.matches(":disabled")) (d.step === 0 ? $("#next") : $("#prev")).focus();
  $("#table-info").textContent = [editionName(R.facts?.ruleset), t("table.hand_n", { n: st.hand_number + 1 }),
    t("table.target", { target: formatNumber(st.target) })].filter(Boolean).join(" · ");

  const nsides = st.sides.length;
  document.body.dataset.sides = String(nsides);
  const box = $("#tableaux");
  box.dataset.count = String(Math.max(1, nsides - 1));
  box.replaceChildren(...st.sides.map((_, s) => tableauElement({
    tableau: st.tableaux[s], side: s, ctx: c, target: st.target, score: st.match_scores[s], mine: false,
    turnSeat: st.turn, toAct: st.to_act, handSizes: st.hand_sizes, showOnline: false,
  })));

  $("#stock-count").textContent = formatNumber(st.stock_size);
  pile($("#stock .spot-card"), t("replay.stock", { n: st.stock_size }), st.stock_size ? cardElement(null) : emptySlot("0"));
  const discards = st.discard_pile;
  const top = discards[discards.length - 1];
  $("#discard-count").textContent = formatNumber(discards.length);
  pile($("#discard .spot-card"), top ? t("replay.discard", { n: discards.length, card: cardName(top) }) : t("replay.discard_empty"),
    top ? cardElement(top) : emptySlot(t("table.discard")));

  // every hand: a heading with its owner and how many cards, then its cards as a list
  $("#hands").replaceChildren(...st.hands.map((hand, seat) => el("div", {
    class: `seat-hand${seat === st.to_act ? " acting" : ""}`, dataset: { seat: String(seat) },
  }, el("h3", {}, ...tn("replay.hand_of", { name: seatName(c, seat) }), " (", t("replay.hand_count", { n: hand.length }), ")"),
  el("div", { class: "cards", role: "list" }, ...hand.map((id) => {
    return cardElement(id, { class: "mini", role: "listitem" });
  })))));

  // "This move": the one played at this step, or the better move the review shows here in its place
  const better = review?.betterShown(d);
  $("#move").replaceChildren(...(better || (d.action ? playedWords(d, c) : [t("replay.start")])));
  $("#move-events").replaceChildren(...(better ? [] : (d.events || []).map((ev) => describeEvent(ev, c)).filter(Boolean)
    .map((text) => el("li", {}, text))));

  review?.render(d);
  announce(d, c);

  const scores = $("#replay-scores");
  const last = st.hand_results[st.hand_results.length - 1];
  if (st.is_over) { // the end: the score sheet of every hand
    scores.replaceChildren(el("p", { class: "winners" }, winnersText(st.winners, c)), scoreSheet({
      results: st.hand_results, ctx: c, options: st.options, winners: st.winners, scores: st.match_scores,
    }));
    return;
  }
  scores.replaceChildren(
    last ? breakdownTable(last, c, st.match_scores) : el("p", { class: "muted" },
      st.sides.map((_, s) => `${formatNumber(st.match_scores[s])}`).join(" – ")));
}

async function main() {
  await setupLangSelect($("#lang"));
  onLangChange(() => { R.told = ""; render(); }); // the live region says the step again, in the new language
  await loadCards();
  $("#first").addEventListener("click", () => go(0));
  $("#prev").addEventListener("click", () => go(R.want - 1));
  $("#next").addEventListener("click", () => go(R.want + 1)); // from the step asked for: quick taps all count
  $("#last").addEventListener("click", () => go(R.total));
  $("#step-range").addEventListener("input", (e) => go(Number(/** @type {HTMLInputElement} */ (e.target).value)));
  document.addEventListener("keydown", (e) => {
    if (targetOf(e).closest?.("input, select, textarea") || e.altKey || e.ctrlKey || e.metaKey) return;
    const to = {
      ArrowRight: R.want + 1, ArrowLeft: R.want - 1, PageDown: R.want + PAGE, PageUp: R.want - PAGE, Home: 0, End: R.total,
    }[e.key];
    if (to !== undefined) { e.preventDefault(); go(to); }
  });
  try {
    R.facts = await getJSON(`/api/tables/${encodeURIComponent(tableId)}`);
    $as("#rules-link", HTMLAnchorElement).href = `/rules?edition=${encodeURIComponent(R.facts.ruleset)}&players=${R.facts.players}`;
    $("#casual").hidden = !R.facts.casual; // a move was taken back at the table: the replay shows the moves kept
    $("#rated").hidden = !R.facts.rated; // a finished table says rated only once its match was rated
  } catch (x) {
    showError(t("replay.not_found"));
    return;
  }
  const start = Number(new URLSearchParams(location.search).get("step")) || 0;
  try {
    const first = await fetchStep(0);
    R.total = first.total;
  } catch (x) {
    showError(failure(x));
    return;
  }
  await go(start);
  review = setupReview({ tableId, ctx, go, step: () => R.step, total: () => R.total, redraw: render });
}

main();
