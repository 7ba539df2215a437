// The home page: create a table (edition, players, teams, each seat a human or a bot), hand out the invite
// links, and list the finished games with their replays.

import {
  $, el, t, getJSON, postJSON, loadCards, setupLangSelect, onLangChange, getLang, sideName, formatNumber,
  formatDate,
} from "./common.js";
import { cardElement } from "./cards.js";

const KINDS = ["human", "easy", "medium", "hard", "expert"];
const INVITES_KEY = "millebornes.lastInvites";
const H = { editions: [], history: [], invites: null };

function edition() {
  return H.editions.find((e) => e.name === $("#ruleset").value) || H.editions[0];
}

function title(name) { return name.charAt(0).toUpperCase() + name.slice(1); }

function renderEditions() {
  const sel = $("#ruleset");
  const keep = sel.value || "classic";
  sel.replaceChildren(...H.editions.map((e) => el("option", { value: e.name }, title(e.name))));
  sel.value = H.editions.some((e) => e.name === keep) ? keep : H.editions[0]?.name;
  renderSummary();
}

function renderSummary() {
  const ed = edition();
  if (!ed) return;
  const s = ed.summary || {};
  $("#ruleset-summary").textContent = s[getLang()] || s.en || "";
}

function renderPlayers() {
  const ed = edition();
  if (!ed) return;
  const sel = $("#players");
  const keep = Number(sel.value) || 2;
  sel.replaceChildren(...ed.players.map((n) => el("option", { value: String(n) }, String(n))));
  sel.value = String(ed.players.includes(keep) ? keep : ed.players[0]);
  renderTeams();
}

function renderTeams() {
  const ed = edition();
  const n = Number($("#players").value);
  const box = $("#teams");
  const solo = (ed.solo_players || []).includes(n);
  const team = (ed.team_players || []).includes(n);
  box.checked = !!ed.teams?.[String(n)];
  box.disabled = ed.solo_players ? !(solo && team) : false;
  renderSeats();
}

function renderSeats() {
  const n = Number($("#players").value) || 2;
  const list = $("#seats");
  const old = [...list.querySelectorAll("select.seat-kind")].map((s) => s.value);
  const teams = $("#teams").checked;
  const nsides = teams ? n / 2 : n;
  list.replaceChildren(...Array.from({ length: n }, (_, seat) => {
    const sel = el("select", { class: "seat-kind", dataset: { seat: String(seat) }, "aria-label": t("home.seat", { n: seat }) },
      ...(seat === 0 ? ["human"] : KINDS).map((k) => el("option", { value: k }, t(`kind.${k}`))));
    sel.value = seat === 0 ? "human" : old[seat] || "medium";
    return el("li", {},
      el("span", { class: "seat-label" }, t("home.seat", { n: seat }), seat === 0 ? ` (${t("home.you")})` : ""),
      sel,
      teams ? el("span", { class: "team-tag" }, t("home.team", { t: "ABCD"[seat % nsides] })) : null);
  }));
}

async function create(e) {
  e.preventDefault();
  const button = $("#create");
  const err = $("#create-error");
  err.textContent = "";
  const n = Number($("#players").value);
  const seats = [...document.querySelectorAll("select.seat-kind")].map((s) => (
    s.value === "human" ? { kind: "human" } : { kind: "bot", level: s.value }));
  const body = {
    ruleset: $("#ruleset").value, options: {}, players: n, teams: $("#teams").checked, seats,
    cf_timeout: Number($("#cf-timeout").value) || 6,
  };
  button.disabled = true;
  button.textContent = t("home.creating");
  try {
    const made = await postJSON("/api/tables", body);
    H.invites = made;
    try { sessionStorage.setItem(INVITES_KEY, JSON.stringify(made)); } catch (x) { /* storage off */ }
    renderInvites();
  } catch (x) {
    err.textContent = x.message;
  } finally {
    button.disabled = false;
    button.textContent = t("home.create_button");
  }
}

function renderInvites() {
  const box = $("#invites");
  const made = H.invites;
  if (!made) { box.hidden = true; return; }
  box.hidden = false;
  const items = [];
  for (const s of made.seats) {
    if (s.kind !== "human" || typeof s.url !== "string") continue;
    const link = new URL(s.url, location.origin);
    if (link.origin !== location.origin) continue; // an invite is a page of this server, nothing else
    const full = link.href;
    if (s.seat === 0) {
      items.push(el("li", { class: "mine" },
        el("a", { class: "invite button primary", href: full, dataset: { seat: "0" } }, t("home.my_seat"))));
      continue;
    }
    const input = el("input", { readonly: true, value: full, "aria-label": t("home.invite_for", { n: s.seat }) });
    const copy = el("button", { type: "button", class: "copy" }, t("home.copy"));
    copy.addEventListener("click", async () => {
      input.select();
      try { await navigator.clipboard.writeText(full); } catch (x) { document.execCommand?.("copy"); }
      copy.textContent = t("home.copied");
      setTimeout(() => { copy.textContent = t("home.copy"); }, 1500);
    });
    items.push(el("li", {},
      el("span", { class: "who" }, t("home.invite_for", { n: s.seat })),
      input, copy,
      el("a", { class: "invite", href: full, target: "_blank", rel: "noopener", dataset: { seat: String(s.seat) } }, "↗")));
  }
  $("#invite-list").replaceChildren(...items);
}

function renderHistory() {
  const box = $("#history");
  if (!H.history.length) { box.replaceChildren(el("p", { class: "muted" }, t("home.history_empty"))); return; }
  const rows = H.history.map((tb) => {
    const ctx = { seats: tb.seats || [], sides: tb.sides || [] };
    const scores = tb.scores || [];
    const winners = tb.winners || [];
    const sides = (tb.sides || []).map((_, s) => el("div", { class: winners.includes(s) ? "won" : "" },
      sideName(ctx, s), `: ${formatNumber(scores[s] ?? 0)}`));
    return el("tr", {},
      el("td", {}, formatDate(tb.finished || tb.created)),
      el("td", {}, title(tb.ruleset || ""), el("br"), el("small", { class: "muted" }, t("ed.players", { n: tb.players }))),
      el("td", {}, ...sides),
      el("td", {}, el("a", { class: "replay-link", href: `/replay/${encodeURIComponent(tb.id)}`, dataset: { table: tb.id } },
        t("home.replay"))));
  });
  box.replaceChildren(el("table", { class: "history-table" },
    el("thead", {}, el("tr", {}, el("th", {}, t("home.when")), el("th", {}, t("home.edition")),
      el("th", {}, t("home.result")), el("th", {}))),
    el("tbody", {}, ...rows)));
}

function renderFan() {
  $("#fan").replaceChildren(...["200", "flat-tire", "roll", "right-of-way", "speed-limit"].map((id, i) => {
    const c = cardElement(id);
    c.style.transform = `rotate(${(i - 2) * 8}deg)`;
    return c;
  }));
}

function renderAll() {
  renderSummary();
  const kinds = [...document.querySelectorAll("select.seat-kind")].map((s) => s.value);
  renderSeats();
  document.querySelectorAll("select.seat-kind").forEach((s, i) => { if (kinds[i]) s.value = kinds[i]; });
  renderInvites();
  renderHistory();
  renderFan();
}

async function main() {
  await setupLangSelect($("#lang"));
  onLangChange(renderAll);
  $("#create-form").addEventListener("submit", create);
  await loadCards();
  renderFan();
  try { H.invites = JSON.parse(sessionStorage.getItem(INVITES_KEY) || "null"); } catch (x) { H.invites = null; }
  renderInvites();
  $("#ruleset").addEventListener("change", () => { renderSummary(); renderPlayers(); });
  $("#players").addEventListener("change", renderTeams);
  $("#teams").addEventListener("change", renderSeats);
  try {
    const data = await getJSON("/api/editions");
    H.editions = data.editions || [];
  } catch (x) {
    $("#create-error").textContent = x.message;
  }
  renderEditions();
  renderPlayers();
  $("#create").disabled = false;
  document.body.dataset.ready = "1";
  try {
    const data = await getJSON("/api/history?limit=50");
    H.history = data.tables || [];
  } catch (x) { H.history = []; }
  renderHistory();
}

main();
