// @ts-check
// On a phone the hand's sheet covers the player's own tableau while they choose a card: a strip above the hand
// repeats it, small (the battle and speed piles' top cards, the distance, the safeties held). It is for the eye:
// the tableau's group already says all of it to a screen reader (board.js tableauSummary), so it is hidden there.

import { t, formatNumber, getLang } from "../lib/words.js";
import { $, el } from "../lib/dom.js";
import { cardElement, emptySlot } from "../cards.js";
import { S, mine } from "./state.js";

/** @param {string[]} cards @param {string} label */
function pileTop(cards, label) {
  const id = cards[cards.length - 1];
  return el("span", { class: "brief-pile", title: label }, id ? cardElement(id, { class: "mini", label: "" }) : emptySlot(label, "mini"));
}

export function renderBrief() {
  const box = $("#me-brief");
  const obs = S.obs;
  const tb = obs && typeof obs.side === "number" ? obs.tableaux[obs.side] : null;
  box.hidden = !obs || !tb || !mine() || obs.is_over;
  if (!obs || !tb || box.hidden) return;
  const sig = JSON.stringify([getLang(), tb, obs.target]);
  if (box.dataset.sig === sig) return;
  box.dataset.sig = sig;
  box.replaceChildren(
    pileTop(tb.battle, t("table.battle")),
    pileTop(tb.speed, t("table.speed")),
    el("span", { class: "brief-km", title: t("table.distance") },
      t("table.km", { d: formatNumber(tb.distance), target: formatNumber(obs.target) })),
    el("span", { class: "brief-safeties", title: t("table.safeties") },
      ...tb.safeties.map((id) => cardElement(id, { class: "mini", label: "" }))),
  );
}
