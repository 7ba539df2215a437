// @ts-check
// What a screen reader hears on the table page. #announce (polite): each public event once, in words, as it
// happens, and the seat's own news; the log is drawn again on every change, so it is not a live region itself.
// #sr-alert: the player's own refusals.

import { t, describeEvent, cardName } from "./lib/words.js";
import { $, el } from "./lib/dom.js";

// nodes (strings, <bdi> names) as plain text, for live regions and labels
export const textOf = (nodes) => (Array.isArray(nodes) ? nodes : [nodes]).map((n) => (n instanceof Node ? n.textContent : String(n))).join("");

export function announce(text) {
  if (!text) return;
  const box = $("#announce");
  box.append(el("p", {}, text));
  while (box.children.length > 20) box.firstElementChild.remove();
}

export function alertSR(text) {
  $("#sr-alert").replaceChildren(el("p", {}, text));
}

// What was told is told: after a change of language the regions start again, empty.
export function forgetTold() {
  $("#announce").replaceChildren();
  $("#sr-alert").replaceChildren();
}

// The step's public events; and the seat's own draws, the card it got (the public event does not say it), not
// the deal's cards. before, hand: the seat's hand before and after the step.
export function tellEvents(events, ctx, seat, before, hand) {
  for (const ev of events) {
    const nodes = describeEvent(ev, ctx);
    if (nodes) announce(textOf(nodes));
  }
  if (events.some((ev) => ev.type === "draw" && ev.seat === seat) && !events.some((ev) => ev.type === "deal")) {
    const left = [...before];
    for (const id of hand) {
      const i = left.indexOf(id);
      if (i >= 0) left.splice(i, 1);
      else announce(t("a11y.you_drew", { card: cardName(id) }));
    }
  }
}

let turnKey = null; // the decision last told as "your turn"

// "Your turn: ..." once each time a play or draw decision comes to this seat (the coup fourré and the
// extension are dialogs that take the focus: they say it themselves). decision: the seat's own, else null.
export function tellTurn(decision, handNumber) {
  const key = decision ? `${decision}:${handNumber}` : null;
  if (key && key !== turnKey && (decision === "play" || decision === "draw")) announce(t(`turn.yours_${decision}`));
  turnKey = key;
}

// A card chosen: its name, and its moves with their keys when it is the seat's turn (moves null otherwise).
export function tellChosen(id, moves) {
  const card = cardName(id);
  if (!moves) { announce(t("a11y.chosen_wait", { card })); return; }
  announce(t("a11y.chosen", { card, moves: moves.map((o) => t("a11y.move_key", { move: textOf(o.nodes), key: o.key })).join(t("list.sep")) }));
}
