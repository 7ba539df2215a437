// @ts-check
// Quick chat at a table: a few canned messages and emotes, no free text. A seat opens #chat-picker with
// #chat-button and says one; the server tells every seat and spectator (a "said" frame) and keeps the last
// lines for the welcome. Each page shows a line in its reader's language (the catalog's chat.<key>): in
// #chat-lines, in a short-lived bubble on the speaker's tableau, and to a screen reader through the polite
// live region. The reader may mute any other seat (remembered per table) or turn the whole chat off
// (remembered per browser): nothing of theirs is then shown or said. A spectator reads, never says.
// table.js hands every frame to frame() first: a "said" frame or a refused "say" is handled here.

import { t, tn, seatName, loadCatalog, onLangChange, formatNumber, errorMessage } from "./lib/words.js";
import { $, el, svgEl, $as, $$, targetOf, focusedElement } from "./lib/dom.js";
import { announce, alertSR, textOf } from "./telling.js";

// the server's list (millebornes.web.chat.KEYS), in the same order: messages, then emotes with their picture
// (drawn here in SVG, so that no emoji font is needed; fixed markup, never data)
export const MESSAGES = ["hello", "good-luck", "have-fun", "well-played", "nice-coup-fourre", "oops", "thinking", "sorry",
  "thanks", "good-game", "bye"];
const FACE = '<circle cx="12" cy="12" r="10.5" fill="#f7c948" stroke="#8a5a00" stroke-width="1"/>';
const INK = 'fill="none" stroke="#3b2a00" stroke-width="1.6" stroke-linecap="round"';
const EYES = '<circle cx="8.5" cy="9.5" r="1.3" fill="#3b2a00"/><circle cx="15.5" cy="9.5" r="1.3" fill="#3b2a00"/>';
export const EMOTES = {
  "smile": `${FACE}${EYES}<path d="M7.5 14 q4.5 4 9 0" ${INK}/>`,
  "laugh": `${FACE}<path d="M6.5 10 q2 -2.2 4 0 M13.5 10 q2 -2.2 4 0" ${INK}/>`
    + '<path d="M6.5 13 h11 q-0.5 6 -5.5 6 q-5 0 -5.5 -6 z" fill="#3b2a00"/><path d="M9.5 17.6 q2.5 -1.6 5 0 q-2.5 1.4 -5 0 z" fill="#e8605a"/>',
  "wow": `${FACE}<circle cx="8.5" cy="9.5" r="1.6" fill="#3b2a00"/><circle cx="15.5" cy="9.5" r="1.6" fill="#3b2a00"/>`
    + `<path d="M6.3 6 q2 -1.6 4 0 M13.7 6 q2 -1.6 4 0" ${INK}/><ellipse cx="12" cy="16" rx="2.2" ry="2.8" fill="#3b2a00"/>`,
  "sad": `${FACE}${EYES}<path d="M8 17.2 q4 -3.6 8 0" ${INK}/><path d="M17 11.6 q1.6 2.6 0 3.6 q-1.6 -1 0 -3.6 z" fill="#4fa3e0"/>`,
  "applause": '<g fill="#f7c948" stroke="#8a5a00" stroke-width="1">'
    + '<rect x="5" y="8" width="7" height="14" rx="3.5" transform="rotate(22 8.5 15)"/>'
    + '<rect x="12" y="8" width="7" height="14" rx="3.5" transform="rotate(-22 15.5 15)"/></g>'
    + '<path d="M8.2 11.5 l1.6 -3 M6.9 12.4 l1.6 -3 M15.8 11.5 l-1.6 -3 M17.1 12.4 l-1.6 -3" stroke="#8a5a00" stroke-width="0.8" stroke-linecap="round"/>'
    + '<path d="M4.5 6 l-1.8 -1.8 M12 4.2 v-2.6 M19.5 6 l1.8 -1.8" fill="none" stroke="#8a5a00" stroke-width="1.4" stroke-linecap="round"/>',
};

function emotePicture(key) {
  const pic = svgEl("svg", { viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" });
  pic.innerHTML = EMOTES[key];
  return pic;
}

const OFF_KEY = "millebornes.chat.off";
const BUBBLE_MS = 5000;
const KEPT = 20; // lines kept, as the server keeps them

function stored(key, fallback) {
  try { return localStorage.getItem(key) ?? fallback; } catch (e) { return fallback; }
}

function store(key, value) {
  try { localStorage.setItem(key, value); } catch (e) { /* storage off: for this page only */ }
}

const known = (key) => MESSAGES.includes(key) || key in EMOTES;

// A line's words as nodes: a message's text, or an emote's picture named in words.
function lineText(key) {
  if (!(key in EMOTES)) return t(`chat.${key}`);
  return el("span", { class: "emote", role: "img", "aria-label": t(`chat.${key}`), title: t(`chat.${key}`) }, emotePicture(key));
}

// page: {send(frame) -> bool, ctx() -> naming context, seat (null for a spectator), spectator, tableId}
export function quickChat(page) {
  const MUTE_KEY = `millebornes.chat.mute.${page.tableId}`;
  let lines = []; // {seat, key, at}, oldest first
  let muted = new Set();
  try { muted = new Set(JSON.parse(stored(MUTE_KEY, "[]")).filter(Number.isInteger)); } catch (e) { /* none */ }
  let off = stored(OFF_KEY, "0") === "1";
  const bubbles = new Map(); // seat -> {key, timer}

  const shown = (seat) => !off && !muted.has(seat);

  function renderLines() {
    const list = $("#chat-lines");
    const items = lines.filter((l) => shown(l.seat)).map((l) => el("li", { dataset: { seat: String(l.seat), key: l.key } },
      ...tn("chat.said", { name: seatName(page.ctx(), l.seat), text: lineText(l.key) })));
    list.replaceChildren(...items);
    list.hidden = off;
    $("#chat-empty").hidden = off || items.length > 0;
    list.scrollTop = list.scrollHeight;
  }

  function renderPicker() {
    const box = $("#chat-picker");
    const sig = `${t("chat.picker")}|${t("chat.hello")}`; // drawn again only in another language: the focus stays
    if (box.dataset.sig === sig) return;
    box.dataset.sig = sig;
    const say = (key, ...content) => el("button", {
      type: "button", class: `chat-say${key in EMOTES ? " emote" : ""}`, dataset: { key },
      title: key in EMOTES ? t(`chat.${key}`) : null, onclick: () => sayKey(key),
    }, ...content);
    box.setAttribute("aria-label", t("chat.picker"));
    box.replaceChildren(
      el("div", { class: "chat-messages" }, ...MESSAGES.map((k) => say(k, t(`chat.${k}`)))),
      el("div", { class: "chat-emotes", role: "group", "aria-label": t("chat.emotes") },
        ...Object.keys(EMOTES).map((k) => say(k, el("span", { class: "emote" }, emotePicture(k)), el("span", { class: "sr" }, t(`chat.${k}`))))));
  }

  // one checkbox per other human seat, "Mute Ann"
  function renderMutes() {
    const others = (page.ctx().seats || []).filter((s) => s.kind === "human" && s.seat !== page.seat);
    const box = $("#chat-mutes");
    box.hidden = others.length === 0;
    const sig = JSON.stringify([t("chat.mute"), others.map((s) => [s.seat, s.nickname]), [...muted]]);
    if (box.dataset.sig === sig) return;
    box.dataset.sig = sig;
    const active = focusedElement();
    const keep = active?.closest?.("#chat-mutes") ? active.dataset.seat : null;
    box.replaceChildren(...others.map((s) => el("label", {},
      el("input", { type: "checkbox", dataset: { seat: String(s.seat) }, checked: muted.has(s.seat) }),
      " ", el("span", {}, ...tn("chat.mute", { name: seatName(page.ctx(), s.seat) })))));
    if (keep !== null) $(`input[data-seat="${keep}"]`, box)?.focus();
  }

  function renderAll() {
    const speaks = !page.spectator && !off;
    $("#chat-button").hidden = !speaks;
    if (!speaks) openPicker(false);
    $as("#chat-off", HTMLInputElement).checked = off;
    $("#chat-off-note").hidden = !off;
    renderPicker();
    renderLines();
    renderMutes();
    placeBubbles();
  }

  function openPicker(open, focus = false) {
    $("#chat-picker").hidden = !open;
    $("#chat-button").setAttribute("aria-expanded", open ? "true" : "false");
    if (open && focus) $("#chat-picker button")?.focus();
  }

  function sayKey(key) {
    $("#chat-status").textContent = "";
    if (!page.send({ type: "say", key })) { refusedText(t("chat.offline")); return; }
    openPicker(false);
    $("#chat-button").focus();
  }

  function refusedText(text) {
    $("#chat-status").textContent = text;
    alertSR(text);
  }

  // Bubbles: on the speaker's tableau, drawn again wherever the board redraws it, gone after BUBBLE_MS.
  function bubble(seat, key) {
    const old = bubbles.get(seat);
    if (old) clearTimeout(old.timer);
    bubbles.set(seat, { key, timer: setTimeout(() => { bubbles.delete(seat); placeBubbles(); }, BUBBLE_MS) });
    placeBubbles();
  }

  function placeBubbles() {
    const ctx = page.ctx();
    for (const node of $$(".chat-bubble")) {
      const b = bubbles.get(Number(node.dataset.seat));
      if (!b || b.key !== node.dataset.key || !shown(Number(node.dataset.seat))) node.remove();
    }
    for (const [seat, b] of bubbles) {
      if (!shown(seat)) continue;
      const side = (ctx.sides || []).findIndex((list) => list.includes(seat));
      const tableau = document.querySelector(`.tableau[data-side="${side < 0 ? seat : side}"]`);
      if (!tableau || tableau.querySelector(`.chat-bubble[data-seat="${seat}"]`)) continue;
      const together = (ctx.sides?.[side] || []).length > 1; // a team's tableau: say who
      tableau.append(el("div", { class: "chat-bubble", "aria-hidden": "true", dataset: { seat: String(seat), key: b.key } },
        ...(together ? tn("chat.said", { name: seatName(ctx, seat), text: lineText(b.key) }) : [lineText(b.key)])));
    }
  }

  // The frames of the table's socket; true when the frame was the chat's alone.
  function frame(f) {
    if (f.type === "welcome") {
      lines = (Array.isArray(f.chat) ? f.chat : []).filter((l) => known(l.key)).slice(-KEPT);
      queueMicrotask(renderAll); // after table.js took the welcome's seats
      return false;
    }
    if (f.type === "seats") { queueMicrotask(renderAll); return false; }
    if (f.type === "said") {
      if (!known(f.key)) return true;
      lines.push({ seat: f.seat, key: f.key, at: f.at });
      const list = $("#chat-lines");
      list.dataset.said = String(Number(list.dataset.said || 0) + 1); // for tests: lines heard, shown or not
      if (lines.length > KEPT) lines.splice(0, lines.length - KEPT);
      renderLines();
      if (shown(f.seat)) {
        bubble(f.seat, f.key);
        announce(textOf(tn("chat.said", { name: seatName(page.ctx(), f.seat), text: t(`chat.${f.key}`) })));
      }
      return true;
    }
    if (f.type === "error" && f.say !== undefined) {
      refusedText(f.code === "rate" && typeof f.retry_after === "number"
        ? t("chat.rate", { s: formatNumber(f.retry_after) }) : errorMessage(f, page.ctx()));
      return true;
    }
    return false;
  }

  $("#chat-button").addEventListener("click", () => openPicker($("#chat-picker").hidden, true));
  $("#chat-picker").addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    e.preventDefault(); // the page's Esc (put the card down) is not for this
    openPicker(false);
    $("#chat-button").focus();
  });
  $("#chat-off").addEventListener("change", (e) => {
    off = /** @type {HTMLInputElement} */ (e.target).checked;
    store(OFF_KEY, off ? "1" : "0");
    renderAll();
  });
  $("#chat-mutes").addEventListener("change", (e) => {
    const seat = Number(targetOf(e).dataset.seat);
    if (!Number.isInteger(seat)) return;
    if (/** @type {HTMLInputElement} */ (e.target).checked) muted.add(seat); else muted.delete(seat);
    store(MUTE_KEY, JSON.stringify([...muted]));
    renderAll();
  });
  for (const box of ["#opponents", "#me"]) new MutationObserver(placeBubbles).observe($(box), { childList: true });
  onLangChange(renderAll);
  loadCatalog().then(renderAll).catch(() => {});

  return { frame };
}
