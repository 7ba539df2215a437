// @ts-check
// The home page's lobby: the open public tables (GET /api/lobby), asked again every POLL_MS while the tab is
// seen and on Refresh, each free seat with a Join button that claims it (POST .../claim) and goes to its link.

import { t, tn, editionName, formatDate } from "./lib/words.js";
import { $, el, $$, targetOf, focusedElement } from "./lib/dom.js";
import { remember } from "./mytables.js";

const POLL_MS = 10_000;
const L = { tables: null, failed: false, error: null, busy: false };

function seatText(s) {
  if (s.kind === "bot") return t(`kind.${s.level || "medium"}`);
  if (s.free) return t("lobby.seat_free");
  return s.nickname ? el("bdi", {}, s.nickname) : "…";
}

function tableItem(tb) {
  const edition = editionName(tb.ruleset) || tb.ruleset;
  const seats = (tb.seats || []).map((s) => el("li", { class: s.free ? "free" : "" },
    el("span", { class: "seat-no" }, t("home.seat", { n: s.seat + 1 })),
    el("span", { class: "seat-who" }, seatText(s)),
    s.free ? el("button", {
      type: "button", class: "primary lobby-join", dataset: { table: tb.id, seat: String(s.seat), ruleset: tb.ruleset },
      "aria-label": t("lobby.join_seat", { n: s.seat + 1, edition }),
    }, t("lobby.join")) : null));
  const facts = [t("ed.players", { n: tb.players }), tb.teams ? t("lobby.teams") : null].filter(Boolean).join(", ");
  return el("li", { class: "lobby-table", dataset: { table: tb.id } },
    el("h3", {}, edition, " ", el("span", { class: "muted" }, `(${facts})`),
      tb.rated ? [" ", el("span", { class: "rated-badge" }, t("rated.badge"))] : null),
    el("p", { class: "muted" }, tn("lobby.free", { n: tb.free }), " · ", t("lobby.opened", { when: formatDate(tb.created) })),
    el("ul", { class: "lobby-seats", "aria-label": t("lobby.seats_of", { edition }) }, ...seats));
}

// Drawing the list again keeps the focus on the same button when it is still there, else on the list's title.
export function renderLobby() {
  const box = $("#lobby-list");
  const focused = focusedElement();
  const inside = box.contains(focused) && focused !== box;
  const key = inside ? `${focused.dataset.table}/${focused.dataset.seat}` : null;
  if (L.tables === null) {
    box.replaceChildren(el("p", { class: "muted" }, L.failed ? t("lobby.error.load") : "…"));
  } else if (!L.tables.length) {
    box.replaceChildren(el("p", { class: "muted" }, L.failed ? t("lobby.error.load") : t("lobby.empty")));
  } else {
    box.replaceChildren(
      ...(L.failed ? [el("p", { class: "error" }, t("lobby.error.load"))] : []),
      el("ul", { class: "lobby-tables", "aria-labelledby": "lobby-title" }, ...L.tables.map(tableItem)));
  }
  $("#lobby-error").textContent = L.error ? t(...L.error) : "";
  if (inside) {
    const again = $$("button.lobby-join", box).find((b) => `${b.dataset.table}/${b.dataset.seat}` === key);
    (again || $("#lobby-title")).focus();
  }
}

// ``said``: the count is told in the status line (a Refresh asked for it); a poll changes the list silently.
async function load(said = false) {
  try {
    const r = await fetch("/api/lobby", { headers: { Accept: "application/json" } });
    if (!r.ok) throw new Error(String(r.status));
    const data = await r.json();
    const tables = Array.isArray(data.tables) ? data.tables : [];
    const same = !L.failed && L.tables !== null && JSON.stringify(tables) === JSON.stringify(L.tables);
    L.tables = tables;
    L.failed = false;
    if (!same) renderLobby(); // an unchanged list is not drawn again: a screen reader's place in it stays
  } catch (x) {
    L.failed = true;
    renderLobby();
  }
  if (said) $("#lobby-status").textContent = L.failed ? "" : tn("lobby.count", { n: L.tables.length });
  document.body.dataset.lobby = String(Number(document.body.dataset.lobby || 0) + 1);
}

async function claim(button) {
  if (L.busy) return;
  const { table, seat, ruleset } = button.dataset;
  L.busy = true;
  L.error = null;
  button.disabled = true;
  try {
    let r;
    try {
      r = await fetch(`/api/tables/${encodeURIComponent(table)}/seats/${Number(seat)}/claim`, {
        method: "POST", headers: { Accept: "application/json" },
      });
    } catch (x) {
      L.error = ["home.error.network"];
      return;
    }
    const data = await r.json().catch(() => null);
    if (r.ok && typeof data?.url === "string" && data.url.startsWith(`/t/${encodeURIComponent(table)}#`)) {
      remember({ id: table, ruleset, seat: Number(seat), url: data.url });
      location.assign(data.url);
      return;
    }
    L.error = r.status === 429 ? ["lobby.error.rate", { s: Number(r.headers.get("Retry-After")) || 60 }]
      : r.status === 409 ? ["lobby.taken"] : ["lobby.gone"];
    await load();
  } finally {
    L.busy = false;
    button.disabled = false;
    renderLobby();
  }
}

// ``onRefresh``: what else the page asks again on Refresh and when the tab is seen again (not at every poll).
export function setupLobby(onRefresh) {
  $("#lobby-refresh").addEventListener("click", () => { L.error = null; load(true); onRefresh?.(); });
  $("#lobby-list").addEventListener("click", (e) => {
    const button = /** @type {HTMLElement | null} */ (targetOf(e).closest("button.lobby-join"));
    if (button) claim(button);
  });
  setInterval(() => { if (!document.hidden) load(); }, POLL_MS);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) { load(); onRefresh?.(); } });
  load();
}
