// @ts-check
// The leaderboards (/leaderboard?edition=FAMILY, GET /api/leaderboard/FAMILY; docs/web-api.md, "Profiles and
// leaderboards"): per edition, the active players whose rating is settled, best first, each linked to their
// profile, with the bots' fixed ratings among them as landmarks. The edition is chosen from a list and kept in the
// address, so a leaderboard can be shared.

import { t, setupLangSelect, onLangChange, editionName, formatNumber } from "./lib/words.js";
import { $, el, Name, $as } from "./lib/dom.js";

const FAMILIES = ["classic", "parker", "dujardin", "family"];
const L = { family: "classic", data: null, status: null };

function chosen() {
  const asked = new URLSearchParams(location.search).get("edition");
  return FAMILIES.includes(asked) ? asked : "classic";
}

function edition(family) {
  return editionName(family) || family;
}

// players and bots in one list, best first; a bot's row comes after the players of its rating
function rows(data) {
  const all = [
    ...data.players.map((p) => ({ ...p, bot: false })),
    ...data.bots.map((b) => ({ ...b, bot: true })),
  ];
  return all.sort((a, b) => b.rating - a.rating || Number(a.bot) - Number(b.bot));
}

function row(r) {
  if (r.bot) {
    return el("tr", { class: "bot-row", dataset: { level: r.level } },
      el("td", {}, ""),
      el("th", { scope: "row" }, t("leaders.bot", { level: t(`level.${r.level}`) })),
      el("td", { class: "rating" }, formatNumber(r.rating)),
      el("td", {}, ""));
  }
  return el("tr", { dataset: { username: r.username } },
    el("td", {}, formatNumber(r.rank)),
    el("th", { scope: "row" }, el("a", { href: `/players/${encodeURIComponent(r.username)}` }, new Name(r.username))),
    el("td", { class: "rating" }, formatNumber(r.rating)),
    el("td", {}, formatNumber(r.games)));
}

function draw() {
  const select = $as("#edition", HTMLSelectElement);
  select.replaceChildren(...FAMILIES.map((f) => el("option", { value: f }, edition(f))));
  select.value = L.family;
  $("#leaders-caption").textContent = t("leaders.caption", { edition: edition(L.family) });
  $("#leaders-status").textContent = L.status ? t(L.status) : "";
  const d = L.data;
  $("#leaders-rule").textContent = t("leaders.rule", { n: d ? d.active_days : 30 });
  if (!d) {
    $("#leaders-table").replaceChildren();
    return;
  }
  const th = (key) => el("th", { scope: "col" }, t(key));
  $("#leaders-table").replaceChildren(
    d.players.length ? null : el("p", { class: "muted" }, t("leaders.none")),
    el("div", { class: "table-scroll" }, el("table", { class: "ratings-table leaders-table", "aria-labelledby": "leaders-caption" },
      el("thead", {}, el("tr", {}, th("leaders.rank"), th("leaders.player"), th("leaders.rating"), th("leaders.games"))),
      el("tbody", {}, ...rows(d).map(row)))));
}

async function load() {
  L.status = null;
  try {
    const r = await fetch(`/api/leaderboard/${L.family}`, { headers: { Accept: "application/json" } });
    if (!r.ok) throw new Error(String(r.status));
    L.data = await r.json();
  } catch (x) {
    L.data = null;
    L.status = "profile.network";
  }
  draw();
}

async function main() {
  await setupLangSelect($("#lang"));
  onLangChange(draw);
  L.family = chosen();
  $("#edition").addEventListener("change", async (e) => {
    L.family = /** @type {HTMLSelectElement} */ (e.target).value;
    const url = new URL(location.href);
    url.searchParams.set("edition", L.family);
    history.replaceState(null, "", url);
    await load();
  });
  draw();
  await load();
  document.body.dataset.ready = "1";
}

main();
