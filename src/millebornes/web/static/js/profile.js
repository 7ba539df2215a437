// @ts-check
// A player's profile (/players/NAME, GET /api/players/NAME; docs/web-api.md, "Profiles and leaderboards"): the rating
// of each edition with its graph, the totals of every game, and the games, newest first, each with its replay and
// review. Anybody may look; the account itself also sees its private games (the server decides, by its sign-in).
//
// The graph is a picture for the eye (role img, named by a sentence that gives its range); the table under "The
// graph in words" gives every point to everyone, screen readers included.

import { t, tn, setupLangSelect, onLangChange, editionName, formatNumber, getLang } from "./lib/words.js";
import { $, el, svgEl, Name, $as, $$ } from "./lib/dom.js";
import { whoIsSignedIn } from "./lib/me.js";

const TOTALS = ["games", "won", "coups_fourres", "safe_trips", "shutouts", "extensions_taken", "extensions_made", "hands"];
const HEIGHT = 150;
const PHONE_HEIGHT = 116;
const PAD = { left: 46, right: 12, top: 12, bottom: 12 };

let username = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const P = { data: null, games: [], next: null, status: null };

function api(before) {
  const query = before ? `?before=${encodeURIComponent(before)}` : "";
  return fetch(`/api/players/${encodeURIComponent(username)}${query}`, { headers: { Accept: "application/json" } });
}

function day(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleDateString(getLang() === "fr" ? "fr-FR" : "en-GB", { dateStyle: "medium" });
}

function edition(family) {
  return editionName(family) || family;
}

function ratingWords(r) {
  const n = formatNumber(r.rating);
  return r.provisional ? t("profile.provisional", { rating: n }) : n;
}

// ------------------------------------------------------------------ the rating graph
function drawGraph(box, points) {
  const width = Math.max(200, Math.floor(box.clientWidth || 560));
  const height = window.matchMedia("(max-width: 640px)").matches ? PHONE_HEIGHT : HEIGHT;
  const values = [points[0].before, ...points.map((p) => p.rating)];
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = Math.max(high - low, 40);
  const bottom = low - (span - (high - low)) / 2;
  const plotW = width - PAD.left - PAD.right;
  const plotH = height - PAD.top - PAD.bottom;
  const x = (i) => PAD.left + (values.length > 1 ? (i / (values.length - 1)) * plotW : plotW / 2);
  const y = (v) => PAD.top + (1 - (v - bottom) / span) * plotH;
  const svg = svgEl("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img", focusable: "false",
    "aria-label": t("profile.graph_label", { edition: edition(box.dataset.family), first: formatNumber(values[0]),
      last: formatNumber(values[values.length - 1]), low: formatNumber(low), high: formatNumber(high) }) });
  svg.append(svgEl("rect", { x: PAD.left, y: PAD.top, width: plotW, height: plotH, class: "plot" }));
  for (const v of new Set([low, high])) {
    svg.append(svgEl("line", { x1: PAD.left, x2: PAD.left + plotW, y1: y(v).toFixed(1), y2: y(v).toFixed(1), class: "grid" }));
    const label = svgEl("text", { x: PAD.left - 6, y: y(v).toFixed(1), class: "axis-label" });
    label.textContent = formatNumber(v);
    svg.append(label);
  }
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  svg.append(svgEl("polyline", { points: line, class: "rating-line" }));
  values.forEach((v, i) => {
    const provisional = i > 0 && points[i - 1].provisional;
    svg.append(svgEl("circle", { cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: i ? 3.5 : 2.5,
      class: provisional ? "point provisional" : "point" }));
  });
  box.replaceChildren(svg);
}

function graphTable(family, points) {
  const th = (key) => el("th", { scope: "col" }, t(key));
  return el("details", { class: "graph-words" },
    el("summary", {}, t("profile.graph_words")),
    el("div", { class: "table-scroll" }, el("table", { class: "ratings-table" },
      el("caption", { class: "sr" }, t("profile.graph_caption", { edition: edition(family) })),
      el("thead", {}, el("tr", {}, th("profile.col_date"), th("profile.col_rating"), th("profile.col_change"))),
      el("tbody", {}, ...points.map((p) => {
        const change = p.rating - p.before;
        return el("tr", {},
          el("th", { scope: "row" }, day(p.at)),
          el("td", {}, ratingWords(p)),
          el("td", {}, `${change > 0 ? "+" : change < 0 ? "−" : "±"}${formatNumber(Math.abs(change))}`));
      })))));
}

function ratingBlock(family, rating, points) {
  const box = el("div", { class: "rating-graph", dataset: { family } });
  const block = el("article", { class: "profile-rating", dataset: { family, provisional: rating.provisional ? "1" : "0" } },
    el("h3", {}, edition(family)),
    el("p", { class: "rating-now" }, el("strong", {}, ratingWords(rating)), " · ", t("profile.rated_games", { n: rating.matches })));
  if (points.length) block.append(box, graphTable(family, points));
  return block;
}

function drawGraphs() {
  for (const box of $$(".rating-graph")) {
    drawGraph(box, P.data.graph[box.dataset.family] || []);
  }
}

// ------------------------------------------------------------------ the games
function seatWords(s) {
  if (s.kind === "bot") return t("profile.bot", { level: t(`level.${s.level}`) });
  if (s.username) return playerLink(s.username);
  return s.nickname ? el("bdi", {}, s.nickname) : t("profile.someone");
}

function gameItem(g) {
  const when = day(g.finished);
  const params = { edition: edition(g.edition), when };
  const seats = new Map(g.seats.map((s) => [s.seat, s]));
  const sides = el("ul", { class: "game-sides", "aria-label": t("profile.at_table") },
    ...g.sides.map((side, i) => el("li", { class: i === g.side ? "mine" : null },
      ...side.flatMap((seat, k) => [k ? ", " : null, seatWords(seats.get(seat) || { kind: "human" })]).filter(Boolean))));
  const marks = [g.rated ? t("profile.rated") : null, g.public ? null : t("profile.private")].filter(Boolean);
  const result = el("p", { class: "account-result", dataset: { result: g.result === "lost" ? "lost" : "won" } },
    el("strong", {}, t(`profile.result.${g.result}`)), " · ",
    t("profile.scores", { scores: g.scores.map((v) => formatNumber(v)).join(" – ") }),
    g.rating ? ` · ${t("profile.rating_change", { before: formatNumber(g.rating.before), after: formatNumber(g.rating.after) })}` : null);
  return el("li", { class: "mine-table profile-game", dataset: { table: g.table, result: g.result } },
    el("h3", {}, t("profile.game", params), ...marks.map((m) => el("span", { class: "game-mark" }, m))),
    sides,
    result,
    el("div", { class: "mine-actions" },
      el("a", { class: "button replay-link", href: g.replay, "aria-label": t("profile.replay_of", params) }, t("home.replay")),
      el("a", { class: "button review-link", href: g.review, "aria-label": t("profile.review_of", params) }, t("profile.review"))));
}

// ------------------------------------------------------------------ the bots and their owner
function playerLink(name) {
  return el("a", { href: `/players/${encodeURIComponent(name)}`, class: "player-link" }, new Name(name));
}

// One of the person's bots: its profile, whether it is online, its rating in each edition it played rated.
function botItem(b) {
  const rated = Object.entries(b.ratings || {}).map(([family, r]) => `${edition(family)} ${ratingWords(r)}`);
  return el("li", { class: "profile-bot", dataset: { bot: b.name, online: b.online ? "1" : "0" } },
    playerLink(b.name), " · ", t(b.online ? "profile.bot_online" : "profile.bot_offline"), " · ",
    rated.length ? rated.join(", ") : t("profile.bot_unrated"));
}

function drawBots(d) {
  const owner = $("#profile-owner");
  owner.hidden = !d.owner;
  owner.replaceChildren(...(d.owner ? tn("profile.owner", { owner: playerLink(d.owner) }) : []));
  const bots = d.bots || [];
  $("#bots-panel").hidden = !bots.length;
  $("#profile-bots").replaceChildren(...bots.map(botItem));
}

// ------------------------------------------------------------------ the page
function draw() {
  const d = P.data;
  $("#profile-status").textContent = P.status ? t(P.status) : "";
  $("#profile-body").hidden = !d;
  if (!d) {
    $("#profile-title").textContent = t(P.status ? "profile.title" : "profile.loading");
    return;
  }
  $("#profile-title").replaceChildren(el("bdi", {}, d.username));
  $("#profile-since").textContent = t("profile.since", { when: day(d.since) });
  drawBots(d);
  const families = Object.keys(d.ratings);
  $("#profile-ratings").replaceChildren(...(families.length
    ? families.map((f) => ratingBlock(f, d.ratings[f], d.graph[f] || []))
    : [el("p", { class: "muted" }, t("profile.ratings_none"))]));
  drawGraphs();
  $("#profile-totals").replaceChildren(...TOTALS.flatMap((k) => [
    el("div", { class: "total", dataset: { total: k } }, el("dt", {}, t(`profile.totals.${k}`)), el("dd", {}, formatNumber(d.totals[k])))]));
  $("#profile-uncounted").hidden = !d.uncounted;
  $("#profile-own").hidden = !d.own;
  $("#profile-games").replaceChildren(P.games.length
    ? el("ul", { class: "mine-tables profile-games", "aria-labelledby": "games-title" }, ...P.games.map(gameItem))
    : el("p", { class: "muted" }, t("profile.games_none")));
  $("#profile-more").hidden = !P.next;
}

async function more() {
  const button = $as("#profile-more", HTMLButtonElement);
  button.disabled = true;
  const first = P.games.length;
  try {
    const r = await api(P.next);
    if (!r.ok) throw new Error(String(r.status));
    const page = await r.json();
    P.games.push(...page.games);
    P.next = page.next;
  } catch (x) {
    P.status = "profile.network";
  }
  button.disabled = false;
  draw();
  // the keyboard goes on where the new games begin
  ($$(".profile-game .replay-link")[first] || $("#games-title")).focus();
}

// /players/me (the account page's link; no username is that short): the signed-in account's own profile, else the
// account page to sign in.
async function whoAmI() {
  try {
    const me = await whoIsSignedIn();
    if (typeof me?.username !== "string") return false;
    username = me.username;
    history.replaceState(null, "", `/players/${encodeURIComponent(username)}`);
    return true;
  } catch (x) {
    return false;
  }
}

async function main() {
  if (username === "me" && !(await whoAmI())) {
    location.replace("/account");
    return;
  }
  await setupLangSelect($("#lang"));
  onLangChange(draw);
  $("#profile-more").addEventListener("click", more);
  let timer = null;
  window.addEventListener("resize", () => {
    clearTimeout(timer);
    timer = setTimeout(() => { if (P.data) drawGraphs(); }, 100);
  });
  draw();
  try {
    const r = await api(null);
    if (r.status === 404) P.status = "profile.not_found";
    else if (!r.ok) P.status = "profile.network";
    else {
      P.data = await r.json();
      P.games = P.data.games;
      P.next = P.data.next;
    }
  } catch (x) {
    P.status = "profile.network";
  }
  draw();
  document.body.dataset.ready = "1";
}

main();
