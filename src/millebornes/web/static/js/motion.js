// @ts-check
// Motion at the table: every seat's move travels, bots' included, so that at four or six players the eye follows
// the game without reading the log. A card played or discarded flies from where it came (the player's hand card,
// or the seat's name on its tableau) to the pile it went to; a drawn card leaves the stock; a hazard marks the
// tableau it hit; a coup fourré and a completed trip get a moment of their own.
// Motion is only a picture of what the state already shows: the board is drawn first, a flying copy passes over
// it and lets every click through, so it never delays input. With prefers-reduced-motion nothing moves: the card
// that landed stays highlighted (board.js) and the moments show still. A dialog comes first: nothing flies while
// one is open (the end of a hand or of the match opens with the move that ended it), and a flight under way passes
// under any that opens (the stylesheet's z-index).

import { t } from "./lib/words.js";
import { el, $$ } from "./lib/dom.js";
import { CARDS } from "./lib/cards.js";
import { cardElement } from "./cards.js";
import { landedCard, pileOf } from "./board.js";

const FLIGHT_MS = 420;
const STAGGER_MS = 140; // several moves in one frame leave one after the other
const MOMENT_MS = 1600;
const HIT_MS = 900;

const reduceQuery = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

export function reducedMotion() {
  return Boolean(reduceQuery?.matches);
}

// The rectangles of the hand's cards and of the stock, taken before a state is drawn: where the seat's own
// cards leave from.
export function snapshot() {
  const hand = $$("#hand .card[data-card]").map((n) => ({ card: n.dataset.card, rect: n.getBoundingClientRect() }));
  return { hand };
}

function rectOf(node) {
  const r = node?.getBoundingClientRect();
  return r && r.width > 0 && r.height > 0 ? r : null;
}

function tableau(side) {
  return document.querySelector(`.tableau[data-side="${side}"]`);
}

// Where another seat's card comes from or goes to: its name on its tableau.
function seatSpot(seat) {
  return rectOf(document.querySelector(`.tableau .seat-name[data-seat="${seat}"]`));
}

// The flying copy: a card (face up, or its back for a hidden draw) drawn at the destination's place and size,
// moved by a transform from the source. It is hidden from screen readers and lets the pointer through.
function fly(card, from, to, delay, hide = null) {
  if (!from || !to) return;
  const ghost = cardElement(card, { class: "flying" });
  ghost.setAttribute("aria-hidden", "true");
  ghost.style.left = `${to.left}px`;
  ghost.style.top = `${to.top}px`;
  ghost.style.width = `${to.width}px`;
  ghost.style.height = `${to.height}px`;
  document.body.append(ghost);
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = Math.max(0.4, Math.min(2.5, from.width / to.width));
  if (hide) hide.classList.add("arriving");
  const anim = ghost.animate([
    { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: 0.9 },
    { transform: "translate(0, 0) scale(1)", opacity: 1 },
  ], { duration: FLIGHT_MS, delay, easing: "cubic-bezier(0.2, 0.7, 0.2, 1)", fill: "backwards" });
  const done = () => { ghost.remove(); hide?.classList.remove("arriving"); };
  anim.addEventListener("finish", done);
  anim.addEventListener("cancel", done);
}

// A short mark on a tableau (a hazard hit it, a coup fourré answered, a trip completed), then gone.
function mark(side, cls, ms, delay) {
  const node = tableau(side);
  if (!node) return;
  setTimeout(() => {
    const now = tableau(side); // the board may have been drawn again meanwhile
    if (!now) return;
    now.classList.add(cls);
    setTimeout(() => tableau(side)?.classList.remove(cls), ms);
  }, delay);
}

// A moment: a word over the tableau ("Coup fourré!", "Trip completed!"), still where motion is reduced; its words
// are read when it shows, in the page's language then.
function moment(side, key, cls, delay) {
  setTimeout(() => {
    const node = tableau(side);
    if (!node) return;
    node.querySelector(".moment")?.remove();
    const banner = el("div", { class: `moment ${cls}`, "aria-hidden": "true" }, t(key));
    node.append(banner);
    setTimeout(() => banner.remove(), MOMENT_MS);
  }, delay);
}

// events: the live events of one state, already drawn; before: snapshot() from before the drawing;
// page: {mySeat, sideOf(seat), obs, sound(kind)}.
export function animate(events, before, page) {
  const still = reducedMotion() || Boolean(document.querySelector(".overlay:not([hidden])"));
  let delay = 0;
  let mine = [...before.hand];
  const takeMine = (card) => {
    const i = mine.findIndex((h) => h.card === card);
    if (i < 0) return null;
    const [h] = mine.splice(i, 1);
    return h.rect;
  };
  for (const ev of events) {
    const own = ev.seat === page.mySeat;
    if (ev.type === "play" || ev.type === "coup-fourre") {
      const side = ev.side ?? page.sideOf(ev.seat);
      const pile = ev.type === "coup-fourre" ? "safety" : pileOf(ev.card);
      const from = (own && takeMine(ev.card)) || seatSpot(ev.seat);
      const dest = tableau(side) && landedCard(tableau(side), pile, ev.card);
      if (!still) fly(ev.card, from, rectOf(dest), delay, dest);
      const hazard = CARDS[ev.card]?.group === "hazard";
      if (ev.type === "coup-fourre") {
        moment(side, "cf.title", "cf", delay);
        page.sound("cf", delay);
      } else if (hazard) {
        if (!still) mark(side, "hit", HIT_MS, delay + FLIGHT_MS * 0.8);
        page.sound("hit", delay);
      } else {
        page.sound("card", delay);
      }
      if (ev.type === "play" && pileOf(ev.card) === "distance" && page.obs.tableaux[side]?.distance >= page.obs.target) {
        moment(side, "moment.trip", "trip", delay + FLIGHT_MS);
        if (!still) mark(side, "trip-done", MOMENT_MS, delay + FLIGHT_MS);
        page.sound("trip", delay + FLIGHT_MS);
      }
      delay += STAGGER_MS;
    } else if (ev.type === "discard") {
      const from = (own && takeMine(ev.card)) || seatSpot(ev.seat);
      const dest = document.querySelector("#discard .spot-card .card");
      if (!still) fly(ev.card, from, rectOf(dest), delay, dest);
      page.sound("card", delay);
      delay += STAGGER_MS;
    } else if ((ev.type === "draw" || ev.type === "take-discard") && !still) {
      const from = ev.type === "draw" ? rectOf(document.querySelector("#stock .spot-card")) : rectOf(document.querySelector("#discard .spot-card"));
      const drawn = own ? newest(before.hand) : null;
      const to = drawn ? rectOf(drawn) : seatSpot(ev.seat);
      fly(own && drawn ? drawn.dataset.card : ev.type === "take-discard" ? ev.card : null, from, to, delay, drawn);
      delay += STAGGER_MS;
    }
  }
}

// The hand card that was not in the hand before (the last one of its kind, where the seat held some already).
function newest(before) {
  const had = {};
  for (const h of before) had[h.card] = (had[h.card] || 0) + 1;
  const now = $$("#hand .card[data-card]");
  const seen = {};
  for (const node of now) {
    const c = node.dataset.card;
    seen[c] = (seen[c] || 0) + 1;
    if (seen[c] > (had[c] || 0)) return node;
  }
  return null;
}

// Every flight and moment ends at once (their cards land): the page is drawn again in another language.
export function stopMotion() {
  for (const node of document.querySelectorAll(".card.flying")) for (const a of node.getAnimations()) a.cancel();
  for (const node of document.querySelectorAll(".card.flying, .moment")) node.remove();
  for (const node of document.querySelectorAll(".card.arriving")) node.classList.remove("arriving");
}
