// The replay viewer of a finished game: step through it move by move (buttons, the slider or the arrow
// keys); every hand is shown, since the game is over.

import {
  $, el, t, tn, nodesOf, getJSON, loadCards, setupLangSelect, onLangChange, describeEvent, describeAction, seatName,
  formatNumber,
} from "./common.js";
import { cardElement, emptySlot } from "./cards.js";
import { tableauElement, breakdownTable, winnersText } from "./board.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const R = { facts: null, total: 0, step: 0, cache: new Map(), data: null, want: 0 };

const ctx = () => ({ seats: R.facts?.seats || [], sides: R.data?.state?.sides || R.facts?.sides || [] });

function fetchStep(step) {
  if (!R.cache.has(step)) {
    const p = getJSON(`/api/tables/${encodeURIComponent(tableId)}/replay?step=${step}`);
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
    showError(x.status === 404 ? t("replay.not_found") : x.message);
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

function showError(text) {
  $("#replay-error-text").textContent = text;
  $("#replay-error").hidden = false;
}

function render() {
  const d = R.data;
  if (!d) return;
  const st = d.state;
  const c = ctx();
  $("#step").textContent = d.step === 0 ? `${t("replay.start")} (0 / ${d.total})` : t("replay.step", { step: d.step, total: d.total });
  const range = $("#step-range");
  range.max = String(d.total);
  range.value = String(d.step);
  $("#first").disabled = $("#prev").disabled = d.step === 0;
  $("#next").disabled = $("#last").disabled = d.step >= d.total;
  $("#table-info").textContent = [R.facts?.ruleset, t("table.hand_n", { n: st.hand_number + 1 }),
    t("table.target", { target: formatNumber(st.target) })].filter(Boolean).join(" · ");

  const nsides = st.sides.length;
  document.body.dataset.sides = String(nsides);
  const box = $("#tableaux");
  box.dataset.count = String(Math.max(1, nsides - 1));
  box.replaceChildren(...st.sides.map((_, s) => tableauElement({
    tableau: st.tableaux[s], side: s, ctx: c, target: st.target, score: st.match_scores[s], mine: false,
    turnSeat: st.turn, toAct: st.to_act, handSizes: st.hand_sizes, showOnline: false,
  })));

  $("#stock-count").textContent = String(st.stock_size);
  $("#stock .spot-card").replaceChildren(st.stock_size ? cardElement(null) : emptySlot("0"));
  const pile = st.discard_pile;
  $("#discard-count").textContent = String(pile.length);
  $("#discard .spot-card").replaceChildren(pile.length ? cardElement(pile[pile.length - 1]) : emptySlot(t("table.discard")));

  $("#hands").replaceChildren(...st.hands.map((hand, seat) => el("div", {
    class: `seat-hand${seat === st.to_act ? " acting" : ""}`, dataset: { seat: String(seat) },
  }, el("h3", {}, tn("replay.hand_of", { name: seatName(c, seat) })),
  el("div", { class: "cards" }, ...hand.map((id) => cardElement(id, { class: "mini" }))))));

  $("#move").replaceChildren(...(d.action ? [...nodesOf(seatName(c, d.seat)), ": ", ...describeAction(d.action, c, null)]
    : [t("replay.start")]));
  $("#move-events").replaceChildren(...(d.events || []).map((ev) => describeEvent(ev, c)).filter(Boolean)
    .map((text) => el("li", {}, text)));

  const scores = $("#replay-scores");
  const last = st.hand_results[st.hand_results.length - 1];
  scores.replaceChildren(
    st.is_over ? el("p", { class: "winners" }, winnersText(st.winners, c)) : "",
    last ? breakdownTable(last, c, st.match_scores) : el("p", { class: "muted" },
      st.sides.map((_, s) => `${formatNumber(st.match_scores[s])}`).join(" – ")));
}

async function main() {
  await setupLangSelect($("#lang"));
  onLangChange(render);
  await loadCards();
  $("#first").addEventListener("click", () => go(0));
  $("#prev").addEventListener("click", () => go(R.step - 1));
  $("#next").addEventListener("click", () => go(R.step + 1));
  $("#last").addEventListener("click", () => go(R.total));
  $("#step-range").addEventListener("input", (e) => go(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target.closest?.("input, select, textarea")) return;
    const to = { ArrowRight: R.step + 1, ArrowLeft: R.step - 1, Home: 0, End: R.total }[e.key];
    if (to !== undefined) { e.preventDefault(); go(to); }
  });
  try {
    R.facts = await getJSON(`/api/tables/${encodeURIComponent(tableId)}`);
  } catch (x) {
    showError(t("replay.not_found"));
    return;
  }
  const start = Number(new URLSearchParams(location.search).get("step")) || 0;
  try {
    const first = await fetchStep(0);
    R.total = first.total;
  } catch (x) {
    showError(x.status === 404 ? t("replay.not_found") : x.message);
    return;
  }
  await go(start);
}

main();
