// @ts-check
// How to play one edition (GET /api/rules/EDITION): the goal, each card drawn as it is at the table, a turn,
// hazards, the coup fourré, the extension, the end of a hand and the score. The edition and the table's
// players are picked here and kept in the address (?edition=parker&players=4), so a table links to its own rules.

import { t, setupLangSelect, onLangChange, getLang, editionName } from "./lib/words.js";
import { $, el, $as } from "./lib/dom.js";
import { getJSON, rulesGuides } from "./lib/http.js";
import { loadCards } from "./lib/cards.js";
import { cardElement } from "./cards.js";

const params = new URLSearchParams(location.search);
const S = { editions: [], guides: null, edition: params.get("edition") || "classic", players: Number(params.get("players")) || 2 };

function edition() {
  return S.editions.find((e) => e.name === S.edition) || S.editions[0];
}

function fillPickers() {
  const editions = $as("#rules-edition", HTMLSelectElement);
  editions.replaceChildren(...S.editions.map((e) => el("option", { value: e.name }, editionName(e.name))));
  editions.value = edition().name;
  const players = $as("#rules-players", HTMLSelectElement);
  players.replaceChildren(...edition().players.map((n) => el("option", { value: String(n) }, String(n))));
  if (!edition().players.includes(S.players)) S.players = edition().players[0];
  players.value = String(S.players);
}

function cardsGroup(group) {
  return el("section", { class: "rules-group", "aria-labelledby": `group-${group.group}` },
    el("h3", { id: `group-${group.group}` }, group.title),
    el("ul", { class: "rules-cards" }, ...group.cards.map((c) => el("li", { class: "rules-card", "data-card": c.card },
      cardElement(c.card, { label: "" }),
      el("div", {}, el("strong", {}, c.name), " ", el("span", { class: "muted" }, t("howto.count", { n: c.count })),
        el("p", {}, c.text))))));
}

function scoreTable(rows) {
  return el("table", { class: "rules-score" },
    el("tbody", {}, ...rows.map((r) => el("tr", {},
      el("th", { scope: "row" }, r.item), el("td", { class: "points" }, r.points), el("td", {}, r.text)))));
}

function draw(guide) {
  $("#rules-summary").textContent = guide.summary;
  $("#rules-contents ul").replaceChildren(...guide.sections.map((s) =>
    el("li", {}, el("a", { href: `#rules-${s.id}` }, s.title))));
  $("#rules-body").replaceChildren(...guide.sections.map((s) =>
    el("section", { id: `rules-${s.id}`, class: "panel rules-section", "aria-labelledby": `rules-${s.id}-title` },
      el("h2", { id: `rules-${s.id}-title` }, s.title),
      ...s.lines.map((line) => el("p", {}, line)),
      ...s.groups.map(cardsGroup),
      s.rows.length ? scoreTable(s.rows) : null)));
  document.title = `${t("howto.title")} · ${guide.title}`;
}

async function load() {
  S.guides = await rulesGuides(S.edition, S.players);
  show();
  history.replaceState(null, "", `/rules?edition=${encodeURIComponent(S.edition)}&players=${S.players}${location.hash}`);
  if (location.hash && document.getElementById(location.hash.slice(1))) {
    document.getElementById(location.hash.slice(1)).scrollIntoView();
  }
}

function show() {
  const guide = S.guides[getLang()];
  draw(guide);
  $("#rules-status").textContent = t("howto.edition_note", { edition: guide.title });
}

async function main() {
  await setupLangSelect($("#lang"));
  await loadCards();
  S.editions = (await getJSON("/api/editions")).editions;
  if (!S.editions.some((e) => e.name === S.edition)) S.edition = S.editions[0].name;
  fillPickers();
  $("#rules-edition").addEventListener("change", (e) => { S.edition = /** @type {HTMLSelectElement} */ (e.target).value; fillPickers(); load(); });
  $("#rules-players").addEventListener("change", (e) => { S.players = Number(/** @type {HTMLSelectElement} */ (e.target).value); load(); });
  onLangChange(() => { fillPickers(); show(); });
  await load();
  document.body.dataset.ready = "1";
}

main();
