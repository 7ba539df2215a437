// The home page's quick game: one button seats you at once at a new table against bots of the level and pace you
// choose (the edition's smallest number of players, you at seat 1), made through POST /api/tables without a turn
// clock (alone with bots, nobody waits for you); the table page then asks for your nickname (it offers the one
// this browser used last).

import { $, el, t, editionName, createTable, standingText, paceOptions } from "./common.js";
import { remember } from "./mytables.js";

// levels: the offered levels and their standing (GET /api/editions), the select starting on defaultLevel
const Q = { editions: [], levels: [], defaultLevel: "", error: null };

function edition() {
  return Q.editions.find((e) => e.name === $("#quick-ruleset").value) || Q.editions[0];
}

export function renderQuick() {
  const sel = $("#quick-ruleset");
  const keep = sel.value || "classic";
  sel.replaceChildren(...Q.editions.map((e) => el("option", { value: e.name }, editionName(e.name) || e.name)));
  sel.value = Q.editions.some((e) => e.name === keep) ? keep : Q.editions[0]?.name || "";
  const level = $("#quick-level");
  const was = level.value || Q.defaultLevel;
  level.replaceChildren(...Q.levels.map((l) => el("option", { value: l.level }, t(`level.${l.level}`))));
  level.value = Q.levels.some((l) => l.level === was) ? was : Q.levels[0]?.level || "";
  const pace = $("#quick-pace");
  const paced = pace.value || "normal";
  pace.replaceChildren(...paceOptions());
  pace.value = paced;
  renderNote();
  $("#quick-error").textContent = Q.error ? t(...Q.error) : "";
}

function renderNote() {
  $("#quick-level-note").textContent = standingText(Q.levels, $("#quick-level").value);
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
  const n = Math.min(...ed.players);
  const level = $("#quick-level").value;
  const body = {
    ruleset: ed.name, options: {}, players: n, teams: !!ed.teams?.[String(n)],
    seats: [{ kind: "human" }, ...Array.from({ length: n - 1 }, () => ({ kind: "bot", level }))],
    clock: 0, pace: $("#quick-pace").value,
  };
  const button = $("#quick-start");
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
      fail(r.status === 429 ? ["home.error.rate", { s: Number(r.headers.get("Retry-After")) || 60 }] : ["home.error.refused"]);
      return;
    }
    remember({ id: data.id, ruleset: ed.name, seat: 0, url: mine.url, creator: true, invites: [] });
    location.assign(mine.url);
  } finally {
    button.disabled = false;
    button.textContent = t("quick.start");
  }
}

export function setupQuick(editions, levels, defaultLevel) {
  Q.editions = editions;
  Q.levels = levels;
  Q.defaultLevel = defaultLevel;
  renderQuick();
  $("#quick-form").addEventListener("submit", start);
  $("#quick-level").addEventListener("change", renderNote);
  $("#quick-start").disabled = !editions.length || !levels.length;
}
