// @ts-check
// The cards' data, shared by every page: id, group and value (their names are in the message catalog: words.js),
// and which safety answers which hazard.

import { getJSON } from "./http.js";

// The cards: id, group and value (their names are in the message catalog, as card.ID); replaced by
// GET /api/cards when it answers (the server is the reference).
const CARDS_FALLBACK = [
  ["25", "distance", 25], ["50", "distance", 50], ["75", "distance", 75], ["100", "distance", 100],
  ["200", "distance", 200], ["stop", "hazard", 0], ["speed-limit", "hazard", 0], ["out-of-gas", "hazard", 0],
  ["flat-tire", "hazard", 0], ["accident", "hazard", 0], ["roll", "remedy", 0], ["end-of-limit", "remedy", 0],
  ["gasoline", "remedy", 0], ["spare-tire", "remedy", 0], ["repairs", "remedy", 0],
  ["right-of-way", "safety", 0], ["extra-tank", "safety", 0], ["puncture-proof", "safety", 0],
  ["driving-ace", "safety", 0],
];

export const CARDS = {};
for (const [id, group, value] of CARDS_FALLBACK) CARDS[id] = { id, group, value };
export const CARD_ORDER = CARDS_FALLBACK.map((c) => c[0]);

export const SAFETY_OF = {
  stop: "right-of-way", "speed-limit": "right-of-way", "out-of-gas": "extra-tank",
  "flat-tire": "puncture-proof", accident: "driving-ace",
};

let cardsLoaded = null;
export function loadCards() {
  if (!cardsLoaded) {
    cardsLoaded = getJSON("/api/cards").then((data) => {
      for (const c of data.cards || []) {
        if (typeof c.id === "string") CARDS[c.id] = { ...CARDS[c.id], ...c };
      }
    }).catch(() => {});
  }
  return cardsLoaded;
}
