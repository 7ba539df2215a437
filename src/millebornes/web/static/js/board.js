// @ts-check
// Drawing one side's tableau, the piles and the hand-over breakdown: shared by the table and the replay.

import { t, tn, seatName, sideName, sidesNames, formatNumber, itemName, cardName } from "./lib/words.js";
import { el } from "./lib/dom.js";
import { CARDS } from "./lib/cards.js";
import { cardElement, emptySlot } from "./cards.js";

const DISTANCE_VALUES = ["25", "50", "75", "100", "200"];
const SAFETY_SLOTS = ["right-of-way", "extra-tank", "puncture-proof", "driving-ace"];

// Whether a seat's socket is connected (undefined where it is not shown, as in the replay).
function online(view, seat) {
  const facts = view.ctx.seats?.find((x) => x.seat === seat);
  return view.showOnline === false || !facts ? undefined : facts.kind === "bot" ? true : facts.connected;
}

// One side's tableau in words, for a screen reader: "Ann's side: battle pile Roll, speed pile empty,
// safeties: Puncture-Proof, 325 of 700 miles, 0 points. Ann: 6 cards in hand."
export function tableauSummary(view) {
  const { tableau: tb, side, ctx } = view;
  const seats = ctx.sides?.[side] ?? [side];
  const top = (cards) => (cards.length ? cardName(cards[cards.length - 1]) : t("tableau.empty"));
  const cfs = new Set(tb.coups_fourres || []);
  const safeties = tb.safeties.map((id) => (cfs.has(id) ? t("tableau.cf", { card: cardName(id) }) : cardName(id)));
  const parts = [t(view.mine ? "tableau.summary_mine" : "tableau.summary", {
    side: String(sideName(ctx, side)), battle: top(tb.battle), speed: top(tb.speed),
    safeties: safeties.length ? safeties.join(", ") : t("tableau.none"),
    miles: t("tableau.miles", { n: view.target || 1000, d: formatNumber(tb.distance) }),
    points: t("tableau.points", { n: view.score ?? 0 }),
  })];
  for (const seat of seats) {
    const name = String(seatName(ctx, seat));
    if (view.handSizes) parts.push(t("tableau.hand_size", { name, cards: t("table.cards_in_hand", { n: view.handSizes[seat] ?? 0 }) }) + ".");
    if (online(view, seat) === false) parts.push(t("tableau.offline", { name }) + ".");
    if (view.ctx.seats?.find((x) => x.seat === seat)?.standin) parts.push(t("tableau.standin", { name }) + ".");
  }
  return parts.join(" ");
}

// view: {tableau, side, ctx, target, score, mine, turnSeat, toAct, handSizes, mySeat, showOnline,
//        focusable (in the Tab order: the table page), landed (the card that just landed here: {card, fresh}),
//        awayNote (seat => the line saying that seat left, or null)}
// The section is a group named by tableauSummary; what it draws is hidden from screen readers (they have
// the summary), so no card picture is read as "img: 100 100 100".
export function tableauElement(view) {
  const { tableau: tb, side, ctx } = view;
  const seats = ctx.sides?.[side] ?? [side];
  const section = el("section", {
    class: `tableau${view.mine ? " mine" : ""}${seats.includes(view.turnSeat) ? " turn" : ""}`,
    dataset: { side: String(side) },
    role: "group",
    "aria-label": tableauSummary(view),
    tabindex: view.focusable ? "0" : null,
    "aria-keyshortcuts": view.focusable && !view.mine ? String(side + 1) : null,
  });

  // head: the players of the side, their hand sizes, the match score
  const who = el("div", { class: "who" });
  if (view.focusable) who.append(el("span", { class: "side-key", title: t("tableau.key", { k: side + 1 }) }, String(side + 1)));
  for (const seat of seats) {
    const on = online(view, seat);
    who.append(el("span", {
      class: `seat-name${seat === view.toAct ? " acting" : ""}${on === false ? " offline" : ""}`,
      dataset: { seat: String(seat) },
    },
    on === undefined ? null : el("span", { class: `dot${on === false ? " off" : ""}` }),
    el("bdi", { class: "nick" }, String(seatName(ctx, seat))),
    seat === view.mySeat ? el("span", { class: "you" }, ` ${t("table.you_mark")}`) : null,
    view.ctx.seats?.find((x) => x.seat === seat)?.standin ? el("span", { class: "standin-mark" }, ` ${t("seat.standin_mark")}`) : null,
    view.handSizes ? el("span", { class: "hand-size", title: t("table.cards_in_hand", { n: view.handSizes[seat] }) },
      el("span", { class: "mini-back" }), String(view.handSizes[seat] ?? 0)) : null));
  }
  const score = el("div", { class: "score", title: t("table.scores") }, formatNumber(view.score ?? 0),
    el("small", {}, ` ${t("table.pts")}`));
  section.append(el("header", { class: "tableau-head", "aria-hidden": "true" }, who, score));
  // who of the side left the table, and when a bot takes over (js/presence.js ticks it; the summary says it)
  for (const seat of seats) {
    const note = view.awayNote?.(seat);
    if (note) { note.setAttribute("aria-hidden", "true"); section.append(note); }
  }

  // distance progress
  const target = view.target || 1000;
  const pct = Math.min(100, Math.round((100 * tb.distance) / target));
  const bar = el("div", { class: "bar" });
  bar.style.width = `${pct}%`; // through the CSSOM: the pages' policy refuses style attributes
  section.append(el("div", { class: "progress", title: `${tb.distance} / ${target}`, "aria-hidden": "true" },
    bar, el("span", { class: "km" }, t("table.km", { d: formatNumber(tb.distance), target: formatNumber(target) }))));

  const rows = el("div", { class: "rows", "aria-hidden": "true" });
  // battle and speed piles: the top card shows, a badge counts the cards beneath
  const pile = (cls, cards, label) => {
    const box = el("div", { class: `pile ${cls}`, title: label });
    if (cards.length) {
      box.append(cardElement(cards[cards.length - 1], { class: "mini" }));
      if (cards.length > 1) box.append(el("span", { class: "badge" }, `${cards.length}`));
    } else {
      box.append(emptySlot(label, "mini"));
    }
    return box;
  };
  const status = el("div", { class: "group status-group" },
    pile("battle", tb.battle, t("table.battle")), pile("speed", tb.speed, t("table.speed")));
  rows.append(status);

  // distance: one stack per value, with the count
  const dist = el("div", { class: "group distance", title: t("table.distance") });
  const counts = {};
  for (const c of tb.distance_cards) counts[c] = (counts[c] || 0) + 1;
  for (const v of DISTANCE_VALUES) {
    const n = counts[v] || 0;
    const stack = el("div", { class: `stack${n ? "" : " none"}`, dataset: { value: v, count: String(n) } });
    if (n) {
      for (let i = 0; i < Math.min(n, 4); i++) {
        stack.append(cardElement(v, { class: "mini" }));
      }
      if (n > 1) stack.append(el("span", { class: "badge" }, `×${n}`));
    } else {
      stack.append(emptySlot(v, "mini ghost"));
    }
    dist.append(stack);
  }
  rows.append(dist);

  // safeties: four places; a coup fourré lies crosswise
  const saf = el("div", { class: "group safeties", title: t("table.safeties") });
  const cfs = new Set(tb.coups_fourres || []);
  section.style.setProperty("--cf", String(cfs.size)); // a coup fourré lies crosswise: wider
  for (const id of SAFETY_SLOTS) {
    if (tb.safeties.includes(id)) {
      const cf = cfs.has(id);
      const node = cardElement(id, { class: `mini${cf ? " coup-fourre" : ""}` });
      const wrap = el("div", { class: `safety-slot${cf ? " cf" : ""}` }, node);
      if (cf) wrap.append(el("span", { class: "cf-mark" }, "CF"));
      saf.append(wrap);
    } else {
      saf.append(el("div", { class: "safety-slot" }, emptySlot("", "mini ghost safety-ghost")));
    }
  }
  rows.append(saf);
  section.append(rows);
  if (view.landed) markLanded(section, view.landed);
  return section;
}

// The card just played on this side: highlighted where it landed (and, when fresh, animated once; the
// stylesheet keeps it still for those who ask for reduced motion).
function markLanded(section, landed) {
  const card = landedCard(section, landed.pile, landed.card);
  if (card) card.classList.add("landed", ...(landed.fresh ? ["fresh"] : []));
}

// The card `id` on top of the pile it went to on this tableau ("battle", "speed", "distance" or "safety").
export function landedCard(section, pile, id) {
  const where = pile === "safety" ? ".safeties"
    : pile === "distance" ? `.distance .stack[data-value="${id}"]`
      : `.pile.${pile}`;
  const cards = section.querySelectorAll(`${where} .card[data-card="${id}"]`);
  return cards[cards.length - 1] || null;
}

// The pile a card played on a side goes to.
export function pileOf(id) {
  const group = CARDS[id]?.group;
  return group === "distance" ? "distance" : group === "safety" ? "safety"
    : id === "speed-limit" || id === "end-of-limit" ? "speed" : "battle";
}

// A side's name heading a column of scores: on a phone it wraps between words only, and a word too long for the
// column is cut short on screen (the stylesheet's .head-word), its whole text still read by a screen reader.
export function sideHead(ctx, side) {
  const words = String(sideName(ctx, side)).split(/\s+/).filter(Boolean);
  return el("bdi", { class: "side-head" }, ...words.flatMap((w, i) => [i ? " " : null, el("span", { class: "head-word" }, w)]));
}

// The breakdown table of one finished hand: rows are the scoring items, columns the sides (with a caption, for
// a screen reader, when one is given).
// `explain`: what each item means in this edition (js/cardhelp.js items()), told in one line under its name.
export function breakdownTable(result, ctx, matchScores, caption, explain = {}) {
  const nsides = result.points.length;
  const items = [];
  for (const b of result.breakdown) for (const k of Object.keys(b)) if (!items.includes(k)) items.push(k);
  const head = el("tr", {}, el("th", { scope: "col" }, t("over.item")),
    ...Array.from({ length: nsides }, (_, s) => el("th", { scope: "col", class: result.winners.includes(s) ? "won" : "" },
      sideHead(ctx, s))));
  const body = items.map((item) => el("tr", { dataset: { item } }, el("th", { scope: "row" }, itemName(item),
    explain[item] ? el("span", { class: "item-help" }, explain[item]) : null),
    ...result.breakdown.map((b) => el("td", { class: "num" }, item in b ? formatNumber(b[item]) : "–"))));
  const total = el("tr", { class: "total" }, el("th", { scope: "row" }, t("over.total")),
    ...result.points.map((p, s) => el("td", { class: `num${result.winners.includes(s) ? " won" : ""}` }, formatNumber(p))));
  const rows = [...body, total];
  if (matchScores) {
    rows.push(el("tr", { class: "match" }, el("th", { scope: "row" }, t("over.match")),
      ...matchScores.map((p) => el("td", { class: "num" }, formatNumber(p)))));
  }
  return el("table", { class: "breakdown" }, caption ? el("caption", {}, caption) : null,
    el("thead", {}, head), el("tbody", {}, ...rows));
}

// nodes: the names in <bdi>
export function winnersText(winners, ctx) {
  return tn(winners.length > 1 ? "match.tie" : "match.winners", { names: sidesNames(ctx, winners) });
}
