// @ts-check
// The table's WebSocket /ws/{table}: joining (or watching), reconnecting, and one handler per server frame type
// (static/js/types/frames.d.ts, generated from web/tables/outbound.py), dispatched by the frame's type.

import { t, describeAction, errorMessage, formatNumber } from "../lib/words.js";
import { $ } from "../lib/dom.js";
import { textOf, announce, tellEvents, tellTurn } from "../telling.js";
import { rememberAccountSeat, rememberSeat } from "../mytables.js";
import { snapshot, animate } from "../motion.js";
import {
  tableId, mySeat, token, byAccount, spectator, keepToken, JOINED_KEY, S, ctx, mine, sideOf, noteLanded,
} from "./state.js";
import { help, sounds, presence, dialogs, keys, chat, seatAccount, rematch, keepFocus } from "./parts.js";
import { renderAll, showHelp, chanceText, renderHints, markHinted, say, setConn, fillHandOver } from "./render.js";
import { tellUndone } from "./play.js";
import { showJoinError } from "./join.js";

// The refusals after which the server closes the socket (4410, 4429) and the page does not come back.
const CLOSING = new Set(["expired", "withdrawn", "seat-full", "table-full", "too-many"]);
// Why a seat opened by the account was refused: signed out here, another account, or another site's page.
const ACCOUNT_REFUSALS = { "signed-out": "join.account_signed_out", auth: "join.account_not_held", "cross-site": "join.account_not_held" };

/** @typedef {import("../types/frames").ServerFrame} ServerFrame */
/** @typedef {import("../types/game").TableFacts} TableFacts */
/** @typedef {import("../types/game").Observation} Observation */
/** @typedef {import("../types/game").GameEvent} GameEvent */
/** @typedef {import("../types/game").TurnFacts} TurnFacts */
/** @typedef {import("../types/game").HandResult} HandResult */
/** @typedef {import("../types/game").HintAction} HintAction */

export function connect() {
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
    if (e.code === 4410 || e.code === 4429) { setConn(""); return; } // expired, withdrawn, over a cap: its error said so
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

export function send(frame) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) {
    S.ws.send(JSON.stringify(frame));
    return true;
  }
  return false;
}

// A seat's welcome (a first join, or a reconnection): the table's facts, the log as it stands, the chat.
/** @param {import("../types/frames").WelcomeFrame} f */
function onWelcome(f) {
  const wasJoined = S.joined;
  S.joined = true;
  S.retry = 0;
  const table = /** @type {TableFacts | undefined} */ (f.table); // a dict in outbound.py: its fields in types/game.d.ts
  S.table = table || S.table;
  S.seats = table?.seats || S.seats;
  S.status = table?.status || S.status;
  S.log = Array.isArray(f.log) ? /** @type {GameEvent[]} */ (f.log.slice()) : S.log;
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
}

// A new position: the seat's observation, the events since the last one, whose decision and until when.
/** @param {import("../types/frames").StateFrame} f */
function onState(f) {
  const before = snapshot();
  const prevSeq = S.seq;
  const oldHand = S.obs?.hand || [];
  S.obs = /** @type {Observation} */ (f.observation); // a mapping in outbound.py: its fields in types/game.d.ts
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
  const turn = /** @type {TurnFacts | null} */ (f.turn);
  const paused = (turn?.paused ?? 0) * 1000;
  S.turn = turn ? { seat: turn.seat, since: Date.now() - turn.for * 1000,
    ends: turn.left == null ? null : Date.now() + paused + turn.left * 1000,
    starts: paused ? Date.now() + paused : null } : null;
  S.cfTotal = f.cf_deadline ?? null;
  S.cfDeadline = f.cf_deadline == null ? null : performance.now() + f.cf_deadline * 1000;
  if (S.obs.hand.join(",") !== oldHand.join(",")) { S.selected = null; S.held = null; keys.endAim(); }
  if (prevSeq !== f.seq) S.hints = null;
  const events = /** @type {GameEvent[]} */ (f.events || []);
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
    S.lastResult = /** @type {HandResult} */ (over);
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
}

// Moves taken back: the log as it now stands, then a state frame with the position.
/** @param {import("../types/frames").UndoneFrame} f */
function onUndone(f) {
  S.log = Array.isArray(f.log) ? /** @type {GameEvent[]} */ (f.log.slice()) : [];
  S.logCount += 1;
  S.fresh = true;
  S.landed = null;
  S.undone = f;
  if (S.table) S.table.casual = true;
}

// Who sits where, who is connected, who left and when a bot stands in.
/** @param {import("../types/frames").SeatsFrame} f */
function onSeats(f) {
  S.seats = f.seats || S.seats;
  presence.update(S.seats, S.status === "playing" && !S.obs?.is_over);
  renderAll();
}

// The hints asked for this position: listed, the best one told.
/** @param {import("../types/frames").HintFrame} f */
function onHint(f) {
  if (f.seq === S.seq || f.seq === undefined) {
    // outbound.py types each action as a dict: what it holds is in types/game.d.ts (HintAction)
    S.hints = /** @type {{ actions: HintAction[], seq: number }} */ (/** @type {unknown} */ (f));
    keepFocus(() => { renderHints(); markHinted(); });
    const best = Array.isArray(f.actions) ? f.actions[0] : null;
    if (best) {
      const action = textOf(describeAction(best.action, ctx(), S.obs));
      announce(typeof best.match_chance === "number"
        ? t("a11y.hint_match", { action, chance: chanceText(best.win_chance), match: chanceText(best.match_chance) })
        : t("a11y.hint", { action, chance: chanceText(best.win_chance) }));
    }
  }
}

// A refusal: at the join, the join form says it; else the message line (and the alert region).
/** @param {import("../types/frames").ErrorFrame} f */
function onError(f) {
  if (spectator && !S.joined && f.code === "auth") { say({ key: "msg.no_table" }, true); return; }
  if (spectator && !S.joined && f.code === "finished") { location.replace(`/replay/${encodeURIComponent(tableId)}`); return; }
  if (byAccount && !S.joined && ACCOUNT_REFUSALS[f.code]) { showJoinError(t(ACCOUNT_REFUSALS[f.code])); return; }
  if (f.code === "auth" && !S.joined && !spectator) showJoinError(t("msg.auth"));
  if (CLOSING.has(f.code) && !S.joined && !spectator) showJoinError(errorMessage(f));
  if ((f.code === "expired" || f.code === "withdrawn") && (S.joined || spectator)) { // the table went while here
    S.status = "gone";
    renderAll();
  }
  if (f.code === "malformed" && !S.joined && !spectator) { // the server refused the nickname: try another
    showJoinError(t("join.bad_nickname"));
    const ws = S.ws;
    S.ws = null;
    ws?.close();
    return;
  }
  say({ frame: f }, true);
  if (S.hints === "wait") { S.hints = null; keepFocus(renderHints); }
}

// One handler per frame type the table handles (the rematch and the chat see every frame first); a frame of
// another type (pong) is dropped.
/** @type {{ [K in ServerFrame["type"]]?: (f: Extract<ServerFrame, { type: K }>) => void }} */
const HANDLERS = {
  welcome: onWelcome,
  state: onState,
  undone: onUndone,
  seats: onSeats,
  hint: onHint,
  error: onError,
};

/** @param {ServerFrame} f */
function onFrame(f) {
  if (rematch.onFrame(f)) return;
  if (chat.frame(f)) return;
  if (!Object.hasOwn(HANDLERS, f.type)) return;
  // the map gives each type its own handler: the one found takes this frame
  const handle = /** @type {(f: ServerFrame) => void} */ (HANDLERS[f.type]);
  handle(f);
}
