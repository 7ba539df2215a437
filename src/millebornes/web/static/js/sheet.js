// @ts-check
// The score sheet of a match (the table's #match-over and the end of a replay): the match's goal, a table with one
// row per hand and one column per side (the hand's points and the running total), the final totals with the
// winners marked in words, and each hand's breakdown behind a disclosure. Each table scrolls inside its own
// wrapper on a narrow screen, never the page.

import { t, formatNumber } from "./lib/words.js";
import { el } from "./lib/dom.js";
import { breakdownTable, sideHead } from "./board.js";

let made = 0;

// The match's goal in words: "First to 5,000 points", or a race that is the whole match (no match_target).
export function goalText(options) {
  const goal = options?.match_target;
  if (goal) return t("sheet.goal", { target: formatNumber(goal) });
  return t("sheet.one_race", { target: formatNumber(options?.target ?? 1000) });
}

// A table in a wrapper that scrolls sideways by itself; a region named by the table's caption, in the Tab order
// so that it can be scrolled by keyboard.
function scroller(table, caption) {
  const id = `sheet-caption-${++made}`;
  caption.id = id;
  return el("div", { class: "table-scroll", role: "region", "aria-labelledby": id, tabindex: "0" }, table);
}

// m: {results (the observation's hand_results), ctx, options, winners, scores (the match totals)}
export function scoreSheet(m) {
  const results = m.results || [];
  const nsides = m.scores?.length ?? results[0]?.points.length ?? 0;
  const winners = new Set(m.winners || []);
  const sides = Array.from({ length: nsides }, (_, s) => s);
  const running = sides.map(() => 0);
  const rows = results.map((r) => el("tr", { dataset: { hand: String(r.hand) } },
    el("th", { scope: "row" }, t("table.hand_n", { n: r.hand + 1 })),
    ...sides.map((s) => {
      running[s] += r.points[s];
      return el("td", { class: `num${r.winners.includes(s) ? " hand-won" : ""}` }, formatNumber(r.points[s]), " ",
        el("span", { class: "running" }, t("sheet.running", { total: formatNumber(running[s]) })));
    })));
  const totals = m.scores || running;
  const caption = el("caption", {}, t("sheet.title"));
  const table = el("table", { class: "breakdown sheet-table" }, caption,
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("sheet.hand")),
      ...sides.map((s) => el("th", { scope: "col", class: winners.has(s) ? "won" : "" }, sideHead(m.ctx, s))))),
    el("tbody", {}, ...rows),
    el("tfoot", {}, el("tr", { class: "total" }, el("th", { scope: "row" }, t("sheet.final")),
      ...sides.map((s) => el("td", { class: `num${winners.has(s) ? " won" : ""}`, dataset: { side: String(s) } },
        formatNumber(totals[s]), winners.has(s) ? el("span", { class: "won-mark" }, t("sheet.winner")) : null)))));
  const details = results.map((r) => {
    const cap = el("caption", {}, t("sheet.details_caption", { n: r.hand + 1 }));
    const breakdown = breakdownTable(r, m.ctx, null);
    breakdown.prepend(cap);
    return el("details", { class: "sheet-hand", dataset: { hand: String(r.hand) } },
      el("summary", {}, t("sheet.details", { n: r.hand + 1 })), scroller(breakdown, cap));
  });
  return el("div", { class: "sheet" },
    el("p", { class: "sheet-goal" }, goalText(m.options)), scroller(table, caption), ...details);
}
