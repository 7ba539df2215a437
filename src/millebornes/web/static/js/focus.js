// @ts-check
// The table page's focus across redraws: where it is, in terms that survive a redraw (a hand card by its place,
// a tableau by its side, a move or a hint by its action, else the element's id), and putting it back there when
// the redraw took it away.

import { $, $$, focusedElement } from "./lib/dom.js";
import { shown } from "./dialogs.js";

// The focus given back on the table does not scroll the page; a dialog's control is scrolled into view.
export function focusNode(node) {
  if (node) node.focus({ preventScroll: !node.closest(".overlay, .float-dialog") });
}

export function handCard(i) {
  const cards = document.querySelectorAll("#hand .card[data-index]");
  return cards.length ? cards[Math.max(0, Math.min(cards.length - 1, i))] : null;
}

export function focusLost() {
  const a = focusedElement();
  if (!a || a === document.body || !shown(a)) return true;
  return a === $("#hand") && Boolean($("#hand .card")); // the hand's box, once it has cards to hold the focus
}

// handIndex(): the hand card in the Tab order; toDialog(): put the focus in the open dialog if there is one
// (it wins over any place on the table) and say whether there was.
export function focusKeeper({ handIndex, toDialog = () => false }) {
  function key() {
    const a = focusedElement();
    if (!a || a === document.body || !a.isConnected) return null;
    if (a.closest("#hand")) {
      const card = /** @type {HTMLElement | null} */ (a.closest(".card[data-index]"));
      return { where: "hand", index: card ? Number(card.dataset.index) : handIndex() };
    }
    if (a.closest("#moves")) return { where: "moves", action: a.dataset?.action || null };
    if (a.closest("#hints")) return { where: "hints", action: /** @type {HTMLElement | null} */ (a.closest("li"))?.dataset.action || null };
    const tab = /** @type {HTMLElement | null} */ (a.closest(".tableau[data-side]"));
    if (tab) return { where: "side", side: tab.dataset.side };
    if (a.id) return { where: "id", id: a.id };
    return { where: "node", node: a };
  }

  function restore(key) {
    if (toDialog()) return;
    let node = null;
    if (key?.where === "hand") node = handCard(key.index);
    if (key?.where === "moves") node = (key.action && $$("#moves button").find((b) => b.dataset.action === key.action)) || null;
    if (key?.where === "hints") node = $$("#hints li").find((li) => li.dataset.action === key.action)?.querySelector("button") || null;
    if (key?.where === "side") node = document.querySelector(`.tableau[data-side="${key.side}"]`);
    if (key?.where === "id") node = document.getElementById(key.id);
    if (key?.where === "node") node = key.node;
    if (!shown(node)) node = handCard(handIndex()) || $("#hand"); // after a move: back to the hand
    focusNode(node);
  }

  // Draw with fn, then put the focus back where the player was if the redraw took it away.
  function keep(fn) {
    const where = key();
    fn();
    if (where && focusLost()) restore(where);
  }

  return { key, restore, keep };
}
