// @ts-check
// The home page: create a table (edition, players, teams, each seat a human or a bot, listed in the lobby or
// not), hand out the invite links, and list the finished games with their replays; the quick game (quick.js),
// the lobby (lobby.js) and this browser's tables (mine.js) have modules of their own.

import {
  t, tn, setupLangSelect, onLangChange, sideName, formatNumber, formatDate, editionName, standingText, ladderOf,
  paceOptions,
} from "./lib/words.js";
import { $, el, $as, $$ } from "./lib/dom.js";
import { getJSON, createTable } from "./lib/http.js";
import { loadCards } from "./lib/cards.js";
import { cardElement } from "./cards.js";
import { copyButton } from "./copy.js";
import { setupLobby, renderLobby } from "./lobby.js";
import { renderMine, refreshMine } from "./mine.js";
import { myTables, remember, rememberAccountSeat } from "./mytables.js";
import { renderQuick, setupQuick } from "./quick.js";
import { setupLearn } from "./learn.js";
import { accountSeats, renderAccountLink, setupAccountLink } from "./accountlink.js";
import { ratedChosen, renderRated, setupRated, wantRated } from "./ratedchoice.js";
import {
  BOT_ACCOUNT, acceptsOf, botField, botNote, botOption, chosenBots, followChoice, presetBot, renderBotPick,
} from "./botpick.js";
import { renderChallenges, watchChallenges } from "./challenges.js";

const INVITES_KEY = "millebornes.lastInvites";
// levels: the levels offered at the table being set up, with their standing (GET /api/editions: its edition's
// ladder for its players and teams); a new bot starts on defaultLevel; measured: false where the table was not
// measured (the figures are then two-player classic's); classic: the top-level ladder, for a table not listed
// clockChosen: the player picked a turn clock, which a change of seats then leaves alone
const H = {
  editions: [], levels: [], defaultLevel: "", measured: true, classic: null, history: [], invites: null, error: null,
  clockChosen: false,
};

function offered(level) {
  return H.levels.some((l) => l.level === level);
}

function levelOptions() {
  return H.levels.map((l) => el("option", { value: l.level }, t(`kind.${l.level}`)));
}

function edition() {
  return H.editions.find((e) => e.name === $as("#ruleset", HTMLSelectElement).value) || H.editions[0];
}

// The ladder of the table as the form now sets it up.
function followTable() {
  const ladder = ladderOf(edition(), Number($as("#players", HTMLSelectElement).value) || 2, $as("#teams", HTMLInputElement).checked, H.classic);
  H.levels = ladder?.levels || [];
  H.defaultLevel = ladder?.default_level || H.levels[0]?.level || "";
  H.measured = ladder?.measured !== false;
}


function renderEditions() {
  const sel = $as("#ruleset", HTMLSelectElement);
  const keep = sel.value || "classic";
  sel.replaceChildren(...H.editions.map((e) => el("option", { value: e.name }, editionName(e.name) || e.name)));
  sel.value = H.editions.some((e) => e.name === keep) ? keep : H.editions[0]?.name;
  renderSummary();
}

function renderSummary() {
  const ed = edition();
  if (!ed) return;
  $("#ruleset-summary").textContent = t(`edition.${ed.name}.summary`);
}

function renderPlayers() {
  const ed = edition();
  if (!ed) return;
  const sel = $as("#players", HTMLSelectElement);
  const keep = Number(sel.value) || 2;
  sel.replaceChildren(...ed.players.map((n) => el("option", { value: String(n) }, String(n))));
  sel.value = String(ed.players.includes(keep) ? keep : ed.players[0]);
  renderTeams();
}

function renderTeams() {
  const ed = edition();
  const n = Number($as("#players", HTMLSelectElement).value);
  const box = $as("#teams", HTMLInputElement);
  const solo = (ed.solo_players || []).includes(n);
  const team = (ed.team_players || []).includes(n);
  box.checked = !!ed.teams?.[String(n)];
  box.disabled = ed.solo_players ? !(solo && team) : false;
  renderSeats();
}

// The turn clock (seconds per decision, 0: none), the stand-in bot's level and the bots' pace, kept across a
// change of language.
const CLOCKS = [0, 30, 60, 120, 300];
function renderClock() {
  const clock = $as("#clock", HTMLSelectElement);
  const pace = $as("#pace", HTMLSelectElement);
  const was = [clock.value || defaultClock(), pace.value || "normal"];
  clock.replaceChildren(...CLOCKS.map((s) => el("option", { value: String(s) },
    s === 0 ? t("home.clock_off") : s < 60 ? t("home.clock_seconds", { n: s }) : t("home.clock_minutes", { n: s / 60 }))));
  pace.replaceChildren(...paceOptions());
  clock.value = was[0];
  pace.value = was[1];
  renderStandin();
}

// The stand-in's level: one offered at the table, kept while it stays offered there.
function renderStandin() {
  const standin = $as("#standin", HTMLSelectElement);
  const was = standin.value || H.defaultLevel;
  standin.replaceChildren(...levelOptions());
  standin.value = offered(was) ? was : H.defaultLevel;
  renderStandinNote();
}

// Alone with bots nobody waits for you, so the clock starts off; with two people or more, two minutes a move.
function defaultClock() {
  const humans = /** @type {HTMLSelectElement[]} */ ($$("select.seat-kind")).filter((s) => s.value === "human").length;
  return humans > 1 ? "120" : "0";
}

function followSeats() {
  if (!H.clockChosen && $as("#clock", HTMLSelectElement).options.length) $as("#clock", HTMLSelectElement).value = defaultClock();
}

function renderStandinNote() {
  $("#standin-note").textContent = standingText(H.levels, $as("#standin", HTMLSelectElement).value, H.measured);
}

// Seats count from 1 for people ("Seat 1" is seat 0). Each seat's choice has its own <label>, and a bot's
// its level's standing at this table as its description; a level no longer offered at the table becomes the
// table's default one, and so does the stand-in's.
function renderSeats() {
  followTable();
  const n = Number($as("#players", HTMLSelectElement).value) || 2;
  const list = $("#seats");
  const old = /** @type {HTMLSelectElement[]} */ ($$("select.seat-kind", list)).map((s) => s.value);
  const teams = $as("#teams", HTMLInputElement).checked;
  const nsides = teams ? n / 2 : n;
  list.replaceChildren(...Array.from({ length: n }, (_, seat) => {
    const id = `seat-kind-${seat}`;
    const note = el("span", { id: `seat-note-${seat}`, class: "level-note" });
    const sel = el("select", { id, class: "seat-kind", dataset: { seat: String(seat) } },
      el("option", { value: "human" }, t("kind.human")), ...(seat === 0 ? [] : [...levelOptions(), botOption()]));
    const kept = old[seat] === "human" || old[seat] === BOT_ACCOUNT || offered(old[seat]);
    sel.value = seat === 0 ? "human" : kept ? old[seat] : H.defaultLevel;
    if (seat !== 0) {
      sel.setAttribute("aria-describedby", note.id);
      sel.addEventListener("change", () => { followChoice(sel); renderSeatNote(sel); });
    }
    return el("li", {},
      el("label", { class: "seat-label", for: id }, t("home.seat", { n: seat + 1 }), seat === 0 ? ` (${t("home.you")})` : ""),
      sel,
      teams ? el("span", { class: "team-tag" }, t("home.team", { t: "ABCD"[seat % nsides] })) : null,
      seat === 0 ? null : botField(seat, sel.value === BOT_ACCOUNT),
      note);
  }));
  list.querySelectorAll("select.seat-kind").forEach(renderSeatNote);
  followSeats();
  renderStandin();
}

function renderSeatNote(sel) {
  $(`#seat-note-${sel.dataset.seat}`).textContent = sel.value === BOT_ACCOUNT ? botNote(sel.dataset.seat)
    : standingText(H.levels, sel.value, H.measured);
}

// ------------------------------------------------------------------ creating a table
// An error is shown in #create-error (role=alert: read at once) and tied to its field: aria-invalid and
// aria-describedby, and the field takes the focus.
const FIELDS = {
  ruleset: "#ruleset", players: "#players", teams: "#teams", seats: "#seat-kind-1", level: "#seat-kind-1",
  cf_timeout: "#cf-timeout", standin: "#standin", pace: "#pace", rated: "#rated",
  bot: ".bot-pick:not([hidden]) input", ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`bot-${i}`, `#seat-bot-${i}`])),
};

function clearError() {
  H.error = null;
  $("#create-error").textContent = "";
  for (const node of document.querySelectorAll("#create-form [aria-invalid]")) {
    node.removeAttribute("aria-invalid");
    const rest = (node.getAttribute("aria-describedby") || "").split(" ").filter((x) => x && x !== "create-error");
    if (rest.length) node.setAttribute("aria-describedby", rest.join(" "));
    else node.removeAttribute("aria-describedby");
  }
}

// The error as a message key and its parameters, so that a change of language says it again in the new one.
/**
 * @param {[string, Record<string, unknown>?]} error the message's key and params
 * @param {string} [field] the form's field it is about
 */
function showError([key, params = {}], field) {
  H.error = [key, params];
  $("#create-error").textContent = t(key, params);
  const node = field && $(FIELDS[field] || "#nothing");
  if (!node) return;
  node.setAttribute("aria-invalid", "true");
  const ids = (node.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
  if (!ids.includes("create-error")) node.setAttribute("aria-describedby", [...ids, "create-error"].join(" "));
  node.focus();
}

// The server's refusal in the page's words: its code, else its field, names the message (the server's own text is
// English); a code this page does not know says only that the table was refused.
/** @returns {[string, Record<string, unknown>?]} the message's key and params */
function refusal(status, data, headers) {
  if (status === 429) return ["home.error.rate", { s: Number(headers.get("Retry-After")) || 60 }];
  const code = typeof data?.code === "string" ? data.code : "";
  const field = typeof data?.field === "string" ? data.field : "";
  const key = `home.error.${code || field}`;
  return [(code || field) && t(key) !== key ? key : "home.error.refused"];
}

// The field a refusal is about: a bot seat's name for a bot's refusal (the first one: the code names no seat).
function refusedField(data) {
  if (typeof data?.code === "string" && data.code.startsWith("bot-")) return "bot";
  return data?.field;
}

async function create(e) {
  e.preventDefault();
  const button = $as("#create", HTMLButtonElement);
  clearError();
  const n = Number($as("#players", HTMLSelectElement).value);
  const cf = $as("#cf-timeout", HTMLInputElement).value.trim();
  if (!/^\d+$/.test(cf) || Number(cf) < 3 || Number(cf) > 600) {
    showError(["home.error.cf_timeout"], "cf_timeout");
    return;
  }
  const bots = chosenBots();
  const unnamed = Object.keys(bots).find((seat) => !bots[seat]);
  if (unnamed !== undefined) {
    showError(["home.error.bot_name", { n: Number(unnamed) + 1 }], `bot-${unnamed}`);
    return;
  }
  const rated = ratedChosen("#rated");
  const refuses = Object.keys(bots).find((seat) => acceptsOf(bots[seat])?.[rated ? "rated" : "casual"] === false);
  if (refuses !== undefined) { // said before the server refuses it, in words that say what to change
    showError([rated ? "home.error.bot_casual_only" : "home.error.bot_rated_only", { name: bots[refuses] }], `bot-${refuses}`);
    return;
  }
  const seats = /** @type {HTMLSelectElement[]} */ ($$("select.seat-kind")).map((s) => (
    s.value === "human" ? { kind: "human" } : s.value === BOT_ACCOUNT ? { kind: BOT_ACCOUNT, name: bots[Number(s.dataset.seat)] }
      : { kind: "bot", level: s.value }));
  const body = {
    ruleset: $as("#ruleset", HTMLSelectElement).value, options: {}, players: n, teams: $as("#teams", HTMLInputElement).checked, seats, cf_timeout: Number(cf),
    spectators: $as("#spectators", HTMLInputElement).checked, public: $as("#public", HTMLInputElement).checked,
    clock: Number($as("#clock", HTMLSelectElement).value), standin: $as("#standin", HTMLSelectElement).value, pace: $as("#pace", HTMLSelectElement).value,
  };
  if (rated) body.rated = true;
  button.disabled = true;
  button.textContent = t("home.creating");
  try {
    const r = await createTable(body);
    if (!r) {
      showError(["home.error.network"]);
      return;
    }
    const data = r.data;
    if (!r.ok) {
      showError(refusal(r.status, data, r.headers), refusedField(data));
      return;
    }
    H.invites = { ...data, made: Date.now() };
    const humans = (data.seats || []).filter((s) => s.kind === "human" && typeof s.url === "string");
    remember({
      id: data.id, ruleset: body.ruleset, seat: 0, url: humans.find((s) => s.seat === 0)?.url, creator: true,
      invites: humans.filter((s) => s.seat !== 0).map((s) => ({ seat: s.seat, url: s.url })),
    });
    renderMine();
    refreshMine();
    try { sessionStorage.setItem(INVITES_KEY, JSON.stringify(H.invites)); } catch (x) { /* storage off */ }
    renderInvites();
    watchChallenges(H.invites);
    $("#invites-title").focus();
  } finally {
    button.disabled = false;
    button.textContent = t("home.create_button");
  }
}

// ------------------------------------------------------------------ invite links
function renderInvites() {
  const box = $("#invites");
  const made = H.invites;
  if (!made) { box.hidden = true; return; }
  box.hidden = false;
  $("#invite-status").textContent = "";
  const items = [];
  for (const s of made.seats) {
    if (s.kind !== "human" || typeof s.url !== "string") continue;
    const link = new URL(s.url, location.origin);
    if (link.origin !== location.origin) continue; // an invite is a page of this server, nothing else
    const full = link.href;
    const n = s.seat + 1;
    if (s.seat === 0) {
      items.push(el("li", { class: "mine" },
        el("a", { class: "invite button primary", href: full, dataset: { seat: "0" } }, t("home.my_seat", { n }))));
      continue;
    }
    const id = `invite-${s.seat}`;
    const input = el("input", { id, readonly: true, value: full, "aria-label": t("home.invite_link", { n }) });
    const copy = copyButton(input, full, $("#invite-status"), n);
    items.push(el("li", {},
      el("label", { class: "who", for: id }, t("home.invite_for", { n })),
      input, copy,
      el("a", {
        class: "invite", href: full, target: "_blank", rel: "noopener", dataset: { seat: String(s.seat) },
        "aria-label": t("home.open_for", { n }), title: t("home.open_for", { n }),
      }, "↗")));
  }
  $("#invite-list").replaceChildren(...items);
  renderChallenges();
}

// ------------------------------------------------------------------ finished games
function renderHistory() {
  const box = $("#history");
  if (!H.history.length) { box.replaceChildren(el("p", { class: "muted" }, t("home.history_empty"))); return; }
  const rows = H.history.map((tb) => {
    const ctx = { seats: tb.seats || [], sides: tb.sides || [] };
    const scores = tb.scores || [];
    const winners = tb.winners || [];
    const when = formatDate(tb.finished || tb.created);
    const sides = (tb.sides || []).map((_, s) => el("div", { class: winners.includes(s) ? "won" : "" },
      ...tn("home.side_score", { name: sideName(ctx, s), score: formatNumber(scores[s] ?? 0) }),
      winners.includes(s) ? el("span", { class: "sr" }, ` (${t("home.won")})`) : null));
    return el("tr", {},
      el("td", {}, when),
      el("td", {}, editionName(tb.ruleset) || tb.ruleset || "", el("br"), el("small", { class: "muted" }, t("ed.players", { n: tb.players })),
        tb.rated ? [" ", el("span", { class: "rated-badge" }, t("rated.badge"))] : null),
      el("td", {}, ...sides),
      el("td", {}, el("a", {
        class: "replay-link", href: `/replay/${encodeURIComponent(tb.id)}`, dataset: { table: tb.id },
        "aria-label": t("home.replay_of", { when }),
      }, t("home.replay"))));
  });
  const th = (key, cls) => el("th", { scope: "col" }, cls ? el("span", { class: cls }, t(key)) : t(key));
  box.replaceChildren(el("table", { class: "history-table" },
    el("caption", { class: "sr" }, t("home.history_caption")),
    el("thead", {}, el("tr", {}, th("home.when"), th("home.edition"), th("home.result"), th("home.replay", "sr"))),
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
  if (H.editions.length) renderEditions();
  renderSeats();  // keeps each seat's choice
  renderBotPick();
  renderClock();
  renderInvites();
  renderHistory();
  renderFan();
  renderQuick();
  renderLobby();
  renderMine();
  renderAccountLink();
  renderRated();
  if (H.error) $("#create-error").textContent = t(...H.error);
}

// /?bot=NAME[&edition=E][&players=N][&rated=1], the bots online page's "Challenge" link: the new table's form set up
// with the second seat given to that bot account (in the edition and table size given, when the form offers them;
// rated when asked and the page is signed in), its name field in focus; the address is then left as it is, so a
// reload sets the form up again.
/** @param {Promise<string | null>} account who is signed in (accountlink.js) */
function challengeFromAddress(account) {
  const asked = new URLSearchParams(location.search);
  const name = (asked.get("bot") || "").trim();
  if (!name) return;
  const ruleset = $as("#ruleset", HTMLSelectElement);
  if (H.editions.some((e) => e.name === asked.get("edition"))) {
    ruleset.value = asked.get("edition");
    renderSummary();
    renderPlayers();
  }
  const players = $as("#players", HTMLSelectElement);
  if (edition()?.players.includes(Number(asked.get("players")))) {
    players.value = asked.get("players");
    renderTeams();
  }
  if (asked.get("rated") === "1") wantRated(account);
  presetBot(1, name);
  $as("#seat-kind-1", HTMLSelectElement).value = BOT_ACCOUNT;
  renderSeats();
  followChoice($as("#seat-kind-1", HTMLSelectElement));
  $("#seat-bot-1").focus();
}

// The live tables of the signed-in account that this browser has never seen (a new device): My tables lists them, each
// seat opened by the account (#seat=N&account=1).
function bringAccountSeats() {
  const known = new Set(myTables().map((e) => e.id));
  const fresh = accountSeats().filter((s) => (s.status === "waiting" || s.status === "playing") && !known.has(s.table));
  if (!fresh.length) return;
  for (const s of fresh.reverse()) rememberAccountSeat(s.table, s.ruleset, s.seat); // oldest first: the newest ends on top
  renderMine();
  refreshMine();
}

async function main() {
  await setupLangSelect($("#lang"));
  onLangChange(renderAll);
  const signedIn = setupAccountLink();
  setupRated(signedIn);
  signedIn.then(bringAccountSeats);
  $("#create-form").addEventListener("submit", create);
  await loadCards();
  renderFan();
  try { H.invites = JSON.parse(sessionStorage.getItem(INVITES_KEY) || "null"); } catch (x) { H.invites = null; }
  renderInvites();
  if (H.invites) watchChallenges(H.invites);
  $("#ruleset").addEventListener("change", () => { renderSummary(); renderPlayers(); });
  $("#players").addEventListener("change", renderTeams);
  $("#teams").addEventListener("change", renderSeats);
  $("#seats").addEventListener("change", followSeats);
  $("#clock").addEventListener("change", () => { H.clockChosen = true; });
  try {
    const data = await getJSON("/api/editions");
    H.editions = data.editions || [];
    H.classic = { levels: data.levels || [], default_level: data.default_level, measured: true };
  } catch (x) {
    showError(["home.error.editions"]);
  }
  renderEditions();
  renderPlayers();
  renderClock();
  challengeFromAddress(signedIn);
  setupQuick(H.editions, H.classic);
  setupLearn();
  $("#standin").addEventListener("change", renderStandinNote);
  $as("#create", HTMLButtonElement).disabled = false;
  renderMine();
  setupLobby(refreshMine);
  refreshMine();
  document.body.dataset.ready = "1";
  try {
    const data = await getJSON("/api/history?limit=50");
    H.history = data.tables || [];
  } catch (x) { H.history = []; }
  renderHistory();
}

main();
