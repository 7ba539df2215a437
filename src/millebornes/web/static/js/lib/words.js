// @ts-check
// Words, shared by every page: the language, the message catalog (t, tn), card names, numbers and dates as the
// language writes them, and seats, sides, events, actions and refusals in words.

import { el, Name, Names, nodesOf } from "./dom.js";
import { getJSON } from "./http.js";
import { CARDS } from "./cards.js";

// Every word comes from the server's message catalog (GET /api/catalog/LANG), loaded before a page draws.
const CATALOGS = {};
const loading = {};

export function loadCatalog(lang = getLang()) {
  if (!loading[lang]) {
    loading[lang] = getJSON(`/api/catalog/${lang}`).then((data) => { CATALOGS[lang] = data; })
      .catch((e) => { delete loading[lang]; throw e; });
  }
  return loading[lang];
}

// ------------------------------------------------------------------ language
const LANG_KEY = "millebornes.lang";
const listeners = [];

export function getLang() {
  let lang = null;
  try { lang = localStorage.getItem(LANG_KEY); } catch (e) { /* storage off */ }
  if (lang === "en" || lang === "fr") return lang;
  return (navigator.language || "en").toLowerCase().startsWith("fr") ? "fr" : "en";
}

export async function setLang(lang) {
  if (lang !== "en" && lang !== "fr") return;
  await loadCatalog(lang);
  try { localStorage.setItem(LANG_KEY, lang); } catch (e) { /* storage off */ }
  document.documentElement.lang = lang;
  applyStatic();
  for (const fn of listeners) fn(lang);
}

export function onLangChange(fn) { listeners.push(fn); }

// The message `key` with its {placeholders} filled. A plural message picks its form by params.n (the
// language's rule: French counts 0 and 1 as one) and is given n written as the language writes numbers.
export function t(key, params = {}) {
  const lang = getLang();
  const cat = CATALOGS[lang] || CATALOGS.en || { messages: {}, plurals: {} };
  let s = cat.messages[key];
  if (s === undefined && key in cat.plurals) {
    const n = Number(params.n);
    const forms = cat.plurals[key];
    s = forms[new Intl.PluralRules(lang).select(n) === "one" ? 0 : forms.length - 1];
    if (typeof params.n === "number") params = { ...params, n: formatNumber(n) };
  }
  if (s === undefined) s = key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

// t() as nodes for the page: every player's name in the message stands in its own <bdi>.
export function tn(key, params = {}) {
  const marks = Object.keys(params).map((k) => [k, k === "n" && typeof params.n === "number" ? params.n : `\u0000${k}\u0000`]);
  const s = t(key, Object.fromEntries(marks));
  return s.split(/\u0000(\w+)\u0000/).flatMap((part, i) => (i % 2 ? nodesOf(params[part]) : part ? [part] : []));
}

// Every element with data-i18n="key" gets t(key) as its text (data-i18n-attr="placeholder" for an attribute).
export function applyStatic(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    const attr = node.getAttribute("data-i18n-attr");
    if (attr) node.setAttribute(attr, t(node.getAttribute("data-i18n")));
    else node.textContent = t(node.getAttribute("data-i18n"));
  }
  document.title = t(document.body?.dataset.titleKey || "app.title");
}

// Wire a <select id="lang"> to the language setting.
export async function setupLangSelect(select) {
  await loadCatalog(getLang());
  const lang = getLang();
  document.documentElement.lang = lang;
  select.replaceChildren(el("option", { value: "en", lang: "en" }, "English"), el("option", { value: "fr", lang: "fr" }, "Français"));
  select.value = lang;
  select.addEventListener("change", () => setLang(select.value));
  applyStatic();
}

export function cardName(id, lang = getLang()) {
  return CATALOGS[lang]?.messages[`card.${id}`] ?? String(id);
}

export function formatNumber(n) {
  return new Intl.NumberFormat(getLang() === "fr" ? "fr-FR" : "en-US").format(n);
}

export function percent(x) {
  return new Intl.NumberFormat(getLang() === "fr" ? "fr-FR" : "en-US",
    { style: "percent", maximumFractionDigits: 0 }).format(x);
}

export function joinNames(names) {
  if (names.length <= 1) return names[0] ?? t("ev.nobody");
  const items = [];
  names.forEach((n, i) => items.push(...(i === 0 ? [] : [i === names.length - 1 ? t("and") : ", "]), n));
  return new Names(items);
}

// ------------------------------------------------------------------ seats, sides, events in words
// A naming context: {seats: [{seat, kind, level, nickname}], sides: [[seat...]]}.
// People count seats from 1 ("Seat 1" is seat 0), as the terminal game does.
export function seatName(ctx, seat) {
  const s = ctx.seats?.find((x) => x.seat === seat);
  if (s && s.kind === "bot") return t("bot.name", { n: seat + 1, level: t(`level.${s.level}`) });
  if (s && s.nickname) return new Name(s.nickname);
  return t("seat.name", { n: seat + 1 });
}

// An edition's name for players (the catalog's edition.NAME), never the engine's identifier.
export function editionName(name) {
  const key = `edition.${name}`;
  const text = t(key);
  return text === key ? "" : text;
}

// A rating as GET /api/account gives it ({rating, provisional}), its number as the language writes it, marked while
// it is provisional.
export function ratingText(r) {
  const n = formatNumber(r.rating);
  return r.provisional ? t("rated.provisional", { rating: n }) : n;
}

// How an offered level did against the one below it, from a table's levels ({level, below, in_ten, matches}; the
// lowest has no below); "" for a level not offered (a person's seat). Where the table was not measured (measured
// false), the figure is two-player classic's, and the text says so.
export function standingText(levels, level, measured = true) {
  const s = levels.find((l) => l.level === level);
  if (!s) return "";
  const name = t(`level.${level}`);
  if (s.below === undefined) return t("level.lowest", { level: name });
  const params = { level: name, below: t(`level.${s.below}`), matches: t("level.matches", { n: s.matches }) };
  // "about 10 times in 10" for 95% or more would read as "always"
  const text = s.in_ten >= 10 ? t("level.standing_always", params) : t("level.standing", { n: s.in_ten, ...params });
  return measured ? text : t("level.elsewhere", { standing: text });
}

// The ladder of a table, from GET /api/editions (each edition's ladders, one per count of players and teams):
// {levels, default_level, measured}; else the given fallback (two-player classic's, the top-level levels).
export function ladderOf(edition, players, teams, fallback) {
  return edition?.ladders?.find((l) => l.players === players && l.teams === !!teams) || fallback;
}

// How soon a new table's bots move (POST /api/tables' pace): the options of the home page's two pace pickers.
export const PACES = ["relaxed", "normal", "fast"];
export function paceOptions() {
  return PACES.map((p) => el("option", { value: p }, t(`pace.${p}`)));
}

export function sideName(ctx, side) {
  const seats = ctx.sides?.[side] ?? [side];
  return joinNames(seats.map((s) => seatName(ctx, s)));
}

// Several sides' names: "Ann and Bob" for lone seats; teams, whose names have an "and" of their own, apart
// ("Ann and Cy; Bob and Dee").
export function sidesNames(ctx, sides) {
  const names = sides.map((s) => sideName(ctx, s));
  if (!sides.some((s) => (ctx.sides?.[s]?.length ?? 1) > 1)) return joinNames(names);
  return new Names(names.flatMap((n, i) => (i ? [t("list.sep"), n] : [n])));
}

const SIDE_OF_SEAT = (ctx, seat) => {
  const i = (ctx.sides || []).findIndex((list) => list.includes(seat));
  return i < 0 ? seat : i;
};

// One public event in words, or null for events that stay out of the log (automatic draws).
export function describeEvent(ev, ctx) {
  const name = (seat) => seatName(ctx, seat);
  switch (ev.type) {
    case "deal":
      return tn("ev.deal", { n: ev.hand + 1, target: ev.target });
    case "play": {
      const group = CARDS[ev.card]?.group;
      if (group === "hazard" && ev.side !== SIDE_OF_SEAT(ctx, ev.seat)) {
        return tn("ev.play_on", { name: name(ev.seat), card: cardName(ev.card), side: sideName(ctx, ev.side) });
      }
      if (group === "safety") return tn("ev.safety", { name: name(ev.seat), card: cardName(ev.card) });
      return tn("ev.play_own", { name: name(ev.seat), card: cardName(ev.card) });
    }
    case "discard":
      return tn("ev.discard", { name: name(ev.seat), card: cardName(ev.card) });
    case "take-discard":
      return tn("ev.take_discard", { name: name(ev.seat), card: cardName(ev.card) });
    case "coup-fourre":
      return tn("ev.coup_fourre", {
        name: name(ev.seat), card: cardName(ev.card), hazard: cardName(ev.hazard), attacker: name(ev.attacker),
      });
    case "extend":
      return tn("ev.extend", { name: name(ev.seat), target: formatNumber(ev.target) });
    case "end-hand":
      return tn("ev.end_hand", { name: name(ev.seat) });
    case "hand-over": {
      const pts = (ev.points || []).map((p, s) => [...(s ? [", "] : []), ...tn("ev.points", { name: sideName(ctx, s), p: formatNumber(p) })]);
      return tn("ev.hand_over", { n: ev.hand + 1, points: pts });
    }
    case "match-over": {
      const scores = (ev.scores || []).map((p) => formatNumber(p)).join(" – ");
      const winners = ev.winners || [];
      return tn(winners.length > 1 ? "ev.match_tie" : "ev.match_over", { names: sidesNames(ctx, winners), scores });
    }
    case "standin":
      return tn(ev.why === "time" ? "ev.standin_time" : "ev.standin_away", { name: name(ev.seat) });
    case "back":
      return tn("ev.back", { name: name(ev.seat) });
    case "forfeit":
      return tn(ev.why === "away" ? "ev.forfeit_away" : "ev.forfeit", { name: name(ev.seat) });
    case "unrated":
      return tn("ev.unrated", { name: name(ev.seat) });
    case "action":
      if (ev.action === "pass") return tn("ev.pass", { name: name(ev.seat) });
      return null;
    default:
      return null;
  }
}

// An action string of the engine's notation in words (nodes).
export function describeAction(action, ctx, obs) {
  const parts = String(action).split(" ");
  if (parts[0] === "play" && parts.length === 3) {
    return tn("action.play_on", { card: cardName(parts[1]), side: sideName(ctx, Number(parts[2])) });
  }
  if (parts[0] === "play") return tn("action.play", { card: cardName(parts[1]) });
  if (parts[0] === "discard") return tn("action.discard", { card: cardName(parts[1]) });
  if (parts[0] === "take-discard") {
    const top = obs?.discard_pile?.[obs.discard_pile.length - 1];
    return tn("action.take-discard", { card: top ? cardName(top) : "" });
  }
  return tn(`action.${parts[0]}`);
}

// How to say each parameter of a refusal (millebornes.actions.PARAM_KINDS): a card id as the card's name
// (an empty battle pile as "empty"), a seat or a side by the players' names, a number as the language
// writes it, a decision by what it asks.
const PARAM_KINDS = {
  card: "card", hazard: "card", safety: "card", need: "card", top: "card",
  seat: "seat", to_act: "seat", side: "side",
  distance: "number", value: "number", target: "number", decision: "decision",
};

// Why the engine refused an action, in the page's language: the catalog's reason.CODE filled with the
// frame's params; a reason this page's catalog does not know falls back to the server's English words.
export function reasonText(frame, ctx) {
  const key = `reason.${frame.reason}`;
  const params = {};
  for (const [name, value] of Object.entries(frame.params || {})) {
    const kind = PARAM_KINDS[name];
    if (kind === "card") params[name] = value === null ? t("pile.empty") : cardName(value);
    else if (value === null || value === undefined) params[name] = "";
    else if (kind === "seat") params[name] = seatName(ctx || {}, value);
    else if (kind === "side") params[name] = sideName(ctx || {}, value);
    else if (kind === "number") params[name] = formatNumber(value);
    else if (kind === "decision") params[name] = t(`decision.${value}`);
  }
  const text = t(key, params);
  return text === key ? String(frame.message ?? "") : text;
}

// How each parameter of a move's reason is said (millebornes.i18n.words.REASON_PARAMS): a card id by the card's
// name, a side by its players' names, distances in miles (bornes), a bonus in points.
const REASON_PARAMS = {
  card: "card", other_card: "card", safety: "card", hazard: "card", remedy: "card", side: "side",
  km: "miles", left: "miles", more: "miles", distance: "miles", target: "number", bonus: "points",
};

// What is at stake, as a reason's params quote it: the figure that tells most (params.figure), or when that one is
// shown already the next of points gained, the match's chance and the hand's (millebornes.reasons.FIGURE_ORDER).
function reasonFigure(p, shown) {
  for (const kind of [p.figure, "points", "match", "chance"]) {
    if (!kind || shown.includes(kind)) continue;
    if (kind === "points" && typeof p.gain_points === "number") return t("reason.figure.points", { n: p.gain_points });
    if ((kind === "match" || kind === "chance") && typeof p[kind] === "number") {
      const other = p[`other_${kind}`];
      return typeof other === "number"
        ? t(`reason.figure.${kind}`, { chance: formatNumber(p[kind]), other: formatNumber(other) })
        : t(`reason.figure.${kind}_alone`, { chance: formatNumber(p[kind]) });
    }
  }
  return "";
}

// Why a move is better (millebornes.reasons: {code, params}) in one line, as nodes (a side's names in <bdi>);
// nothing for a reason this page's catalog does not know. `shown`: the figures the page shows beside it already
// ("chance", "match"): the line quotes another, or none.
/**
 * @param {{code: string, params?: Record<string, unknown>} | null | undefined} reason
 * @param {string[]} [shown]
 */
export function reasonNodes(reason, ctx, shown = []) {
  if (!reason || typeof reason.code !== "string") return [];
  const key = `reason.${reason.code}`;
  if (t(key) === key) return [];
  const p = reason.params || {};
  const params = {};
  for (const [name, value] of Object.entries(p)) {
    const kind = REASON_PARAMS[name];
    if (kind === "card") params[name] = cardName(value);
    else if (kind === "side") params[name] = sideName(ctx || {}, Number(value));
    else if (kind === "miles") params[name] = t("reason.miles", { n: Number(value) });
    else if (kind === "points") params[name] = t("reason.points", { n: Number(value) });
    else if (kind === "number") params[name] = formatNumber(Number(value));
  }
  const why = tn(key, params);
  const figure = reasonFigure(p, shown);
  return figure ? tn("reason.line", { why, figure }) : why;
}

export function errorMessage(frame, ctx) {
  const code = frame.code;
  if (code === "illegal") return t("msg.illegal", { reason: reasonText(frame, ctx) });
  if (code === "rate" && typeof frame.retry_after === "number") {
    return t("msg.hint_rate", { s: formatNumber(frame.retry_after) });
  }
  const key = {
    auth: "msg.auth", "not-your-turn": "msg.not_your_turn", stale: "msg.stale", finished: "msg.finished",
    waiting: "msg.waiting", broken: "msg.broken", rate: "msg.rate", malformed: "msg.malformed",
    "too-large": "msg.too_large", busy: "msg.busy", server: "msg.server",
    "no-spectators": "msg.no_spectators", full: "msg.spectators_full", spectator: "msg.spectator",
    "not-finished": "msg.not_finished", joined: "msg.rematch_joined", started: "msg.rematch_started",
    "not-rematch": "msg.not_rematch", "not-waiting": "msg.not_waiting",
    lesson: "learn.not_this", expired: "msg.expired", withdrawn: "msg.withdrawn", "seat-full": "msg.seat_full", "table-full": "msg.table_full", "too-many": "msg.too_many_sockets",
  }[code];
  if (key) return t(key);
  if (code === "not-allowed") { // a move not taken back (docs/web-api.md, "Taking back a move")
    const why = { humans: "undo.no_humans", nothing: "undo.no_nothing", deal: "undo.no_deal", window: "undo.no_window",
      lesson: "undo.no_lesson", rated: "undo.no_rated" }[frame.reason];
    if (why) return t(why);
  }
  return t("msg.error", { reason: frame.message || code });
}

export function itemName(item) {
  return t(`item.${item}`);
}

export function formatDate(iso) {
  if (!iso) return "";
  const d = new Date(typeof iso === "number" ? iso * 1000 : iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return d.toLocaleString(getLang() === "fr" ? "fr-FR" : "en-GB", { dateStyle: "medium", timeStyle: "short" });
}
