// @ts-check
// The table page's drawing: the board, the hand, the piles, the turn line, the log, the hints, the dialogs and the
// message line, all drawn from the state (state.js); the focus is kept across a redraw (focus.js).

import {
  t, tn, describeEvent, describeAction, errorMessage, seatName, sideName, sidesNames, cardName, percent,
  formatNumber, getLang, editionName, reasonNodes,
} from "../lib/words.js";
import { $, el, $as, $$, focusedElement } from "../lib/dom.js";
import { SAFETY_OF } from "../lib/cards.js";
import { cardElement, cardLabel, emptySlot } from "../cards.js";
import { tableauElement, breakdownTable, winnersText } from "../board.js";
import { textOf, announce, alertSR } from "../telling.js";
import { touchScreen } from "../keys.js";
import { renderLesson } from "../learn.js";
import { openLessonEnd } from "./lessonend.js";
import { scoreSheet } from "../sheet.js";
import { tableId, mySeat, spectator, S, ctx, mine, inWindow } from "./state.js";
import { help, presence, dialogs, keys, seatAccount, rematch, keepFocus } from "./parts.js";
import { act } from "./play.js";
import { renderBrief } from "./brief.js";

export function renderAll() {
  keepFocus(() => {
    renderInfo();
    renderBoard();
    renderHand();
    renderBrief();
    renderPiles();
    renderTurn();
    renderLog();
    renderHints();
    markHinted();
    renderUndo();
    keys.renderMoves();
    renderTargets();
    renderMessage();
    renderLesson(S.lesson);
    const undo = !S.table?.rated && S.seats.filter((x) => x.kind === "human").length === 1;
    keys.renderKeys(S.obs?.sides.length ?? S.table?.sides?.length ?? 2, S.obs?.hand.length || 7, undo);
    fitArena();
  });
  renderDialogs();
  seatAccount.render();
  if (S.landed) S.landed.fresh = false;
}

// Shrink the cards (CSS --fit) until the arena fits the window; grow them back when there is room.
export function fitArena() {
  const arena = $("#arena");
  if (!S.obs || getComputedStyle(arena).overflowY === "visible") return;
  let fit = 1.15;
  arena.style.setProperty("--fit", String(fit));
  while (arena.scrollHeight > arena.clientHeight + 1 && fit > 0.55) {
    fit = Math.round((fit - 0.05) * 100) / 100;
    arena.style.setProperty("--fit", String(fit));
  }
}

// The edition's name for players (the catalog's), the hand, its target and, for
// editions played over several hands, the match's goal.
function renderInfo() {
  const tb = S.table;
  const obs = S.obs;
  const parts = [];
  const ruleset = tb?.ruleset ?? obs?.ruleset ?? "";
  parts.push(editionName(ruleset) || ruleset);
  if (obs) {
    parts.push(t("table.hand_n", { n: obs.hand_number + 1 }));
    parts.push(t("table.target", { target: formatNumber(obs.target) }));
    const goal = obs.options?.match_target;
    if (goal) parts.push(t("table.match_to", { target: formatNumber(goal) }));
  }
  const info = parts.filter(Boolean).join(" · ");
  $("#table-info").textContent = info;
  $("#table-info").title = info; // a narrow top bar shows two lines of it
  const players = obs?.players ?? tb?.players;
  if (ruleset) $as("#rules-link", HTMLAnchorElement).href = `/rules?edition=${encodeURIComponent(ruleset)}${players ? `&players=${players}` : ""}`;
  const over = Boolean(obs?.is_over || S.status === "finished");
  $("#last-hand").hidden = !S.lastResult || over; // once over, the match's sheet holds every hand
  $("#match-result").hidden = !over;
}

// Replace only the children whose drawing changed, so that a tableau holding the focus keeps it (and a
// screen reader does not read it again) when nothing on it moved.
function updateChildren(box, items) {
  const now = [...box.children];
  const make = (it) => { const node = it.build(); node.dataset.sig = it.sig; return node; };
  if (now.length !== items.length || now.some((n, i) => n.dataset.side !== items[i].key)) {
    box.replaceChildren(...items.map(make));
    return;
  }
  items.forEach((it, i) => { if (now[i].dataset.sig !== it.sig) now[i].replaceWith(make(it)); });
}

function renderBoard() {
  const obs = S.obs;
  const opp = $("#opponents");
  const me = $("#me");
  if (!obs) { opp.replaceChildren(); me.replaceChildren(); return; }
  const nsides = obs.sides.length;
  const base = obs.side ?? 0; // a spectator sees the table from side 1's chair
  document.body.dataset.sides = String(nsides);
  const view = (side) => ({
    tableau: obs.tableaux[side], side, ctx: ctx(), target: obs.target, score: obs.match_scores[side],
    mine: side === obs.side, turnSeat: obs.turn, toAct: obs.to_act, handSizes: obs.hand_sizes, mySeat,
    focusable: true, landed: S.landed?.side === side ? S.landed : null, awayNote: presence.note,
  });
  const item = (side) => {
    const v = view(side);
    const sig = JSON.stringify([getLang(), v.tableau, v.score, v.target, v.turnSeat, v.toAct, v.handSizes, S.seats,
      v.landed && [v.landed.pile, v.landed.card]]);
    return { key: String(side), sig, build: () => tableauElement(v) };
  };
  const others = [];
  for (let k = 1; k < nsides; k++) others.push((base + k) % nsides);
  updateChildren(opp, others.map(item));
  opp.dataset.count = String(others.length);
  updateChildren(me, [item(base)]);
}

// The hand: one button per card, a single Tab stop (roving tabindex: the arrow keys move within it).
// Cards are drawn again only when the hand changes; selection and marks change in place.
export function renderHand() {
  const hand = $("#hand");
  const obs = S.obs;
  if (!obs) { hand.replaceChildren(); hand.dataset.sig = ""; hand.setAttribute("aria-label", t("table.hand")); return; }
  const legal = obs.legal_actions || [];
  const n = obs.hand.length;
  S.focusIndex = Math.max(0, Math.min(n - 1, S.focusIndex));
  hand.setAttribute("aria-label", t("hand.label", { n }));
  hand.tabIndex = -1;
  const sig = `${getLang()}|${obs.hand.join(",")}`;
  if (hand.dataset.sig !== sig) {
    hand.dataset.sig = sig;
    hand.replaceChildren(...obs.hand.map((id, i) => {
      const node = cardElement(id, { index: i, role: "button", label: cardLabel(id) });
      if (i < 9) {
        node.setAttribute("aria-keyshortcuts", String(i + 1));
        node.append(el("span", { class: "key-badge", "aria-hidden": "true" }, String(i + 1)));
      }
      return node;
    }));
  }
  [.../** @type {HTMLCollectionOf<HTMLElement>} */ (hand.children)].forEach((node, i) => {
    const id = obs.hand[i];
    const playable = legal.some((a) => a === `play ${id}` || a.startsWith(`play ${id} `));
    node.classList.toggle("selected", S.selected === i);
    node.classList.toggle("playable", playable);
    node.setAttribute("aria-pressed", S.selected === i ? "true" : "false");
    node.tabIndex = i === S.focusIndex ? 0 : -1;
    node.setAttribute("aria-describedby", "card-help");
  });
  markHinted();
  showHelp();
}

// #card-help: the card under the pointer, else the focused hand card, else the chosen one (js/cardhelp.js).
export function showHelp() {
  const box = $("#card-help");
  const hand = S.obs?.hand || [];
  // on a touch screen the focus only follows taps: the card chosen or held says it
  const focused = touchScreen() ? null : /** @type {HTMLElement | null} */ (focusedElement()?.closest?.("#hand .card[data-index]"));
  const i = [S.pointed, S.held, focused ? Number(focused.dataset.index) : null, S.selected].find((x) => x != null && x < hand.length);
  if (S.board && S.pointed == null) { box.textContent = help.line(S.board, undefined, ctx()); return; }
  if (i === undefined) { box.textContent = ""; return; }
  box.textContent = help.line(hand[i], S.refused ? S.refused[i] : undefined, ctx());
}

function renderPiles() {
  const obs = S.obs;
  const stockSpot = $("#stock .spot-card");
  const discardSpot = $("#discard .spot-card");
  if (!obs) return;
  $("#stock-count").textContent = formatNumber(obs.stock_size);
  $("#stock-name").textContent = t("pile.stock", { n: obs.stock_size });
  stockSpot.replaceChildren(obs.stock_size ? cardElement(null) : emptySlot("0"));
  const pile = obs.discard_pile;
  const top = pile[pile.length - 1];
  $("#discard-count").textContent = formatNumber(pile.length);
  $("#discard-name").textContent = top ? t("pile.discard", { n: pile.length, card: cardName(top) }) : t("pile.discard_empty");
  const landed = S.landed?.pile === "discard" && S.landed.card === top;
  const sig = `${getLang()}|${top}|${landed}`;
  if (discardSpot.dataset.sig !== sig) {
    discardSpot.dataset.sig = sig;
    discardSpot.replaceChildren(top ? cardElement(top, { class: landed ? `landed${S.landed.fresh ? " fresh" : ""}` : "" })
      : emptySlot(t("table.discard")));
  }
  $("#discard").classList.toggle("pickup", !!obs.pickup_available);
}

export function windowText() {
  const pa = S.obs.pending_attack;
  const left = S.cfDeadline === null ? 0 : Math.max(0, (S.cfDeadline - performance.now()) / 1000);
  return tn("turn.cf_window", { name: seatName(ctx(), pa.attacker), hazard: cardName(pa.hazard), s: Math.ceil(left) });
}

// #turn: whose turn, in words, for the eye (a screen reader hears "your turn" from #announce instead, and
// not the coup-fourré countdown every second)
export function setTurn(nodes) {
  const turn = $("#turn");
  const text = textOf(nodes);
  if (turn.dataset.text === text && turn.dataset.lang === getLang()) return;
  turn.dataset.text = text;
  turn.dataset.lang = getLang();
  turn.replaceChildren(...(Array.isArray(nodes) ? nodes : [nodes]));
}

function renderTurn() {
  const obs = S.obs;
  const turn = $("#turn");
  turn.classList.remove("yours");
  // state in attributes, for scripts and tests: whose decision, which, on which state
  turn.dataset.seq = S.seq === null ? "" : String(S.seq);
  turn.dataset.status = S.status || "";
  turn.dataset.decision = S.obs?.decision || "";
  turn.dataset.mine = mine() ? "1" : "0";
  renderClockData(turn);
  $("#standin-box").hidden = spectator || !S.seats.find((s) => s.seat === mySeat)?.standin;
  if (!obs) { setTurn(S.joined ? "" : t("turn.connecting")); return; }
  if (S.status === "gone") { setTurn(t("turn.gone")); return; }
  if (S.status === "waiting") {
    const missing = S.seats.filter((s) => s.kind === "human" && !s.nickname).map((s) => t("seat.empty", { n: s.seat + 1 }));
    setTurn(t("turn.waiting", { names: missing.join(", ") || "…" }));
    return;
  }
  if (obs.is_over) { setTurn(t("turn.over")); return; }
  if (S.status === "broken") { setTurn(t("turn.broken")); return; }
  const d = obs.decision;
  const key = { play: "play", draw: "draw", "coup-fourre": "cf", extension: "ext" }[d] || "play";
  if (mine()) {
    setTurn(t(S.lesson && key === "cf" ? "turn.lesson_cf" : `turn.yours_${key}`)); // a lesson's window waits
    turn.classList.add("yours");
  } else if (inWindow()) {
    setTurn(windowText());
  } else {
    setTurn(presence.note(obs.to_act, "span") || tn(`turn.other_${key}`, { name: seatName(ctx(), obs.to_act) }));
  }
}

// The turn clock's facts, as attributes of #turn for js/clock.js, which ticks them every second.
function renderClockData(turn) {
  const tc = S.status === "playing" && !S.obs?.is_over ? S.turn : null;
  turn.dataset.clockSeat = tc ? String(tc.seat) : "";
  turn.dataset.clockMine = tc && tc.seat === mySeat && !spectator ? "1" : "0";
  turn.dataset.clockName = tc ? textOf(seatName(ctx(), tc.seat)) : "";
  turn.dataset.clockSince = tc ? String(tc.since) : "";
  turn.dataset.clockEnds = tc?.ends ? String(tc.ends) : "";
  turn.dataset.clockAway = tc && presence.has(tc.seat) ? "1" : ""; // the turn line says who left instead
  turn.dataset.clockStarts = tc?.starts ? String(tc.starts) : "";
}

function renderLog() {
  const list = $("#log");
  const sig = `${getLang()}|${S.logCount}|${JSON.stringify(S.seats)}`;
  if (list.dataset.sig === sig) return;
  list.dataset.sig = sig;
  const c = ctx();
  const items = [];
  for (const ev of S.log.slice(-200)) {
    const text = describeEvent(ev, c);
    if (text) items.push(el("li", { class: `ev-${ev.type}` }, text));
  }
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}

export function chanceText(x) {
  return typeof x === "number" ? percent(x) : "–";
}

// A hint's chances: the hand's, and the match's where the edition plays one.
function chancesText(h) {
  return typeof h.match_chance === "number"
    ? t("hint.chances", { hand: chanceText(h.win_chance), match: chanceText(h.match_chance) })
    : chanceText(h.win_chance);
}

// The hints: first the recommended move (the search's choice, which weighs the points too; its card is marked in
// the hand), then the others by the chance they show, the match's where the edition plays one, else the hand's (the
// search's order between equal chances). Each is a button that plays it.
function shownOrder(actions) {
  const key = (h) => (typeof h.match_chance === "number" ? h.match_chance : h.win_chance) ?? -1;
  const others = actions.slice(1).map((h, i) => ({ h, i })).sort((a, b) => key(b.h) - key(a.h) || a.i - b.i).map((x) => x.h);
  return actions.length ? [actions[0], ...others] : [];
}

export function renderHints() {
  const box = $("#hints");
  const btn = $as("#hint-button", HTMLButtonElement);
  btn.disabled = !(mine() && S.status !== "waiting" && !S.obs?.is_over);
  const sig = `${getLang()}|${S.hints === "wait" ? "wait" : S.hints ? S.seq : ""}|${JSON.stringify(S.seats)}`;
  const note = $("#hints-note"); // the chances shown: the match's too where the edition plays one
  const listed = S.hints && S.hints !== "wait" && Array.isArray(S.hints.actions) ? S.hints.actions : null;
  const ofMatch = listed ? listed.some((h) => typeof h.match_chance === "number") : Boolean(S.obs?.options?.match_target);
  const noteKey = ofMatch ? "hints.note_match" : "hints.note";
  if (note.dataset.i18n !== noteKey) { note.dataset.i18n = noteKey; note.textContent = t(noteKey); }
  if (box.dataset.sig === sig) return;
  box.dataset.sig = sig;
  renderHintReason(S.hints === "wait" ? null : listed);
  if (S.hints === "wait") { box.replaceChildren(el("li", { class: "muted" }, t("table.hint_wait"))); return; }
  if (!listed) { box.replaceChildren(); return; }
  const pick = listed[0];
  box.replaceChildren(...shownOrder(listed).map((h) => {
    const words = describeAction(h.action, ctx(), S.obs);
    const chance = chancesText(h);
    const rank = listed.indexOf(h) + 1;
    return el("li", { class: h === pick ? "best" : "", dataset: { action: h.action, rank: String(rank) } },
      el("button", { type: "button", class: "hint-pick", onclick: () => act(h.action) },
        ...(h === pick ? [el("span", { class: "hint-mark" }, t("hints.pick")), " "] : []),
        el("span", { class: "hint-action" }, words), " ", el("span", { class: "hint-chance" }, chance)));
  }));
  // a phone's sheet shows a few lines at a time, maybe scrolled down by the last hint: the recommended move in view
  box.querySelector("li.best")?.scrollIntoView({ block: "nearest" });
}

// The hints' first line: why the search's choice is the move to play, and what is at stake (its reason).
function renderHintReason(listed) {
  const line = $("#hint-reason");
  const why = listed ? reasonNodes(listed[0]?.reason, ctx()) : [];
  line.replaceChildren(...why);
  line.hidden = !why.length;
}

// the card of the search's choice, marked in the hand while its hint stands
export function markHinted() {
  const pick = S.hints && S.hints !== "wait" && Array.isArray(S.hints.actions) ? S.hints.actions[0]?.action : null;
  const id = pick && /^(play|discard) /.test(pick) ? pick.split(" ")[1] : null;
  let marked = false;
  for (const node of $$("#hand > *")) {
    const on = !marked && id !== null && node.dataset.card === id;
    marked = marked || on;
    node.classList.toggle("hinted", on);
    let tag = node.querySelector(".hint-tag");
    if (on && !tag) node.append(el("span", { class: "hint-tag", "aria-hidden": "true" }, t("hints.card")));
    else if (!on && tag) tag.remove();
    else if (on && tag) tag.textContent = t("hints.card");
  }
}

function renderDialogs() {
  const obs = S.obs;
  const cf = $("#cf-dialog");
  const ext = $("#ext-dialog");
  const myCf = Boolean(obs && mine() && obs.decision === "coup-fourre" && obs.pending_attack);
  if (myCf) {
    const pa = obs.pending_attack;
    $("#cf-text").replaceChildren(...tn("cf.text", {
      attacker: seatName(ctx(), pa.attacker), hazard: cardName(pa.hazard), side: sideName(ctx(), pa.side),
      safety: cardName(SAFETY_OF[pa.hazard]),
    }));
    $("#cf-clock").hidden = Boolean(S.lesson); // a lesson waits: its window has no countdown to show
    $("#cf-lesson").hidden = !S.lesson;
    tickCountdown();
  }
  dialogs.set(cf, myCf, "#cf-yes"); // the window is seconds long: its primary button has the focus at once
  const myExt = Boolean(obs && mine() && obs.decision === "extension");
  if (myExt) {
    const full = obs.options?.target ?? 1000;
    $("#ext-text").textContent = t("ext.text", { target: formatNumber(obs.target), full: formatNumber(full) });
    $("#ext-yes-text").textContent = t("ext.yes", { full: formatNumber(full) });
    $("#ext-help").textContent = help.lines("extension").slice(1).join(" "); // what calling it risks and scores
  }
  dialogs.set(ext, myExt, "#ext-yes");
  const over = obs && (obs.is_over || S.status === "finished");
  if (over) {
    $("#match-over-winners").replaceChildren(...winnersText(obs.winners || [], ctx()));
    const sig = JSON.stringify([getLang(), obs.hand_results?.length, S.seats.map((s) => [s.kind, s.nickname])]);
    if ($("#match-over-table").dataset.sig !== sig) { // drawn again only when it changed: a hand's details stay open
      $("#match-over-table").dataset.sig = sig;
      $("#match-over-table").replaceChildren(scoreSheet({
        results: obs.hand_results, ctx: ctx(), options: obs.options, winners: obs.winners, scores: obs.match_scores,
      }));
    }
    $("#match-replay").setAttribute("href", `/replay/${encodeURIComponent(tableId)}`);
  }
  rematch.render();
  if (over && !S.matchShown) {
    S.matchShown = true;
    dialogs.close($("#hand-over"));
    openMatchOver();
    seatAccount.ended();
  }
}

// The match's end: its sheet, the rematch offer and the replay; the focus on the rematch where one is offered.
// The guided match ends on its last lesson instead.
export function openMatchOver() {
  if (S.lesson) { openLessonEnd(); return; }
  const offered = !$("#rematch").hidden && !$("#rematch-yes").hidden;
  dialogs.open($("#match-over"), offered ? "#rematch-yes" : "#match-replay");
}

export function tickCountdown() {
  const cd = $("#cf-countdown");
  if (S.cfDeadline === null || S.lesson) { cd.textContent = ""; $("#cf-bar").style.width = "100%"; return; }
  const left = Math.max(0, (S.cfDeadline - performance.now()) / 1000);
  cd.textContent = t("cf.seconds", { s: Math.ceil(left) });
  const total = S.cfTotal || S.table?.cf_timeout || 10;
  $("#cf-bar").style.width = `${Math.max(0, Math.min(100, (100 * left) / total))}%`;
  $("#cf-dialog").classList.toggle("urgent", left < 3);
}

// Legal targets get a glow; this only helps the eye: every click is still sent to the server.
export function renderTargets() {
  for (const n of document.querySelectorAll(".target-ok")) n.classList.remove("target-ok");
  const obs = S.obs;
  if (!obs || !mine()) return;
  const legal = obs.legal_actions || [];
  if (obs.decision === "draw") {
    $("#stock").classList.add("target-ok");
    if (legal.includes("take-discard")) $("#discard").classList.add("target-ok");
    return;
  }
  if (S.selected === null || obs.decision !== "play") return;
  const id = obs.hand[S.selected];
  if (legal.includes(`play ${id}`)) document.querySelector(`.tableau[data-side="${obs.side}"]`)?.classList.add("target-ok");
  for (const a of legal) {
    const m = a.match(/^play (\S+) (\d+)$/);
    if (m && m[1] === id) document.querySelector(`.tableau[data-side="${m[2]}"]`)?.classList.add("target-ok");
  }
  if (legal.includes(`discard ${id}`)) $("#discard").classList.add("target-ok");
}

// #message: the last error or notice, in words (re-rendered in the chosen language)
export function setMessage(m, isError = false) {
  S.message = m ? { ...m, isError } : null;
  renderMessage();
}

function messageText(m) {
  return m.frame ? errorMessage(m.frame, ctx()) : m.key ? t(m.key, m.params || {}) : m.text;
}

// A new message, shown and told: a refusal in the alert region, a notice in the polite one.
export function say(m, isError = false) {
  setMessage(m, isError);
  const text = messageText(S.message);
  if (isError) alertSR(text); else announce(text);
}

function renderMessage() {
  const box = $("#message");
  const m = S.message;
  if (!m) { box.textContent = ""; box.className = "message"; return; }
  box.textContent = messageText(m);
  box.className = `message${m.isError ? " error" : " notice"}`;
}

export function setConn(text, bad = false) {
  const c = $("#conn");
  c.textContent = text;
  c.classList.toggle("bad", bad);
}

export function fillHandOver(result) {
  S.handOver = result;
  const c = ctx();
  $("#hand-over-title").textContent = t("over.title", { n: result.hand + 1 });
  const tie = result.winners.length > 1;
  $("#hand-over-winners").replaceChildren(...tn(tie ? "over.tie" : "over.winners", { names: sidesNames(c, result.winners) }));
  $("#hand-over-table").replaceChildren(breakdownTable(result, c, S.obs?.match_scores, undefined, help.items()));
}

// Take back: shown only when the state frame says it works (a person alone with bots, a move of this hand); the
// key u asks all the same, and the server says why not. The header says from then on that the match is casual.
function renderUndo() {
  $("#undo-button").hidden = spectator || !S.joined || !S.canUndo || Boolean(S.table?.rated);
  $("#casual").hidden = !S.table?.casual;
}
