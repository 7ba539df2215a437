// @ts-check
// The table page's state: the seat this page opened (the invite link, its token kept in this tab), and what the
// page knows of the table, the position and its own choices (S), with the few facts read from them everywhere.

import { pileOf } from "../board.js";
import { rememberSeat, replacedToken, linkedToken } from "../mytables.js";

export const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const SEAT_KEY = `millebornes.seat.${tableId}`;
const invite = takeInvite();
export const mySeat = invite.seat;
export let token = invite.token; // replaced by the welcome of the seat's first join (keepToken)
// A seat of the signed-in account opened without its link (#seat=N&account=1: another device): the join says
// account: true and the server reads the sign-in (docs/web-api.md, "Accounts").
export const byAccount = !token && invite.account === true;
// A page opened without a seat link watches: the server sends what a spectator sees, no hand, no choice.
export const spectator = !token && !byAccount;

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
export function keepToken(fresh) {
  const used = token;
  token = fresh;
  try { sessionStorage.setItem(SEAT_KEY, JSON.stringify({ seat: mySeat, token, used })); } catch (e) { /* storage off */ }
  rememberSeat(tableId, S.table?.ruleset, mySeat, token, used);
}
export const NICK_KEY = "millebornes.nickname";
export const JOINED_KEY = `millebornes.joined.${tableId}.${mySeat}`;

/** @typedef {import("../types/game").Observation} Observation */
/** @typedef {import("../types/game").TableFacts} TableFacts */
/** @typedef {import("../types/game").GameEvent} GameEvent */
/** @typedef {import("../types/game").HandResult} HandResult */
/** @typedef {import("../types/game").HintAction} HintAction */
/** @typedef {import("../types/frames").SeatFacts} SeatFacts */
/** @typedef {import("../types/frames").UndoneFrame} UndoneFrame */
/** @typedef {import("../types/frames").ErrorFrame} ErrorFrame */
/**
 * A message for #message: a catalog key with its params, a refused frame, or words already said.
 * @typedef {{ key?: string, params?: Record<string, unknown>, frame?: ErrorFrame, text?: string, isError?: boolean }} Message
 */
/**
 * Where the last card landed: a side's pile, or the discard pile (no side).
 * @typedef {{ side?: number, pile: string, card: string, fresh: boolean }} Landed
 */
/**
 * The turn clock in this page's clock (ms since the epoch): whose decision, since when, until when, from when.
 * @typedef {{ seat: number, since: number, ends: number | null, starts: number | null }} TurnClock
 */
/**
 * The table page's state.
 * @typedef {object} TableState
 * @property {TableFacts | null} table
 * @property {TableFacts | null} facts
 * @property {import("../types/game").SeatName[]} seats
 * @property {Observation | null} obs
 * @property {number | null} seq
 * @property {string | null} status
 * @property {number | null} cfDeadline
 * @property {number | null} cfTotal
 * @property {number | null} selected
 * @property {number} focusIndex
 * @property {GameEvent[]} log
 * @property {number} logCount
 * @property {null | "wait" | { actions: HintAction[], seq?: number }} hints
 * @property {boolean} joined
 * @property {HandResult | null} lastResult
 * @property {boolean} reading
 * @property {Message | null} message
 * @property {Landed | null} landed
 * @property {WebSocket | null} ws
 * @property {number} retry
 * @property {string | null} nickname
 * @property {boolean} matchShown
 * @property {boolean} [fresh] the next state's events are already in the log (a welcome or an undone came first)
 * @property {(Record<string, unknown> | null)[] | null} [refused] why each hand card cannot be played now
 * @property {Record<string, unknown> | null} [lesson] the guided match's lesson
 * @property {boolean} [canUndo]
 * @property {TurnClock | null} [turn]
 * @property {UndoneFrame | null} [undone] moves taken back, told once the position is drawn again
 * @property {HandResult | null} [handOver] the hand #hand-over shows
 * @property {number | null} [pointed] the hand card under the pointer
 * @property {number | null} [held] the hand card a finger held down: its help stays when the finger lifts
 * @property {string | null} [board] the card under the pointer on a tableau or the discard pile
 */

/** @type {TableState} */
export const S = {
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

// who the page names and how: the seats and the sides of the position (or of the table before one)
export function ctx() { return { seats: S.seats, sides: S.obs?.sides ?? S.table?.sides ?? [] }; }

// my decision: the seat to act, or, in a coup-fourré window, the one holding the safety (it alone has choices)
export function mine() { return !spectator && Boolean(S.obs && (S.obs.to_act === mySeat || (S.obs.legal_actions || []).length)); }

// after a hazard a human could answer, everyone waits the same few seconds, whoever holds the safety
export function inWindow() { return Boolean(S.obs && S.obs.decision === "coup-fourre" && S.obs.to_act === null); }

export function sideOf(seat) {
  const i = (ctx().sides || []).findIndex((l) => l.includes(seat));
  return i < 0 ? seat : i;
}

// Where the last card landed: the pile of its side, or the discard pile.
export function noteLanded(events) {
  for (const ev of events) {
    if (ev.type === "deal") S.landed = null;
    if (ev.type === "discard") S.landed = { pile: "discard", card: ev.card, fresh: true };
    if (ev.type === "take-discard") S.landed = null;
    if (ev.type === "coup-fourre") S.landed = { side: sideOf(ev.seat), pile: "safety", card: ev.card, fresh: true };
    if (ev.type === "play") S.landed = { side: ev.side ?? sideOf(ev.seat), pile: pileOf(ev.card), card: ev.card, fresh: true };
  }
}
