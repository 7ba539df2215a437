// @ts-check
// The home page's quick game: one button seats you at once at a new table against bots of the level and pace you
// choose (the edition's smallest number of players, you at seat 1), made through POST /api/tables without a turn
// clock (alone with bots, nobody waits for you); the table page then asks for your nickname (it offers the one
// this browser used last).

import { t, editionName, standingText, ladderOf, paceOptions } from "./lib/words.js";
import { $, el, $as } from "./lib/dom.js";
import { createTable } from "./lib/http.js";
import { remember } from "./mytables.js";
import { ratedChosen } from "./ratedchoice.js";

// classic: two-player classic's ladder (GET /api/editions' levels), for a table the editions do not list
const Q = { editions: [], classic: null, error: null };

function edition() {
  return Q.editions.find((e) => e.name === $as("#quick-ruleset", HTMLSelectElement).value) || Q.editions[0];
}

// The quick game's table: the edition's smallest number of players, in teams if that is its default.
function table(ed) {
  const n = Math.min(...ed.players);
  return { players: n, teams: !!ed.teams?.[String(n)] };
}

// The ladder of that table: {levels, default_level, measured}.
function ladder() {
  const ed = edition();
  return ed ? ladderOf(ed, table(ed).players, table(ed).teams, Q.classic) : Q.classic;
}

export function renderQuick() {
  const sel = $as("#quick-ruleset", HTMLSelectElement);
  const keep = sel.value || "classic";
  sel.replaceChildren(...Q.editions.map((e) => el("option", { value: e.name }, editionName(e.name) || e.name)));
  sel.value = Q.editions.some((e) => e.name === keep) ? keep : Q.editions[0]?.name || "";
  const pace = $as("#quick-pace", HTMLSelectElement);
  const paced = pace.value || "normal";
  pace.replaceChildren(...paceOptions());
  pace.value = paced;
  renderLevels();
  $("#quick-error").textContent = Q.error ? t(...Q.error) : "";
}

// The levels offered at the quick game's table; the choice is kept while it stays offered, else the table's
// default level.
function renderLevels() {
  const { levels = [], default_level: start = "" } = ladder() || {};
  const level = $as("#quick-level", HTMLSelectElement);
  const was = level.value || start;
  level.replaceChildren(...levels.map((l) => el("option", { value: l.level }, t(`level.${l.level}`))));
  level.value = levels.some((l) => l.level === was) ? was : start || levels[0]?.level || "";
  renderNote();
}

function renderNote() {
  const { levels = [], measured = true } = ladder() || {};
  $("#quick-level-note").textContent = standingText(levels, $as("#quick-level", HTMLSelectElement).value, measured);
}

function fail(message) {
  Q.error = message;
  $("#quick-error").textContent = t(...message);
}

async function start(e) {
  e.preventDefault();
  const ed = edition();
  if (!ed) return;
  Q.error = null;
  $("#quick-error").textContent = "";
  const { players: n, teams } = table(ed);
  const level = $as("#quick-level", HTMLSelectElement).value;
  const body = {
    ruleset: ed.name, options: {}, players: n, teams,
    seats: [{ kind: "human" }, ...Array.from({ length: n - 1 }, () => ({ kind: "bot", level }))],
    clock: 0, pace: $as("#quick-pace", HTMLSelectElement).value,
  };
  if (ratedChosen("#quick-rated")) body.rated = true;
  const button = $as("#quick-start", HTMLButtonElement);
  button.disabled = true;
  button.textContent = t("quick.starting");
  try {
    const r = await createTable(body);
    if (!r) {
      fail(["home.error.network"]);
      return;
    }
    const data = r.data;
    const mine = data?.seats?.find((s) => s.seat === 0);
    if (!r.ok || typeof mine?.url !== "string" || !mine.url.startsWith("/t/")) {
      fail(r.status === 429 ? ["home.error.rate", { s: Number(r.headers.get("Retry-After")) || 60 }]
        : data?.field === "rated" ? ["home.error.rated"] : ["home.error.refused"]);
      return;
    }
    remember({ id: data.id, ruleset: ed.name, seat: 0, url: mine.url, creator: true, invites: [] });
    location.assign(mine.url);
  } finally {
    button.disabled = false;
    button.textContent = t("quick.start");
  }
}

export function setupQuick(editions, classic) {
  Q.editions = editions;
  Q.classic = classic;
  renderQuick();
  $("#quick-form").addEventListener("submit", start);
  $("#quick-ruleset").addEventListener("change", renderLevels);
  $("#quick-level").addEventListener("change", renderNote);
  $as("#quick-start", HTMLButtonElement).disabled = !editions.length || !(classic?.levels || []).length;
  if (location.hash === "#quick") $("#quick-title").focus(); // the guided match's "Play a real match"
}
