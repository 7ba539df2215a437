// @ts-check
// The table page: join with an invite link, then play in real time over the WebSocket /ws/{table}.
// The server is the only judge: a click or a key sends what was chosen, and an illegal choice comes back
// explained. Everything can be done with the keyboard alone (the terminal game's keys, Tab, Enter) and
// followed with a screen reader: every public event is told once in a polite live region, refusals in an
// alert, and every card, pile and tableau says what it is and how many cards it holds.
// This file is the page's entry: it wires the page's elements to the parts in table/ (the state, the socket
// and its frames, the drawing, choosing and playing, the join form, the other modules wired to them). Modal
// dialogs (dialogs.js), the focus across redraws (focus.js), what a screen reader is told (telling.js) and the
// keys and move bar (keys.js) are modules of their own.

import { setupLangSelect, onLangChange, t } from "./lib/words.js";
import { $, $as, targetOf } from "./lib/dom.js";
import { getJSON } from "./lib/http.js";
import { loadCards } from "./lib/cards.js";
import { forgetTold } from "./telling.js";
import { autoJoinNickname } from "./rematch.js";
import { stopMotion } from "./motion.js";
import { tableId, mySeat, token, byAccount, spectator, NICK_KEY, JOINED_KEY, S, mine, inWindow } from "./table/state.js";
import { dialogs, keys, seatAccount } from "./table/parts.js";
import { connect, send } from "./table/socket.js";
import {
  renderAll, fitArena, showHelp, fillHandOver, openMatchOver, tickCountdown, setTurn, windowText, say,
} from "./table/render.js";
import {
  takeBack, askHint, act, onHandClick, onHandPointerDown, onHandKey, onBoardClick, onDiscardClick, onStockClick, keyActivate,
} from "./table/play.js";
import { goodNickname, showJoinError, startJoin, renderJoinInfo } from "./table/join.js";
import { fillLessonEnd, setupLessonEnd } from "./table/lessonend.js";

setInterval(() => send({ type: "ping" }), 25000);
$("#take-back").addEventListener("click", () => { if (!send({ type: "back" })) say({ key: "msg.offline" }, true); });
window.addEventListener("resize", () => fitArena());
setInterval(() => {
  if (!$("#cf-dialog").hidden) tickCountdown();
  if (inWindow() && !mine()) setTurn(windowText());
}, 200);

async function main() {
  await setupLangSelect($("#lang"));
  onLangChange(() => {
    // what was told is told: the live regions start again in the new language
    forgetTold();
    stopMotion(); // a card in flight carries the old language's words
    renderJoinInfo();
    renderAll();
    if (!$("#hand-over").hidden && S.handOver) fillHandOver(S.handOver);
    if (!$("#learn-over").hidden) fillLessonEnd();
  });
  const cards = loadCards();
  // the join form is open from the start: a modal dialog like the others
  if (!$("#join-overlay").hidden) dialogs.adopt($("#join-overlay"));
  $("#hand").addEventListener("pointerdown", onHandPointerDown);
  $("#hand").addEventListener("click", onHandClick);
  $("#hand").addEventListener("keydown", onHandKey);
  $("#hand").addEventListener("focusin", (e) => {
    const card = /** @type {HTMLElement | null} */ (targetOf(e).closest(".card[data-index]"));
    if (card) S.focusIndex = Number(card.dataset.index);
    showHelp();
  });
  $("#hand").addEventListener("focusout", () => setTimeout(showHelp));
  // the pointer (a mouse over a card, or a finger held on it: a touch's pointer is over it while it is down)
  $("#hand").addEventListener("pointerover", (e) => {
    const card = /** @type {HTMLElement | null} */ (targetOf(e).closest(".card[data-index]"));
    S.pointed = card ? Number(card.dataset.index) : null;
    showHelp();
  });
  $("#hand").addEventListener("pointerleave", () => { S.pointed = null; showHelp(); });
  // a card on a tableau or the discard pile: what it does there (its piles say the rest in words)
  $("#arena").addEventListener("pointerover", (e) => {
    const card = /** @type {HTMLElement | null} */ (targetOf(e).closest(".tableau .card[data-card], #discard .card[data-card]"));
    S.board = card ? card.dataset.card : null;
    showHelp();
  });
  $("#arena").addEventListener("pointerleave", () => { S.board = null; showHelp(); });
  // a tableau reached by the keyboard: what the top of its battle pile (else its speed pile) does there
  $("#arena").addEventListener("focusin", (e) => {
    const tab = targetOf(e).closest?.(".tableau[data-side]");
    if (!tab) return;
    const top = $(".battle .card[data-card]", tab) || $(".speed .card[data-card]", tab);
    S.board = top ? top.dataset.card : null;
    S.pointed = null;
    showHelp();
  });
  $("#arena").addEventListener("focusout", () => { S.board = null; setTimeout(showHelp); });
  $("#arena").addEventListener("click", (e) => { if (targetOf(e).closest("#opponents, #me")) onBoardClick(e); });
  $("#arena").addEventListener("keydown", (e) => {
    if (targetOf(e).matches?.(".tableau[data-side]")) keyActivate(onBoardClick)(e);
  });
  $("#discard").addEventListener("click", onDiscardClick);
  $("#discard").addEventListener("keydown", keyActivate(onDiscardClick));
  $("#stock").addEventListener("click", onStockClick);
  $("#stock").addEventListener("keydown", keyActivate(onStockClick));
  $("#cf-yes").addEventListener("click", () => act("coup-fourre"));
  $("#cf-no").addEventListener("click", () => act("pass"));
  $("#ext-yes").addEventListener("click", () => act("extend"));
  $("#ext-no").addEventListener("click", () => act("end-hand"));
  $("#hint-button").addEventListener("click", askHint);
  $("#undo-button").addEventListener("click", takeBack);
  $("#keys-button").addEventListener("click", () => keys.toggleKeys());
  $("#hand-over-close").addEventListener("click", () => dialogs.close($("#hand-over")));
  // however the hand's score closes (its button, Esc, the match's end), the seat's clock may run from then
  new MutationObserver(() => {
    if (!$("#hand-over").hidden || !S.reading) return;
    S.reading = false;
    send({ type: "sheet-closed" });
  }).observe($("#hand-over"), { attributes: true, attributeFilter: ["hidden"] });
  $("#match-over-close").addEventListener("click", () => dialogs.close($("#match-over")));
  $("#match-result").addEventListener("click", openMatchOver);
  setupLessonEnd();
  $("#last-hand").addEventListener("click", () => {
    if (!S.lastResult) return;
    fillHandOver(S.lastResult);
    dialogs.open($("#hand-over"), "#hand-over-close");
  });
  document.addEventListener("keydown", keys.onKey);
  renderAll();

  let stored = "";
  try { stored = localStorage.getItem(NICK_KEY) || ""; } catch (e) { /* storage off */ }
  if (!$as("#nickname", HTMLInputElement).value) $as("#nickname", HTMLInputElement).value = stored;

  $("#join-form").addEventListener("submit", (e) => {
    e.preventDefault();
    if (!tableId || mySeat === null || !Number.isInteger(mySeat) || !(token || byAccount)) return;
    const nick = $as("#nickname", HTMLInputElement).value.normalize("NFC").trim();
    if (!goodNickname(nick)) { $("#join-error").textContent = t("join.bad_nickname"); return; }
    $("#join-error").textContent = "";
    cards.then(() => startJoin(nick));
  });

  if (spectator && tableId) { // no seat link: watch, with no join form, no hand and no hints
    dialogs.close($("#join-overlay"));
    document.body.dataset.spectator = "1";
    $("#watching").hidden = false;
    for (const node of [$(".hand-box"), $("#hint-button"), $(".hints-panel")]) node.hidden = true;
    cards.then(() => connect());
    return;
  }
  if (!tableId || mySeat === null || !Number.isInteger(mySeat) || !(token || byAccount)) {
    $as("#join", HTMLButtonElement).disabled = true;
    $as("#nickname", HTMLInputElement).disabled = true;
    $("#join-error").textContent = t("join.no_token");
    return;
  }
  seatAccount.look(); // signed out at a rated table: the join form says so
  // enabled only now, so that nothing is submitted before the page can handle it
  $as("#nickname", HTMLInputElement).disabled = false;
  $as("#join", HTMLButtonElement).disabled = false;
  if (!$("#nickname").matches(":focus") && !$("#join-overlay").hidden) $("#nickname").focus();
  getJSON(`/api/tables/${encodeURIComponent(tableId)}`).then((facts) => {
    S.facts = facts;
    if (!S.table) { S.table = facts; S.seats = facts.seats || []; S.status = facts.status; }
    renderJoinInfo();
    renderAll();
  }).catch((err) => {
    if (err?.status !== 410) return;
    showJoinError(t("msg.expired"));
    $as("#join", HTMLButtonElement).disabled = true;
    $as("#nickname", HTMLInputElement).disabled = true;
  });

  let joinedBefore = false;
  try { joinedBefore = localStorage.getItem(JOINED_KEY) === "1"; } catch (e) { /* storage off */ }
  const rematchNick = autoJoinNickname(tableId); // this page was opened by accepting a rematch: one click was enough
  if (byAccount) { // the account's seat has its nickname already: straight in
    dialogs.close($("#join-overlay"));
    cards.then(() => startJoin(null));
  } else if (joinedBefore || rematchNick) {
    if (rematchNick) $as("#nickname", HTMLInputElement).value = rematchNick;
    dialogs.close($("#join-overlay"));
    cards.then(() => startJoin(joinedBefore ? stored || null : rematchNick));
  }
}

// A handle for debugging and the browser tests (e.g. drop the socket to see the reconnection).
window.millebornes = { socket: () => S.ws, state: () => S };

main();
