// @ts-check
// The rematch on the table page: in #match-over, each human seat's answer (from the welcome and the `rematch`
// frames) and, for a seat, "Rematch" and "No, thanks"; the private `rematch-seat` link of an accepted seat, where
// the page goes at once to take the same seat with the same nickname (one click); and, on a rematch still waiting
// for players, the button that gives the empty seats to bots. table.js knows it by three calls: onFrame, render,
// autoJoinNickname.

import { t, tn, seatName, errorMessage } from "./lib/words.js";
import { $, el } from "./lib/dom.js";
import { announce, textOf } from "./telling.js";

const REFUSALS = new Set(["not-finished", "joined", "started", "server", "rate", "malformed"]);
const autoJoinKey = (tableId) => `millebornes.autojoin.${tableId}`;

// The nickname to take the seat with at once, when this page was opened by accepting a rematch (asked once).
export function autoJoinNickname(tableId) {
  try {
    const nick = sessionStorage.getItem(autoJoinKey(tableId));
    sessionStorage.removeItem(autoJoinKey(tableId));
    return nick || null;
  } catch (e) {
    return null;
  }
}

// send(frame) -> bool; now() -> {spectator, joined, mySeat, status, table, ctx}
export function rematchPanel({ send, now, say }) {
  let offer = null; // {table, seats: [{seat, answer}]}
  let mine = null; // the answer this page sent last, until the server's frame says it

  const answerKey = { yes: "rematch.answer_yes", no: "rematch.answer_no" };
  const answerText = (a, ctx) => tn(answerKey[a.answer] || "rematch.answer_none", { name: seatName(ctx, a.seat) });

  function setOffer(next, tell) {
    const before = new Map((offer?.seats || []).map((a) => [a.seat, a.answer]));
    offer = { table: next.table ?? null, seats: Array.isArray(next.seats) ? next.seats : [] };
    const n = now();
    if (tell) {
      for (const a of offer.seats) {
        if (a.seat !== n.mySeat && a.answer && before.get(a.seat) !== a.answer) announce(textOf(answerText(a, n.ctx)));
      }
    }
    render();
  }

  function answer(yes) {
    mine = yes;
    if (!send({ type: "rematch", answer: yes })) { say({ key: "msg.offline" }, true); return; }
    $("#rematch-status").textContent = yes ? t("rematch.going") : "";
  }

  function go(frame) {
    const nick = now().nickname;
    try { if (nick) sessionStorage.setItem(autoJoinKey(frame.table), nick); } catch (e) { /* storage off */ }
    location.assign(frame.url);
  }

  // true when the frame was the rematch's
  function onFrame(f) {
    if (f.type === "welcome" && f.rematch) { setOffer(f.rematch, false); return false; }
    if (f.type === "rematch") { setOffer(f, true); return true; }
    if (f.type === "rematch-seat" && typeof f.url === "string" && f.url.startsWith("/t/")) { go(f); return true; }
    if (f.type === "error" && !$("#rematch").hidden && REFUSALS.has(f.code)) { // said in the dialog too: #message is under it
      $("#rematch-status").textContent = errorMessage(f, now().ctx);
    }
    return false;
  }

  function render() {
    const n = now();
    const box = $("#rematch");
    const seated = !n.spectator && n.joined && n.mySeat !== null;
    const finished = n.status === "finished";
    box.hidden = !finished || (!seated && !offer?.table);
    if (!box.hidden) {
      $("#rematch-answers").replaceChildren(...(offer?.seats || []).map((a) => el("li", {
        dataset: { seat: String(a.seat), answer: a.answer || "" },
      }, ...answerText(a, n.ctx))));
      const myAnswer = offer?.seats.find((a) => a.seat === n.mySeat)?.answer ?? null;
      for (const id of ["#rematch-yes", "#rematch-no"]) $(id).hidden = !seated;
      $("#rematch-no").setAttribute("aria-pressed", myAnswer === "no" ? "true" : "false");
      if (myAnswer === "no" && mine === false) $("#rematch-status").textContent = t("rematch.declined");
    }
    const fill = $("#fill-bots");
    fill.hidden = !(!n.spectator && n.joined && n.status === "waiting" && n.table?.rematch_of);
  }

  $("#rematch-yes").addEventListener("click", () => answer(true));
  $("#rematch-no").addEventListener("click", () => answer(false));
  $("#fill-bots").addEventListener("click", () => {
    if (!send({ type: "fill-bots" })) say({ key: "msg.offline" }, true);
  });
  return { onFrame, render };
}
