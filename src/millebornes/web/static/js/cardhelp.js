// @ts-check
// Card help at the table: what a card does (the words of the rules page, GET /api/rules/EDITION, fetched in both
// languages) and whether it can be played now, and if not why (the engine's refusal, the state frame's
// `refused`). It is said in #card-help for the card under the pointer, else the focused card, else the chosen one;
// each hand card names #card-help as its description, so a screen reader hears it with the card.

import { t, cardName, reasonText, getLang } from "./lib/words.js";
import { rulesGuides } from "./lib/http.js";

export function cardHelp() {
  let texts = {};
  let guides = {};
  let loaded = "";

  async function load(edition, players) {
    const key = `${edition}|${players}`;
    if (!edition || loaded === key) return;
    loaded = key;
    try {
      const { en, fr } = await rulesGuides(edition, players);
      const cards = (guide) => Object.fromEntries(guide.sections.flatMap((s) => s.groups.flatMap((g) =>
        g.cards.map((c) => [c.card, c.text]))));
      texts = { en: cards(en), fr: cards(fr) };
      guides = { en, fr };
    } catch (e) {
      loaded = ""; // asked again at the next state
    }
  }

  // The help of a hand card: its name and what it does, then whether it can be played now. `refused` is the
  // frame's entry for it (null: playable; undefined: the seat is not choosing a card to play).
  function line(id, refused, ctx) {
    const does = texts[getLang()]?.[id];
    const parts = [does ? t("help.card", { card: cardName(id), does }) : cardName(id)];
    if (refused === null) parts.push(t("help.playable"));
    else if (refused) parts.push(t("help.not_now", { reason: reasonText(refused, ctx) }));
    return parts.join(" ");
  }

  // What each item of a hand's score means in this edition ({distance: "Every mile your side drove."...}).
  function items() {
    const scoring = guides[getLang()]?.sections.find((s) => s.id === "scoring");
    return Object.fromEntries((scoring?.rows || []).map((r) => [r.key, r.text]));
  }

  // The lines of one section of the rules ("extension"...), or none before they are loaded.
  function lines(id) {
    return guides[getLang()]?.sections.find((s) => s.id === id)?.lines || [];
  }

  return { load, line, items, lines };
}
