// @ts-check
// The home page's "My tables": this browser's tables (mytables.js), each with its status asked of
// GET /api/tables/{id}, a way back to my seat (or the replay of a finished match), the invite links of the
// tables created here with a Copy button each (a seat someone sat down in says so instead: its first join replaced
// its token, so the link opens nothing any more), and Forget.

import { t, tn, editionName, formatDate } from "./lib/words.js";
import { $, el, Name, $$, focusedElement } from "./lib/dom.js";
import { copyButton } from "./copy.js";
import { MAX, forget, myTables } from "./mytables.js";

const M = { status: {}, taken: {}, drawn: "" }; // table id -> "waiting" | "playing" | "finished" | "broken" | "gone" | "expired" | "unknown"
// M.taken: table id -> {seat: nickname} of the seats someone sat down in (their invite link is used up)
const DONE = new Set(["finished", "broken", "gone", "expired"]);

function statusText(id) {
  const s = M.status[id];
  if (!s) return "…";
  if (s === "gone") return t("mine.gone");
  if (s === "expired") return t("mine.expired");
  if (s === "unknown") return t("mine.unknown");
  return t(`status.${s}`);
}

function entryItem(e) {
  const edition = editionName(e.ruleset) || e.ruleset || "?";
  const when = formatDate(new Date(e.at).toISOString());
  const status = M.status[e.id];
  const facts = [statusText(e.id), e.seat !== null ? t("mine.seat", { n: e.seat + 1 }) : null,
    e.creator ? t("mine.created") : null].filter(Boolean).join(" · ");
  const actions = [];
  if (status === "finished") {
    actions.push(el("a", { class: "button replay-link", dataset: { focus: `${e.id}:replay` }, href: `/replay/${encodeURIComponent(e.id)}`, "aria-label": t("home.replay_of", { when }) },
      t("home.replay")));
  } else if (e.url && !DONE.has(status)) {
    actions.push(el("a", { class: "button primary back-link", dataset: { focus: `${e.id}:back` }, href: e.url, "aria-label": t("mine.back_to", { edition, when }) },
      t("mine.back")));
  }
  const forgetButton = el("button", { type: "button", class: "forget", dataset: { table: e.id, focus: `${e.id}:forget` }, "aria-label": t("mine.forget_this", { edition, when }) },
    t("mine.forget"));
  forgetButton.addEventListener("click", () => {
    const items = $$("#mine-list button.forget");
    const next = items[items.indexOf(forgetButton) + 1]?.dataset.table || items[items.indexOf(forgetButton) - 1]?.dataset.table;
    forget(e.id);
    renderMine();
    $("#mine-status").textContent = t("mine.forgotten", { edition, when });
    const target = next && $$("#mine-list button.forget").find((b) => b.dataset.table === next);
    (target || $("#mine-title")).focus();
  });
  actions.push(forgetButton);
  let invites = null;
  if (e.creator && e.invites.length && !DONE.has(status)) {
    invites = el("ul", { class: "mine-invites", "aria-label": t("mine.invites", { edition, when }) }, ...e.invites.map((inv) => {
      const n = inv.seat + 1;
      const taken = M.taken[e.id]?.[inv.seat];
      if (taken) return el("li", { class: "invite-taken muted", dataset: { seat: String(inv.seat) } }, ...tn("mine.invite_taken", { n, name: new Name(taken) }));
      const full = new URL(inv.url, location.origin).href;
      const id = `mine-${e.id}-${inv.seat}`;
      const input = el("input", { id, readonly: true, value: full, dataset: { focus: `${e.id}:input${n}` } });
      const copy = copyButton(input, full, $("#mine-status"), n, t("mine.copy_for", { n, edition, when }));
      copy.dataset.focus = `${e.id}:copy${n}`;
      return el("li", {}, el("label", { class: "who", for: id }, t("home.invite_for", { n })), input, copy);
    }));
  }
  return el("li", { class: "mine-table", dataset: { table: e.id, status: status || "" } },
    el("h3", {}, t("mine.table", { edition, when })),
    el("p", { class: "muted" }, facts),
    invites,
    el("div", { class: "mine-actions" }, ...actions));
}

export function renderMine() {
  const list = myTables();
  $("#mine-help").textContent = t("mine.help", { n: MAX });
  $("#mine-list").replaceChildren(list.length
    ? el("ul", { class: "mine-tables", "aria-labelledby": "mine-title" }, ...list.map(entryItem))
    : el("p", { class: "muted" }, t("mine.empty")));
}

// Ask each table still going for its status (a finished or gone one does not change any more).
export async function refreshMine() {
  const ids = myTables().map((e) => e.id).filter((id) => !DONE.has(M.status[id]));
  if (!ids.length) return;
  await Promise.all(ids.map(async (id) => {
    try {
      const r = await fetch(`/api/tables/${encodeURIComponent(id)}`, { headers: { Accept: "application/json" } });
      if (r.status === 404) M.status[id] = "gone";
      else if (r.status === 410) M.status[id] = "expired";
      else if (!r.ok) M.status[id] = "unknown";
      else {
        const facts = await r.json();
        M.status[id] = facts.status || "unknown";
        M.taken[id] = Object.fromEntries((facts.seats || []).filter((s) => s.kind === "human" && s.nickname)
          .map((s) => [s.seat, String(s.nickname)]));
      }
    } catch (x) {
      M.status[id] = "unknown";
    }
  }));
  const now = JSON.stringify([M.status, M.taken]);
  if (now === M.drawn) return;
  M.drawn = now;
  // drawn again: the focus stays on the same control when it is still there, else goes to the list's title
  const focused = focusedElement();
  const key = $("#mine-list").contains(focused) ? focused.dataset.focus : null;
  renderMine();
  if (key !== null) {
    const again = $$("#mine-list [data-focus]").find((x) => x.dataset.focus === key);
    (again || $("#mine-title")).focus();
  }
  document.body.dataset.mine = String(Number(document.body.dataset.mine || 0) + 1);
}
