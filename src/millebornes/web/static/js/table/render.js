// The table page: join with an invite link, then play in real time over the WebSocket /ws/{table}.
// The server is the only judge: a click or a key sends what was chosen, and an illegal choice comes back
// explained. Everything can be done with the keyboard alone (the terminal game's keys, Tab, Enter) and
// followed with a screen reader: every public event is told once in a polite live region, refusals in an
// alert, and every card, pile and tableau says what it is and how many cards it holds.
// This file is the page's wiring: its state, the socket and the drawing. Modal dialogs (dialogs.js), the focus
// across redraws (focus.js), what a screen reader is told (telling.js) and the keys and move bar (keys.js) are
// modules of their own.

import * as common from "../lib/words.js";
import {
  t, tn, setupLangSelect, onLangChange, describeEvent, describeAction, errorMessage, seatName, sideName, sidesNames,
  cardName, percent, formatNumber, getLang,
} from "../lib/words.js";
import { $, el } from "../lib/dom.js";
import { getJSON } from "../lib/http.js";
import { loadCards, SAFETY_OF, CARDS } from "../lib/cards.js";
import { cardElement, cardLabel, emptySlot } from "../cards.js";
import { tableauElement, breakdownTable, winnersText, pileOf } from "../board.js";
import { dialogStack } from "../dialogs.js";
import { focusKeeper, focusNode, focusLost, handCard } from "../focus.js";
import { textOf, announce, alertSR, forgetTold, tellEvents, tellTurn, tellChosen } from "../telling.js";
import { keyboard, touchScreen } from "../keys.js";
import { quickChat } from "../chat.js";
import { cardHelp } from "../cardhelp.js";
import { renderLesson } from "../learn.js";
import { rememberAccountSeat, rememberSeat, replacedToken, linkedToken } from "../mytables.js";
import { scoreSheet } from "../sheet.js";
import { rematchPanel, autoJoinNickname } from "../rematch.js";
import { snapshot, animate, stopMotion } from "../motion.js";
import { gameSounds } from "../sounds.js";
import { handSheet } from "../handsheet.js";
import { presenceNotes } from "../presence.js";
import { ratedSeat } from "../ratedseat.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const SEAT_KEY = `millebornes.seat.${tableId}`;
const invite = takeInvite();
const mySeat = invite.seat;
let token = invite.token; // replaced by the welcome of the seat's first join (keepToken)
// A seat of the signed-in account opened without its link (#seat=N&account=1: another device): the join says
// account: true and the server reads the sign-in (docs/web.md, "Accounts").
const byAccount = !token && invite.account === true;
// A page opened without a seat link watches: the server sends what a spectator sees, no hand, no choice.
const spectator = !token && !byAccount;

// The invite link's seat and token (#seat=N&token=...) move to this tab's sessionStorage as soon as the
// page reads them, and leave the address bar: a shared screen, the history or a bookmark never shows
// the token. A reload of the tab finds them there. A seat's first join replaces its token (the invite
// link then opens nothing): the same link opened again in this tab, or in this browser after My tables
// recorded the seat, takes the new token instead. A seat opened by the account (#seat=N&account=1) takes this
// browser's link of it when My tables has one, else is joined by the account.
function takeInvite() {
  const frag = new URLSearchParams(location.hash.replace(/^#/, ""));
  const seatOf = () => (frag.has("seat") ? Number(frag.get("seat")) : null);
  if (frag.get("account") === "1" && !frag.has("token")) {
    const seat = seatOf();
    const known = Number.isInteger(seat) ? linkedToken(tableId, seat) : null;
    const kept = known ? { seat, token: known } : { seat, account: true };
    try {
      sessionStorage.setItem(SEAT_KEY, JSON.stringify(kept));
      history.replaceState(null, "", location.pathname + location.search);
    } catch (e) { /* storage off */ }
    return { token: null, ...kept };
  }
  const given = frag.has("token") ? { seat: seatOf(), token: frag.get("token") } : null;
  try {
    const kept = JSON.parse(sessionStorage.getItem(SEAT_KEY) || "null");
    if (given) {
      const again = kept && kept.seat === given.seat && kept.used === given.token;
      const fresh = again ? null : replacedToken(tableId, given.seat, given.token);
      if (!again) {
        sessionStorage.setItem(SEAT_KEY, JSON.stringify(fresh ? { ...given, token: fresh, used: given.token } : given));
      }
      history.replaceState(null, "", location.pathname + location.search);
    }
    const now = JSON.parse(sessionStorage.getItem(SEAT_KEY) || "null");
    if (now && typeof now.token === "string") return { seat: now.seat, token: now.token };
    if (now && now.account === true) return { seat: now.seat, token: null, account: true };
  } catch (e) { /* storage off: the link in the address bar is all there is */ }
  return given || { seat: null, token: null };
}

// The welcome of a seat's first join carries its new token: this tab and My tables keep it (a reload, a
// reconnect), with the invite token it replaced, which no longer opens the seat.
function keepToken(fresh) {
  const used = token;
  token = fresh;
  try { sessionStorage.setItem(SEAT_KEY, JSON.stringify({ seat: mySeat, token, used })); } catch (e) { /* storage off */ }
  rememberSeat(tableId, S.table?.ruleset, mySeat, token, used);
}
const NICK_KEY = "millebornes.nickname";
const JOINED_KEY = `millebornes.joined.${tableId}.${mySeat}`;

const S = {
  table: null,        // public facts (welcome / GET /api/tables/{id})
  facts: null,        // the facts GET /api/tables/{id} gave before joining (the join form's line)
  seats: [],          // seat facts
  obs: null,          // the seat's observation
  seq: null,          // seq of the last state
  status: null,
  cfDeadline: null,   // performance.now() ms when the coup-fourré countdown ends
  cfTotal: null,
  selected: null,     // index in the hand of the chosen card
  focusIndex: 0,      // the hand card in the Tab order (roving tabindex)
  log: [],            // public events, oldest first
  logCount: 0,        // events ever added to the log (the log's redraw key)
  hints: null,        // null, "wait" or the hint frame
  joined: false,
  lastResult: null,   // the last hand-over event
  reading: false,     // #hand-over shows a hand just over: the server holds this seat's clock until it closes
  message: null,      // {key, params} | {frame} for #message
  landed: null,       // the card just played: {side, pile, card, fresh} (pile "discard" for the discard pile)
  ws: null,
  retry: 0,
  nickname: null,
  matchShown: false,
};

const help = cardHelp();
const sounds = gameSounds($("#game-sounds"));
// a spectator has no hand: no sheet, the sidebar keeps the log
const sheet = spectator ? { showHints() {} } : handSheet();
const ctx = () => ({ seats: S.seats, sides: S.obs?.sides ?? S.table?.sides ?? [] });
// who left the table and when a bot takes their seat, on their tableau and in the turn line
const presence = presenceNotes({ ctx, mySeat: spectator ? null : mySeat });

// Under a dialog the language menu stays usable (a panel may be read in either language) and the live
// regions keep talking.
const dialogs = dialogStack({
  except: [".topbar .lang", "#announce", "#sr-alert"],
  remember: () => focusKey(),
  lost: focusLost,
  giveBack: (where) => restoreFocus(where),
});
const { key: focusKey, restore: restoreFocus, keep: keepFocus } = focusKeeper({
  handIndex: () => S.focusIndex, toDialog: () => dialogs.hold(),
});
const keys = keyboard({
  now: () => ({ joined: S.joined, obs: S.obs, selected: S.selected, mine: mine(), ctx: ctx() }),
  act, say, choose, putDown, askHint, takeBack, dialogs,
});
const chat = quickChat({ send, ctx, seat: mySeat, spectator, tableId });

// the seat brought into a signed-in account; at a rated table, what a signed-out page is told, and the rating after
const seatAccount = ratedSeat({
  tableId, seat: mySeat, spectator, token: () => token, byAccount, say,
  now: () => ({ table: S.table, joined: S.joined, over: Boolean(S.obs?.is_over || S.status === "finished") }),
});

const rematch = rematchPanel({
  send, say,
  now: () => ({ spectator, joined: S.joined, mySeat, status: S.status, table: S.table, ctx: ctx(),
    nickname: S.seats.find((s) => s.seat === mySeat)?.nickname || S.nickname }),
});

// ------------------------------------------------------------------ socket
// The refusals after which the server closes the socket (4410, 4429) and the page does not come back.
const CLOSING = new Set(["expired", "seat-full", "table-full", "too-many"]);
// Why a seat opened by the account was refused: signed out here, another account, or another site's page.
const ACCOUNT_REFUSALS = { "signed-out": "join.account_signed_out", auth: "join.account_not_held", "cross-site": "join.account_not_held" };

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  S.ws = ws;
  setConn(t("turn.connecting"));
  ws.addEventListener("open", () => {
    if (spectator) { ws.send(JSON.stringify({ type: "watch" })); return; }
    const join = byAccount ? { type: "join", seat: mySeat, account: true } : { type: "join", seat: mySeat, token };
    if (S.nickname) join.nickname = S.nickname;
    ws.send(JSON.stringify(join));
  });
  ws.addEventListener("message", (e) => {
    let frame;
    try { frame = JSON.parse(e.data); } catch (err) { return; }
    onFrame(frame);
  });
  ws.addEventListener("close", (e) => {
    if (S.ws !== ws) return;
    S.ws = null;
    if (spectator && (e.code === 4401 || e.code === 4403)) { setConn(""); return; } // no table, or no spectators
    if (e.code === 4410 || e.code === 4429) { setConn(""); return; } // expired, or over a cap: its error said so
    if ((e.code === 4401 || (byAccount && e.code === 4403)) && !S.joined) {
      if (!byAccount || !$("#join-error").textContent) showJoinError(t(byAccount ? "join.account_not_held" : "msg.auth"));
      setConn("");
      return;
    }
    if (e.code === 4401) { say({ key: "msg.auth" }, true); setConn(""); return; }
    // 1012: the server is stopping and hands its pages over: back at once (spread over half a second, so that
    // its pages do not all come back in one burst); a failed attempt then backs off as usual
    const handedOver = e.code === 1012 && S.retry === 0;
    const delay = handedOver ? Math.random() * 0.5 : Math.min(10, 0.5 * 2 ** S.retry);
    S.retry += 1;
    const shown = delay < 1 ? Math.max(0.1, Math.round(delay * 10) / 10) : Math.round(delay);
    setConn(t("msg.reconnecting", { s: formatNumber(shown) }), true);
    setTimeout(connect, delay * 1000);
  });
}

function send(frame) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) {
    S.ws.send(JSON.stringify(frame));
    return true;
  }
  return false;
}

function act(action) {
  if (spectator) { say({ key: "msg.spectator" }, true); return; }
  S.selected = null;
  keys.endAim();
  if (S.message && !S.message.isError) setMessage(null);
  if (!send({ type: "act", action, seq: S.seq })) say({ key: "msg.offline" }, true);
  keepFocus(() => { renderHand(); keys.renderMoves(); renderTargets(); });
}

setInterval(() => send({ type: "ping" }), 25000);
$("#take-back").addEventListener("click", () => { if (!send({ type: "back" })) say({ key: "msg.offline" }, true); });

function onFrame(f) {
  if (rematch.onFrame(f)) return;
  if (chat.frame(f)) return;
  switch (f.type) {
    case "welcome": {
      const wasJoined = S.joined;
      S.joined = true;
      S.retry = 0;
      S.table = f.table || S.table;
      S.seats = f.table?.seats || S.seats;
      S.status = f.table?.status || S.status;
      S.log = Array.isArray(f.log) ? f.log.slice() : S.log;
      S.logCount += 1;
      S.fresh = true; // the next state's events are already in this log
      try { localStorage.setItem(JOINED_KEY, "1"); } catch (e) { /* storage off */ }
      if (!spectator && typeof f.token === "string" && f.token) keepToken(f.token);
      else if (byAccount && !wasJoined) rememberAccountSeat(tableId, S.table?.ruleset, mySeat);
      else if (!spectator && !wasJoined) rememberSeat(tableId, S.table?.ruleset, mySeat, token); // the home page's "My tables"
      if (!spectator && !wasJoined) seatAccount.joined();
      dialogs.close($("#join-overlay"));
      setConn("");
      say(wasJoined ? { key: "msg.reconnected" } : { key: spectator ? "table.watching_note" : "msg.joined" });
      renderAll();
      break;
    }
    case "state": {
      const before = snapshot();
      const prevSeq = S.seq;
      const oldHand = S.obs?.hand || [];
      S.obs = f.observation;
      if (!Array.isArray(S.obs.hand)) S.obs.hand = []; // a spectator's frame holds no hand
      S.refused = f.refused ?? null;
      S.lesson = f.lesson ?? null;
      S.canUndo = Boolean(f.undo);
      help.load(S.obs.ruleset, S.obs.players).then(showHelp);
      S.seq = f.seq;
      if (f.seats) S.seats = f.seats;
      if (f.status) S.status = f.status;
      presence.update(S.seats, S.status === "playing" && !S.obs.is_over);
      // who decides, since when and until when, in this page's clock (js/clock.js shows them)
      // a clock paused while its seat reads the score starts `paused` seconds from now
      const paused = (f.turn?.paused ?? 0) * 1000;
      S.turn = f.turn ? { seat: f.turn.seat, since: Date.now() - f.turn.for * 1000,
        ends: f.turn.left == null ? null : Date.now() + paused + f.turn.left * 1000,
        starts: paused ? Date.now() + paused : null } : null;
      S.cfTotal = f.cf_deadline ?? null;
      S.cfDeadline = f.cf_deadline == null ? null : performance.now() + f.cf_deadline * 1000;
      if (S.obs.hand.join(",") !== oldHand.join(",")) { S.selected = null; keys.endAim(); }
      if (prevSeq !== f.seq) S.hints = null;
      const events = f.events || [];
      const live = !S.fresh && prevSeq !== null && f.seq !== prevSeq;
      S.fresh = false;
      // a refusal or a notice speaks of the position it came with: once the position moved on it goes (the state
      // that follows a welcome keeps the welcome's "Connected again.")
      if (live && S.message) S.message = null;
      if (live) {
        S.log.push(...events);
        S.logCount += events.length;
        if (S.log.length > 400) S.log.splice(0, S.log.length - 400);
        noteLanded(events);
        tellEvents(events, ctx(), mySeat, oldHand, S.obs.hand);
      }
      const over = events.find((e) => e.type === "hand-over");
      if (over && live) {
        S.lastResult = over;
        if (!S.obs.is_over) fillHandOver(over); // at the match's end #match-over shows the breakdown
      }
      if (S.obs.hand_results?.length && !S.lastResult) S.lastResult = S.obs.hand_results[S.obs.hand_results.length - 1];
      renderAll();
      if (live) animate(events, before, { mySeat: spectator ? null : mySeat, sideOf, obs: S.obs, sound: sounds.play });
      if (over && live && !S.obs.is_over) {
        S.reading = !spectator;
        dialogs.open($("#hand-over"), "#hand-over-close");
      }
      tellTurn(mine() && !S.obs.is_over && S.status === "playing" ? S.obs.decision : null, S.obs.hand_number);
      if (S.undone) tellUndone();
      break;
    }
    case "undone": // moves taken back: the log as it now stands, then a state frame with the position
      S.log = Array.isArray(f.log) ? f.log.slice() : [];
      S.logCount += 1;
      S.fresh = true;
      S.landed = null;
      S.undone = f;
      if (S.table) S.table.casual = true;
      break;
    case "seats":
      S.seats = f.seats || S.seats;
      presence.update(S.seats, S.status === "playing" && !S.obs?.is_over);
      renderAll();
      break;
    case "hint":
      if (f.seq === S.seq || f.seq === undefined) {
        S.hints = f;
        keepFocus(() => { renderHints(); markHinted(); });
        const best = Array.isArray(f.actions) ? f.actions[0] : null;
        if (best) {
          const action = textOf(describeAction(best.action, ctx(), S.obs));
          announce(typeof best.match_chance === "number"
            ? t("a11y.hint_match", { action, chance: chanceText(best.win_chance), match: chanceText(best.match_chance) })
            : t("a11y.hint", { action, chance: chanceText(best.win_chance) }));
        }
      }
      break;
    case "error":
      if (spectator && !S.joined && f.code === "auth") { say({ key: "msg.no_table" }, true); break; }
      if (spectator && !S.joined && f.code === "finished") { location.replace(`/replay/${encodeURIComponent(tableId)}`); break; }
      if (byAccount && !S.joined && ACCOUNT_REFUSALS[f.code]) { showJoinError(t(ACCOUNT_REFUSALS[f.code])); break; }
      if (f.code === "auth" && !S.joined && !spectator) showJoinError(t("msg.auth"));
      if (CLOSING.has(f.code) && !S.joined && !spectator) showJoinError(errorMessage(f));
      if (f.code === "malformed" && !S.joined && !spectator) { // the server refused the nickname: try another
        showJoinError(t("join.bad_nickname"));
        const ws = S.ws;
        S.ws = null;
        ws?.close();
        break;
      }
      say({ frame: f }, true);
      if (S.hints === "wait") { S.hints = null; keepFocus(renderHints); }
      break;
    default:
      break;
  }
}

function sideOf(seat) {
  const i = (ctx().sides || []).findIndex((l) => l.includes(seat));
  return i < 0 ? seat : i;
}

// Where the last card landed: the pile of its side, or the discard pile.
function noteLanded(events) {
  for (const ev of events) {
    if (ev.type === "deal") S.landed = null;
    if (ev.type === "discard") S.landed = { pile: "discard", card: ev.card, fresh: true };
    if (ev.type === "take-discard") S.landed = null;
    if (ev.type === "coup-fourre") S.landed = { side: sideOf(ev.seat), pile: "safety", card: ev.card, fresh: true };
    if (ev.type === "play") S.landed = { side: ev.side ?? sideOf(ev.seat), pile: pileOf(ev.card), card: ev.card, fresh: true };
  }
}

// ------------------------------------------------------------------ rendering
function renderAll() {
  keepFocus(() => {
    renderInfo();
    renderBoard();
    renderHand();
    renderPiles();
    renderTurn();
    renderLog();
    renderHints();
    markHinted();
    renderUndo();
    keys.renderMoves();
    renderTargets();
    renderMessage();
    renderLesson(S.lesson);
    const undo = !S.table?.rated && S.seats.filter((x) => x.kind === "human").length === 1;
    keys.renderKeys(S.obs?.sides.length ?? S.table?.sides?.length ?? 2, S.obs?.hand.length || 7, undo);
    fitArena();
  });
  renderDialogs();
  seatAccount.render();
  if (S.landed) S.landed.fresh = false;
}

// Shrink the cards (CSS --fit) until the arena fits the window; grow them back when there is room.
function fitArena() {
  const arena = $("#arena");
  if (!S.obs || getComputedStyle(arena).overflowY === "visible") return;
  let fit = 1.15;
  arena.style.setProperty("--fit", String(fit));
  while (arena.scrollHeight > arena.clientHeight + 1 && fit > 0.55) {
    fit = Math.round((fit - 0.05) * 100) / 100;
    arena.style.setProperty("--fit", String(fit));
  }
}
window.addEventListener("resize", () => fitArena());

// The edition's name for players (the catalog's, where common.js has it), the hand, its target and, for
// editions played over several hands, the match's goal.
function renderInfo() {
  const tb = S.table;
  const obs = S.obs;
  const parts = [];
  const ruleset = tb?.ruleset ?? obs?.ruleset ?? "";
  parts.push(common.editionName ? common.editionName(ruleset) || ruleset : ruleset);
  if (obs) {
    parts.push(t("table.hand_n", { n: obs.hand_number + 1 }));
    parts.push(t("table.target", { target: formatNumber(obs.target) }));
    const goal = obs.options?.match_target;
    if (goal) parts.push(t("table.match_to", { target: formatNumber(goal) }));
  }
  const info = parts.filter(Boolean).join(" · ");
  $("#table-info").textContent = info;
  $("#table-info").title = info; // a narrow top bar shows two lines of it
  const players = obs?.players ?? tb?.players;
  if (ruleset) $("#rules-link").href = `/rules?edition=${encodeURIComponent(ruleset)}${players ? `&players=${players}` : ""}`;
  const over = Boolean(obs?.is_over || S.status === "finished");
  $("#last-hand").hidden = !S.lastResult || over; // once over, the match's sheet holds every hand
  $("#match-result").hidden = !over;
}

// Replace only the children whose drawing changed, so that a tableau holding the focus keeps it (and a
// screen reader does not read it again) when nothing on it moved.
function updateChildren(box, items) {
  const now = [...box.children];
  const make = (it) => { const node = it.build(); node.dataset.sig = it.sig; return node; };
  if (now.length !== items.length || now.some((n, i) => n.dataset.side !== items[i].key)) {
    box.replaceChildren(...items.map(make));
    return;
  }
  items.forEach((it, i) => { if (now[i].dataset.sig !== it.sig) now[i].replaceWith(make(it)); });
}

function renderBoard() {
  const obs = S.obs;
  const opp = $("#opponents");
  const me = $("#me");
  if (!obs) { opp.replaceChildren(); me.replaceChildren(); return; }
  const nsides = obs.sides.length;
  const base = obs.side ?? 0; // a spectator sees the table from side 1's chair
  document.body.dataset.sides = String(nsides);
  const view = (side) => ({
    tableau: obs.tableaux[side], side, ctx: ctx(), target: obs.target, score: obs.match_scores[side],
    mine: side === obs.side, turnSeat: obs.turn, toAct: obs.to_act, handSizes: obs.hand_sizes, mySeat,
    focusable: true, landed: S.landed?.side === side ? S.landed : null, awayNote: presence.note,
  });
  const item = (side) => {
    const v = view(side);
    const sig = JSON.stringify([getLang(), v.tableau, v.score, v.target, v.turnSeat, v.toAct, v.handSizes, S.seats,
      v.landed && [v.landed.pile, v.landed.card]]);
    return { key: String(side), sig, build: () => tableauElement(v) };
  };
  const others = [];
  for (let k = 1; k < nsides; k++) others.push((base + k) % nsides);
  updateChildren(opp, others.map(item));
  opp.dataset.count = String(others.length);
  updateChildren(me, [item(base)]);
}

// The hand: one button per card, a single Tab stop (roving tabindex: the arrow keys move within it).
// Cards are drawn again only when the hand changes; selection and marks change in place.
function renderHand() {
  const hand = $("#hand");
  const obs = S.obs;
  if (!obs) { hand.replaceChildren(); hand.dataset.sig = ""; hand.setAttribute("aria-label", t("table.hand")); return; }
  const legal = obs.legal_actions || [];
  const n = obs.hand.length;
  S.focusIndex = Math.max(0, Math.min(n - 1, S.focusIndex));
  hand.setAttribute("aria-label", t("hand.label", { n }));
  hand.tabIndex = -1;
  const sig = `${getLang()}|${obs.hand.join(",")}`;
  if (hand.dataset.sig !== sig) {
    hand.dataset.sig = sig;
    hand.replaceChildren(...obs.hand.map((id, i) => {
      const node = cardElement(id, { index: i, role: "button", label: cardLabel(id) });
      if (i < 9) {
        node.setAttribute("aria-keyshortcuts", String(i + 1));
        node.append(el("span", { class: "key-badge", "aria-hidden": "true" }, String(i + 1)));
      }
      return node;
    }));
  }
  [...hand.children].forEach((node, i) => {
    const id = obs.hand[i];
    const playable = legal.some((a) => a === `play ${id}` || a.startsWith(`play ${id} `));
    node.classList.toggle("selected", S.selected === i);
    node.classList.toggle("playable", playable);
    node.setAttribute("aria-pressed", S.selected === i ? "true" : "false");
    node.tabIndex = i === S.focusIndex ? 0 : -1;
    node.setAttribute("aria-describedby", "card-help");
  });
  markHinted();
  showHelp();
}

// #card-help: the card under the pointer, else the focused hand card, else the chosen one (js/cardhelp.js).
function showHelp() {
  const box = $("#card-help");
  const hand = S.obs?.hand || [];
  // on a touch screen the focus only follows taps: the card chosen or held says it
  const focused = touchScreen() ? null : document.activeElement?.closest?.("#hand .card[data-index]");
  const i = [S.pointed, focused ? Number(focused.dataset.index) : null, S.selected].find((x) => x != null && x < hand.length);
  if (S.board && S.pointed == null) { box.textContent = help.line(S.board, undefined, ctx()); return; }
  if (i === undefined) { box.textContent = ""; return; }
  box.textContent = help.line(hand[i], S.refused ? S.refused[i] : undefined, ctx());
}

function renderPiles() {
  const obs = S.obs;
  const stockSpot = $("#stock .spot-card");
  const discardSpot = $("#discard .spot-card");
  if (!obs) return;
  $("#stock-count").textContent = formatNumber(obs.stock_size);
  $("#stock-name").textContent = t("pile.stock", { n: obs.stock_size });
  stockSpot.replaceChildren(obs.stock_size ? cardElement(null) : emptySlot("0"));
  const pile = obs.discard_pile;
  const top = pile[pile.length - 1];
  $("#discard-count").textContent = formatNumber(pile.length);
  $("#discard-name").textContent = top ? t("pile.discard", { n: pile.length, card: cardName(top) }) : t("pile.discard_empty");
  const landed = S.landed?.pile === "discard" && S.landed.card === top;
  const sig = `${getLang()}|${top}|${landed}`;
  if (discardSpot.dataset.sig !== sig) {
    discardSpot.dataset.sig = sig;
    discardSpot.replaceChildren(top ? cardElement(top, { class: landed ? `landed${S.landed.fresh ? " fresh" : ""}` : "" })
      : emptySlot(t("table.discard")));
  }
  $("#discard").classList.toggle("pickup", !!obs.pickup_available);
}

// my decision: the seat to act, or, in a coup-fourré window, the one holding the safety (it alone has choices)
function mine() { return !spectator && Boolean(S.obs && (S.obs.to_act === mySeat || (S.obs.legal_actions || []).length)); }

// after a hazard a human could answer, everyone waits the same few seconds, whoever holds the safety
function inWindow() { return Boolean(S.obs && S.obs.decision === "coup-fourre" && S.obs.to_act === null); }

function windowText() {
  const pa = S.obs.pending_attack;
  const left = S.cfDeadline === null ? 0 : Math.max(0, (S.cfDeadline - performance.now()) / 1000);
  return tn("turn.cf_window", { name: seatName(ctx(), pa.attacker), hazard: cardName(pa.hazard), s: Math.ceil(left) });
}

// #turn: whose turn, in words, for the eye (a screen reader hears "your turn" from #announce instead, and
// not the coup-fourré countdown every second)
function setTurn(nodes) {
  const turn = $("#turn");
  const text = textOf(nodes);
  if (turn.dataset.text === text && turn.dataset.lang === getLang()) return;
  turn.dataset.text = text;
  turn.dataset.lang = getLang();
  turn.replaceChildren(...(Array.isArray(nodes) ? nodes : [nodes]));
}

function renderTurn() {
  const obs = S.obs;
  const turn = $("#turn");
  turn.classList.remove("yours");
  // state in attributes, for scripts and tests: whose decision, which, on which state
  turn.dataset.seq = S.seq === null ? "" : String(S.seq);
  turn.dataset.status = S.status || "";
  turn.dataset.decision = S.obs?.decision || "";
  turn.dataset.mine = mine() ? "1" : "0";
  renderClockData(turn);
  $("#standin-box").hidden = spectator || !S.seats.find((s) => s.seat === mySeat)?.standin;
  if (!obs) { setTurn(S.joined ? "" : t("turn.connecting")); return; }
  if (S.status === "waiting") {
    const missing = S.seats.filter((s) => s.kind === "human" && !s.nickname).map((s) => t("seat.empty", { n: s.seat + 1 }));
    setTurn(t("turn.waiting", { names: missing.join(", ") || "…" }));
    return;
  }
  if (obs.is_over) { setTurn(t("turn.over")); return; }
  if (S.status === "broken") { setTurn(t("turn.broken")); return; }
  const d = obs.decision;
  const key = { play: "play", draw: "draw", "coup-fourre": "cf", extension: "ext" }[d] || "play";
  if (mine()) {
    setTurn(t(`turn.yours_${key}`));
    turn.classList.add("yours");
  } else if (inWindow()) {
    setTurn(windowText());
  } else {
    setTurn(presence.note(obs.to_act, "span") || tn(`turn.other_${key}`, { name: seatName(ctx(), obs.to_act) }));
  }
}

// The turn clock's facts, as attributes of #turn for js/clock.js, which ticks them every second.
function renderClockData(turn) {
  const tc = S.status === "playing" && !S.obs?.is_over ? S.turn : null;
  turn.dataset.clockSeat = tc ? String(tc.seat) : "";
  turn.dataset.clockMine = tc && tc.seat === mySeat && !spectator ? "1" : "0";
  turn.dataset.clockName = tc ? textOf(seatName(ctx(), tc.seat)) : "";
  turn.dataset.clockSince = tc ? String(tc.since) : "";
  turn.dataset.clockEnds = tc?.ends ? String(tc.ends) : "";
  turn.dataset.clockAway = tc && presence.has(tc.seat) ? "1" : ""; // the turn line says who left instead
  turn.dataset.clockStarts = tc?.starts ? String(tc.starts) : "";
}

function renderLog() {
  const list = $("#log");
  const sig = `${getLang()}|${S.logCount}|${JSON.stringify(S.seats)}`;
  if (list.dataset.sig === sig) return;
  list.dataset.sig = sig;
  const c = ctx();
  const items = [];
  for (const ev of S.log.slice(-200)) {
    const text = describeEvent(ev, c);
    if (text) items.push(el("li", { class: `ev-${ev.type}` }, text));
  }
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}

function chanceText(x) {
  return typeof x === "number" ? percent(x) : "–";
}

// A hint's chances: the hand's, and the match's where the edition plays one.
function chancesText(h) {
  return typeof h.match_chance === "number"
    ? t("hint.chances", { hand: chanceText(h.win_chance), match: chanceText(h.match_chance) })
    : chanceText(h.win_chance);
}

// The hints in the order of what they show: the chance of the match where the edition plays one, else of the
// hand (the search's order between equal chances); the search's own choice, which weighs the points too, keeps
// its mark wherever it falls, and its card is marked in the hand. Each is a button that plays it.
function shownOrder(actions) {
  const key = (h) => (typeof h.match_chance === "number" ? h.match_chance : h.win_chance);
  return actions.map((h, i) => ({ h, i })).sort((a, b) => key(b.h) - key(a.h) || a.i - b.i).map((x) => x.h);
}

function renderHints() {
  const box = $("#hints");
  const btn = $("#hint-button");
  btn.disabled = !(mine() && S.status !== "waiting" && !S.obs?.is_over);
  const sig = `${getLang()}|${S.hints === "wait" ? "wait" : S.hints ? S.seq : ""}|${JSON.stringify(S.seats)}`;
  const note = $("#hints-note"); // the chances shown: the match's too where the edition plays one
  const listed = S.hints && Array.isArray(S.hints.actions) ? S.hints.actions : null;
  const ofMatch = listed ? listed.some((h) => typeof h.match_chance === "number") : Boolean(S.obs?.options?.match_target);
  const noteKey = ofMatch ? "hints.note_match" : "hints.note";
  if (note.dataset.i18n !== noteKey) { note.dataset.i18n = noteKey; note.textContent = t(noteKey); }
  if (box.dataset.sig === sig) return;
  box.dataset.sig = sig;
  if (S.hints === "wait") { box.replaceChildren(el("li", { class: "muted" }, t("table.hint_wait"))); return; }
  if (!listed) { box.replaceChildren(); return; }
  const pick = listed[0];
  box.replaceChildren(...shownOrder(listed).map((h) => {
    const words = describeAction(h.action, ctx(), S.obs);
    const chance = chancesText(h);
    const rank = listed.indexOf(h) + 1;
    return el("li", { class: h === pick ? "best" : "", dataset: { action: h.action, rank: String(rank) } },
      el("button", { type: "button", class: "hint-pick", onclick: () => act(h.action) },
        el("span", { class: "hint-action" }, words), " ", el("span", { class: "hint-chance" }, chance),
        h === pick ? el("span", { class: "hint-mark" }, " ", t("hints.pick")) : null));
  }));
}

// the card of the search's choice, marked in the hand while its hint stands
function markHinted() {
  const pick = S.hints && Array.isArray(S.hints.actions) ? S.hints.actions[0]?.action : null;
  const id = pick && /^(play|discard) /.test(pick) ? pick.split(" ")[1] : null;
  let marked = false;
  for (const node of $("#hand").children) {
    const on = !marked && id !== null && node.dataset.card === id;
    marked = marked || on;
    node.classList.toggle("hinted", on);
    let tag = node.querySelector(".hint-tag");
    if (on && !tag) node.append(el("span", { class: "hint-tag", "aria-hidden": "true" }, t("hints.card")));
    else if (!on && tag) tag.remove();
    else if (on && tag) tag.textContent = t("hints.card");
  }
}

// ------------------------------------------------------------------ dialogs, hints, targets, messages
function renderDialogs() {
  const obs = S.obs;
  const cf = $("#cf-dialog");
  const ext = $("#ext-dialog");
  const myCf = Boolean(obs && mine() && obs.decision === "coup-fourre" && obs.pending_attack);
  if (myCf) {
    const pa = obs.pending_attack;
    $("#cf-text").replaceChildren(...tn("cf.text", {
      attacker: seatName(ctx(), pa.attacker), hazard: cardName(pa.hazard), side: sideName(ctx(), pa.side),
      safety: cardName(SAFETY_OF[pa.hazard]),
    }));
    tickCountdown();
  }
  dialogs.set(cf, myCf, "#cf-yes"); // the window is seconds long: its primary button has the focus at once
  const myExt = Boolean(obs && mine() && obs.decision === "extension");
  if (myExt) {
    const full = obs.options?.target ?? 1000;
    $("#ext-text").textContent = t("ext.text", { target: formatNumber(obs.target), full: formatNumber(full) });
    $("#ext-yes-text").textContent = t("ext.yes", { full: formatNumber(full) });
    $("#ext-help").textContent = help.lines("extension").slice(1).join(" "); // what calling it risks and scores
  }
  dialogs.set(ext, myExt, "#ext-yes");
  const over = obs && (obs.is_over || S.status === "finished");
  if (over) {
    $("#match-over-winners").replaceChildren(...winnersText(obs.winners || [], ctx()));
    const sig = JSON.stringify([getLang(), obs.hand_results?.length, S.seats.map((s) => [s.kind, s.nickname])]);
    if ($("#match-over-table").dataset.sig !== sig) { // drawn again only when it changed: a hand's details stay open
      $("#match-over-table").dataset.sig = sig;
      $("#match-over-table").replaceChildren(scoreSheet({
        results: obs.hand_results, ctx: ctx(), options: obs.options, winners: obs.winners, scores: obs.match_scores,
      }));
    }
    $("#match-replay").setAttribute("href", `/replay/${encodeURIComponent(tableId)}`);
  }
  rematch.render();
  if (over && !S.matchShown) {
    S.matchShown = true;
    dialogs.close($("#hand-over"));
    openMatchOver();
    seatAccount.ended();
  }
}

// The match's end: its sheet, the rematch offer and the replay; the focus on the rematch where one is offered.
function openMatchOver() {
  const offered = !$("#rematch").hidden && !$("#rematch-yes").hidden;
  dialogs.open($("#match-over"), offered ? "#rematch-yes" : "#match-replay");
}

function tickCountdown() {
  const cd = $("#cf-countdown");
  if (S.cfDeadline === null) { cd.textContent = ""; $("#cf-bar").style.width = "100%"; return; }
  const left = Math.max(0, (S.cfDeadline - performance.now()) / 1000);
  cd.textContent = t("cf.seconds", { s: Math.ceil(left) });
  const total = S.cfTotal || S.table?.cf_timeout || 10;
  $("#cf-bar").style.width = `${Math.max(0, Math.min(100, (100 * left) / total))}%`;
  $("#cf-dialog").classList.toggle("urgent", left < 3);
}
setInterval(() => {
  if (!$("#cf-dialog").hidden) tickCountdown();
  if (inWindow() && !mine()) setTurn(windowText());
}, 200);

// Legal targets get a glow; this only helps the eye: every click is still sent to the server.
function renderTargets() {
  for (const n of document.querySelectorAll(".target-ok")) n.classList.remove("target-ok");
  const obs = S.obs;
  if (!obs || !mine()) return;
  const legal = obs.legal_actions || [];
  if (obs.decision === "draw") {
    $("#stock").classList.add("target-ok");
    if (legal.includes("take-discard")) $("#discard").classList.add("target-ok");
    return;
  }
  if (S.selected === null || obs.decision !== "play") return;
  const id = obs.hand[S.selected];
  if (legal.includes(`play ${id}`)) document.querySelector(`.tableau[data-side="${obs.side}"]`)?.classList.add("target-ok");
  for (const a of legal) {
    const m = a.match(/^play (\S+) (\d+)$/);
    if (m && m[1] === id) document.querySelector(`.tableau[data-side="${m[2]}"]`)?.classList.add("target-ok");
  }
  if (legal.includes(`discard ${id}`)) $("#discard").classList.add("target-ok");
}

// #message: the last error or notice, in words (re-rendered in the chosen language)
function setMessage(m, isError = false) {
  S.message = m ? { ...m, isError } : null;
  renderMessage();
}

function messageText(m) {
  return m.frame ? errorMessage(m.frame, ctx()) : m.key ? t(m.key, m.params || {}) : m.text;
}

// A new message, shown and told: a refusal in the alert region, a notice in the polite one.
function say(m, isError = false) {
  setMessage(m, isError);
  const text = messageText(S.message);
  if (isError) alertSR(text); else announce(text);
}

function renderMessage() {
  const box = $("#message");
  const m = S.message;
  if (!m) { box.textContent = ""; box.className = "message"; return; }
  box.textContent = messageText(m);
  box.className = `message${m.isError ? " error" : " notice"}`;
}

// The join form's line: the edition, the players, the seat taken
function renderJoinInfo() {
  const facts = S.facts;
  if (!facts) return;
  const edition = facts.ruleset || "";
  const named = common.editionName ? common.editionName(edition) || edition : edition;
  $("#join-table").textContent = `${named} · ${t("ed.players", { n: facts.players })} · ${t("seat.name", { n: mySeat + 1 })}`;
}

function setConn(text, bad = false) {
  const c = $("#conn");
  c.textContent = text;
  c.classList.toggle("bad", bad);
}

function fillHandOver(result) {
  S.handOver = result;
  const c = ctx();
  $("#hand-over-title").textContent = t("over.title", { n: result.hand + 1 });
  const tie = result.winners.length > 1;
  $("#hand-over-winners").replaceChildren(...tn(tie ? "over.tie" : "over.winners", { names: sidesNames(c, result.winners) }));
  $("#hand-over-table").replaceChildren(breakdownTable(result, c, S.obs?.match_scores, undefined, help.items()));
}

// ------------------------------------------------------------------ choosing and playing
// Choose the hand card i (a click or Enter toggles it; a number key chooses it), and say what it can do.
function choose(i, toggle, focus = false) {
  S.selected = toggle && S.selected === i ? null : i;
  keys.endAim();
  S.focusIndex = i;
  if (S.message && !S.message.isError) setMessage(null);
  keepFocus(() => { renderHand(); keys.renderMoves(); renderTargets(); });
  if (focus) focusNode(handCard(i));
  if (S.selected === null) return;
  tellChosen(S.obs.hand[i], mine() ? keys.moveOptions() : null);
}

function putDown() {
  const had = S.selected;
  S.selected = null;
  keys.endAim();
  keepFocus(() => { renderHand(); keys.renderMoves(); renderTargets(); });
  if (had !== null && (document.activeElement?.closest?.("#moves") || focusLost())) focusNode(handCard(had));
}

// Take back: shown only when the state frame says it works (a person alone with bots, a move of this hand); the
// key u asks all the same, and the server says why not. The header says from then on that the match is casual.
function renderUndo() {
  $("#undo-button").hidden = spectator || !S.joined || !S.canUndo || Boolean(S.table?.rated);
  $("#casual").hidden = !S.table?.casual;
}

function takeBack() {
  if (spectator) { say({ key: "msg.spectator" }, true); return; }
  if (!send({ type: "undo", seq: S.seq })) say({ key: "msg.offline" }, true);
}

// What was taken back, shown and told once the position is drawn again: "You took back: Ann: Play 75 miles, ...".
function tellUndone() {
  const f = S.undone;
  S.undone = null;
  const moves = (f.taken || []).map((m) => t("undo.move", {
    name: textOf(seatName(ctx(), m.seat)), action: textOf(describeAction(m.action, ctx(), S.obs)),
  })).join(t("list.sep"));
  const key = f.seat === mySeat && !spectator ? (moves ? "undo.mine_moves" : "undo.mine") : (moves ? "undo.other" : "undo.other_none");
  say({ key, params: { moves, name: textOf(seatName(ctx(), f.seat)) } });
}

function askHint() {
  if ($("#hint-button").disabled) { say({ key: "msg.not_your_turn" }, true); return; }
  if (send({ type: "hint" })) { S.hints = "wait"; keepFocus(renderHints); sheet.showHints(); }
}

// ------------------------------------------------------------------ clicks
function onHandClick(e) {
  const card = e.target.closest(".card[data-index]");
  if (!card) return;
  choose(Number(card.dataset.index), true);
}

// Enter or Space chooses the focused card; the arrow keys, Home and End move along the hand.
function onHandKey(e) {
  const card = e.target.closest(".card[data-index]");
  if (!card || e.ctrlKey || e.altKey || e.metaKey) return;
  const i = Number(card.dataset.index);
  if (e.key === "Enter" || e.key === " ") { e.preventDefault(); choose(i, true); return; }
  const n = S.obs?.hand.length || 0;
  const to = { ArrowLeft: i - 1, ArrowUp: i - 1, ArrowRight: i + 1, ArrowDown: i + 1, Home: 0, End: n - 1 }[e.key];
  if (to === undefined || !n) return;
  e.preventDefault();
  S.focusIndex = (to + n) % n;
  renderHand();
  focusNode(handCard(S.focusIndex));
}

function onBoardClick(e) {
  const tab = e.target.closest(".tableau[data-side]");
  if (!tab || !S.obs) return;
  if (S.selected === null) { say({ key: "msg.pick_card" }, true); return; }
  const id = S.obs.hand[S.selected];
  const side = Number(tab.dataset.side);
  const hazard = CARDS[id]?.group === "hazard";
  act(side === S.obs.side && !hazard ? `play ${id}` : `play ${id} ${side}`);
}

function onDiscardClick() {
  if (!S.obs) return;
  if (S.selected !== null) { act(`discard ${S.obs.hand[S.selected]}`); return; }
  if (S.obs.decision === "draw" && mine()) { act("take-discard"); return; }
  say({ key: "msg.pick_card" }, true);
}

function onStockClick() {
  if (!S.obs) return;
  act("draw");
}

function keyActivate(fn) {
  return (e) => {
    if ((e.key === "Enter" || e.key === " ") && !e.ctrlKey && !e.altKey && !e.metaKey) { e.preventDefault(); fn(e); }
  };
}

// the server's rules (frames.clean_nickname), counted the same way: characters are code points after NFC
function goodNickname(nick) {
  const n = [...nick].length;
  return n >= 1 && n <= 24 && /[\p{L}\p{N}]/u.test(nick) && !/[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}]/u.test(nick)
    && ![...nick].some((c) => /\p{Zs}/u.test(c) && c !== " ") && !/^(bot|robot|seat|place)\W*\d/i.test(nick.normalize("NFKC"));
}

function showJoinError(text) {
  dialogs.open($("#join-overlay"), "#nickname");
  $("#join").disabled = false;
  $("#join-error").textContent = text;
}

function startJoin(nickname) {
  S.nickname = nickname;
  try { if (nickname) localStorage.setItem(NICK_KEY, nickname); } catch (e) { /* storage off */ }
  $("#join").disabled = true;
  connect();
}

async function main() {
  await setupLangSelect($("#lang"));
  onLangChange(() => {
    // what was told is told: the live regions start again in the new language
    forgetTold();
    stopMotion(); // a card in flight carries the old language's words
    renderJoinInfo();
    renderAll();
    if (!$("#hand-over").hidden && S.handOver) fillHandOver(S.handOver);
  });
  const cards = loadCards();
  // the join form is open from the start: a modal dialog like the others
  if (!$("#join-overlay").hidden) dialogs.adopt($("#join-overlay"));
  $("#hand").addEventListener("click", onHandClick);
  $("#hand").addEventListener("keydown", onHandKey);
  $("#hand").addEventListener("focusin", (e) => {
    const card = e.target.closest(".card[data-index]");
    if (card) S.focusIndex = Number(card.dataset.index);
    showHelp();
  });
  $("#hand").addEventListener("focusout", () => setTimeout(showHelp));
  // the pointer (a mouse over a card, or a finger held on it: a touch's pointer is over it while it is down)
  $("#hand").addEventListener("pointerover", (e) => {
    const card = e.target.closest(".card[data-index]");
    S.pointed = card ? Number(card.dataset.index) : null;
    showHelp();
  });
  $("#hand").addEventListener("pointerleave", () => { S.pointed = null; showHelp(); });
  // a card on a tableau or the discard pile: what it does there (its piles say the rest in words)
  $("#arena").addEventListener("pointerover", (e) => {
    const card = e.target.closest(".tableau .card[data-card], #discard .card[data-card]");
    S.board = card ? card.dataset.card : null;
    showHelp();
  });
  $("#arena").addEventListener("pointerleave", () => { S.board = null; showHelp(); });
  // a tableau reached by the keyboard: what the top of its battle pile (else its speed pile) does there
  $("#arena").addEventListener("focusin", (e) => {
    const tab = e.target.closest?.(".tableau[data-side]");
    if (!tab) return;
    const top = tab.querySelector(".battle .card[data-card]") || tab.querySelector(".speed .card[data-card]");
    S.board = top ? top.dataset.card : null;
    S.pointed = null;
    showHelp();
  });
  $("#arena").addEventListener("focusout", () => { S.board = null; setTimeout(showHelp); });
  $("#arena").addEventListener("click", (e) => { if (e.target.closest("#opponents, #me")) onBoardClick(e); });
  $("#arena").addEventListener("keydown", (e) => {
    if (e.target.matches?.(".tableau[data-side]")) keyActivate(onBoardClick)(e);
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
  $("#last-hand").addEventListener("click", () => {
    if (!S.lastResult) return;
    fillHandOver(S.lastResult);
    dialogs.open($("#hand-over"), "#hand-over-close");
  });
  document.addEventListener("keydown", keys.onKey);
  renderAll();

  let stored = "";
  try { stored = localStorage.getItem(NICK_KEY) || ""; } catch (e) { /* storage off */ }
  if (!$("#nickname").value) $("#nickname").value = stored;

  $("#join-form").addEventListener("submit", (e) => {
    e.preventDefault();
    if (!tableId || mySeat === null || !Number.isInteger(mySeat) || !(token || byAccount)) return;
    const nick = $("#nickname").value.normalize("NFC").trim();
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
    $("#join").disabled = true;
    $("#nickname").disabled = true;
    $("#join-error").textContent = t("join.no_token");
    return;
  }
  seatAccount.look(); // signed out at a rated table: the join form says so
  // enabled only now, so that nothing is submitted before the page can handle it
  $("#nickname").disabled = false;
  $("#join").disabled = false;
  if (!$("#nickname").matches(":focus") && !$("#join-overlay").hidden) $("#nickname").focus();
  getJSON(`/api/tables/${encodeURIComponent(tableId)}`).then((facts) => {
    S.facts = facts;
    if (!S.table) { S.table = facts; S.seats = facts.seats || []; S.status = facts.status; }
    renderJoinInfo();
    renderAll();
  }).catch((err) => {
    if (err?.status !== 410) return;
    showJoinError(t("msg.expired"));
    $("#join").disabled = true;
    $("#nickname").disabled = true;
  });

  let joinedBefore = false;
  try { joinedBefore = localStorage.getItem(JOINED_KEY) === "1"; } catch (e) { /* storage off */ }
  const rematchNick = autoJoinNickname(tableId); // this page was opened by accepting a rematch: one click was enough
  if (byAccount) { // the account's seat has its nickname already: straight in
    dialogs.close($("#join-overlay"));
    cards.then(() => startJoin(null));
  } else if (joinedBefore || rematchNick) {
    if (rematchNick) $("#nickname").value = rematchNick;
    dialogs.close($("#join-overlay"));
    cards.then(() => startJoin(joinedBefore ? stored || null : rematchNick));
  }
}

// A handle for debugging and the browser tests (e.g. drop the socket to see the reconnection).
window.millebornes = { socket: () => S.ws, state: () => S };

main();
