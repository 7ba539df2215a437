// @ts-check
// Choosing and playing: a card chosen, a move sent, a move taken back, a hint asked, and the clicks and keys on the
// hand, the tableaux and the piles. The server is the only judge: a click sends what was chosen.

import { t, describeAction, seatName } from "../lib/words.js";
import { $, $as } from "../lib/dom.js";
import { CARDS } from "../lib/cards.js";
import { focusNode, focusLost, handCard } from "../focus.js";
import { textOf, tellChosen } from "../telling.js";
import { mySeat, spectator, S, ctx, mine } from "./state.js";
import { sheet, keys, keepFocus } from "./parts.js";
import { send } from "./socket.js";
import { renderHand, renderHints, renderTargets, setMessage, say, showHelp } from "./render.js";

export function act(action) {
  if (spectator) { say({ key: "msg.spectator" }, true); return; }
  S.selected = null;
  keys.endAim();
  if (S.message && !S.message.isError) setMessage(null);
  if (!send({ type: "act", action, seq: S.seq })) say({ key: "msg.offline" }, true);
  keepFocus(() => { renderHand(); keys.renderMoves(); renderTargets(); });
}

// ------------------------------------------------------------------ choosing and playing
// Choose the hand card i (a click or Enter toggles it; a number key chooses it), and say what it can do.
export function choose(i, toggle, focus = false) {
  S.selected = toggle && S.selected === i ? null : i;
  S.held = null;
  keys.endAim();
  S.focusIndex = i;
  if (S.message && !S.message.isError) setMessage(null);
  keepFocus(() => { renderHand(); keys.renderMoves(); renderTargets(); });
  if (focus) focusNode(handCard(i));
  if (S.selected === null) return;
  tellChosen(S.obs.hand[i], mine() ? keys.moveOptions() : null);
}

export function putDown() {
  const had = S.selected;
  S.selected = null;
  keys.endAim();
  keepFocus(() => { renderHand(); keys.renderMoves(); renderTargets(); });
  if (had !== null && (document.activeElement?.closest?.("#moves") || focusLost())) focusNode(handCard(had));
}

export function takeBack() {
  if (spectator) { say({ key: "msg.spectator" }, true); return; }
  if (!send({ type: "undo", seq: S.seq })) say({ key: "msg.offline" }, true);
}

// What was taken back, shown and told once the position is drawn again: "You took back: Ann: Play 75 miles, ...".
export function tellUndone() {
  const f = S.undone;
  S.undone = null;
  const moves = (f.taken || []).map((m) => t("undo.move", {
    name: textOf(seatName(ctx(), m.seat)), action: textOf(describeAction(m.action, ctx(), S.obs)),
  })).join(t("list.sep"));
  const key = f.seat === mySeat && !spectator ? (moves ? "undo.mine_moves" : "undo.mine") : (moves ? "undo.other" : "undo.other_none");
  say({ key, params: { moves, name: textOf(seatName(ctx(), f.seat)) } });
}

export function askHint() {
  if ($as("#hint-button", HTMLButtonElement).disabled) { say({ key: "msg.not_your_turn" }, true); return; }
  if (send({ type: "hint" })) { S.hints = "wait"; keepFocus(renderHints); sheet.showHints(); }
}

// ------------------------------------------------------------------ clicks
// A finger held on a card shows its help (its pointer is over the card while it is down): lifting it then leaves
// the help on screen and chooses nothing; only a tap chooses.
const LONG_PRESS_MS = 450;
let press = { card: /** @type {Element | null} */ (null), at: 0 };

export function onHandPointerDown(e) {
  press = e.pointerType === "mouse" ? { card: null, at: 0 } : { card: e.target.closest(".card[data-index]"), at: e.timeStamp };
}

export function onHandClick(e) {
  const card = e.target.closest(".card[data-index]");
  if (!card) return;
  const held = press.card === card && e.timeStamp - press.at >= LONG_PRESS_MS;
  press = { card: null, at: 0 };
  S.held = held ? Number(card.dataset.index) : null;
  if (held) { showHelp(); return; }
  choose(Number(card.dataset.index), true);
}

// Enter or Space chooses the focused card; the arrow keys, Home and End move along the hand.
export function onHandKey(e) {
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

export function onBoardClick(e) {
  const tab = e.target.closest(".tableau[data-side]");
  if (!tab || !S.obs) return;
  if (S.selected === null) { say({ key: "msg.pick_card" }, true); return; }
  const id = S.obs.hand[S.selected];
  const side = Number(tab.dataset.side);
  const hazard = CARDS[id]?.group === "hazard";
  act(side === S.obs.side && !hazard ? `play ${id}` : `play ${id} ${side}`);
}

export function onDiscardClick() {
  if (!S.obs) return;
  if (S.selected !== null) { act(`discard ${S.obs.hand[S.selected]}`); return; }
  if (S.obs.decision === "draw" && mine()) { act("take-discard"); return; }
  say({ key: "msg.pick_card" }, true);
}

export function onStockClick() {
  if (!S.obs) return;
  act("draw");
}

export function keyActivate(fn) {
  return (e) => {
    if ((e.key === "Enter" || e.key === " ") && !e.ctrlKey && !e.altKey && !e.metaKey) { e.preventDefault(); fn(e); }
  };
}
