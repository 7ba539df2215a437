// The table page: join with an invite link, then play in real time over the WebSocket /ws/{table}.
// The server is the only judge: a click sends what was clicked, and an illegal choice comes back explained.

import {
  $, el, t, tn, getJSON, loadCards, setupLangSelect, onLangChange, describeEvent, describeAction, errorMessage,
  seatName, sideName, joinNames, cardName, percent, SAFETY_OF, formatNumber,
} from "./common.js";
import { cardElement, emptySlot } from "./cards.js";
import { tableauElement, breakdownTable, winnersText } from "./board.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const { seat: mySeat, token } = takeInvite();

// The invite link's seat and token (#seat=N&token=...) move to this tab's sessionStorage as soon as the
// page reads them, and leave the address bar: a shared screen, the history or a bookmark never shows
// the token. A reload of the tab finds them there.
function takeInvite() {
  const key = `millebornes.seat.${tableId}`;
  const frag = new URLSearchParams(location.hash.replace(/^#/, ""));
  const given = frag.has("token") ? { seat: frag.has("seat") ? Number(frag.get("seat")) : null, token: frag.get("token") } : null;
  try {
    if (given) {
      sessionStorage.setItem(key, JSON.stringify(given));
      history.replaceState(null, "", location.pathname + location.search);
    }
    const kept = JSON.parse(sessionStorage.getItem(key) || "null");
    if (kept && typeof kept.token === "string") return { seat: kept.seat, token: kept.token };
  } catch (e) { /* storage off: the link in the address bar is all there is */ }
  return given || { seat: null, token: null };
}
const NICK_KEY = "millebornes.nickname";
const JOINED_KEY = `millebornes.joined.${tableId}.${mySeat}`;

const S = {
  table: null,        // public facts (welcome / GET /api/tables/{id})
  seats: [],          // seat facts
  obs: null,          // the seat's observation
  seq: null,          // seq of the last state
  status: null,
  cfDeadline: null,   // performance.now() ms when the coup-fourré countdown ends
  cfTotal: null,
  selected: null,     // index in the hand
  log: [],            // public events, oldest first
  hints: null,        // null, "wait" or the hint frame
  joined: false,
  lastResult: null,   // the last hand-over event
  message: null,      // {key, params} | {text} for #message
  ws: null,
  retry: 0,
  nickname: null,
  matchShown: false,
};

const ctx = () => ({ seats: S.seats, sides: S.obs?.sides ?? S.table?.sides ?? [] });

// ------------------------------------------------------------------ socket
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  S.ws = ws;
  setConn(t("turn.connecting"));
  ws.addEventListener("open", () => {
    const join = { type: "join", seat: mySeat, token };
    if (S.nickname) join.nickname = S.nickname;
    ws.send(JSON.stringify(join));
  });
  ws.addEventListener("message", (e) => {
    let frame;
    try { frame = JSON.parse(e.data); } catch (err) { return; }
    onFrame(frame);
  });
  ws.addEventListener("close", (e) => {
    if (S.ws !== ws) return;
    S.ws = null;
    if (e.code === 4401 && !S.joined) {
      showJoinError(t("msg.auth"));
      setConn("");
      return;
    }
    if (e.code === 4401) { setMessage({ key: "msg.auth" }); setConn(""); return; }
    const delay = Math.min(10, 0.5 * 2 ** S.retry);
    S.retry += 1;
    setConn(t("msg.reconnecting", { s: delay < 1 ? delay.toFixed(1) : Math.round(delay) }), true);
    setTimeout(connect, delay * 1000);
  });
}

function send(frame) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) {
    S.ws.send(JSON.stringify(frame));
    return true;
  }
  return false;
}

function act(action) {
  S.selected = null;
  if (S.message && !S.message.isError) setMessage(null);
  if (!send({ type: "act", action, seq: S.seq })) setMessage({ key: "msg.offline" }, true);
  renderHand();
  renderTargets();
}

setInterval(() => send({ type: "ping" }), 25000);

function onFrame(f) {
  switch (f.type) {
    case "welcome": {
      const wasJoined = S.joined;
      S.joined = true;
      S.retry = 0;
      S.table = f.table || S.table;
      S.seats = f.table?.seats || S.seats;
      S.status = f.table?.status || S.status;
      S.log = Array.isArray(f.log) ? f.log.slice() : S.log;
      S.fresh = true; // the next state's events are already in this log
      try { localStorage.setItem(JOINED_KEY, "1"); } catch (e) { /* storage off */ }
      $("#join-overlay").hidden = true;
      setConn("");
      setMessage(wasJoined ? { key: "msg.reconnected" } : { key: "msg.joined" });
      renderAll();
      break;
    }
    case "state": {
      const prevSeq = S.seq;
      const oldHand = S.obs?.hand?.join(",");
      S.obs = f.observation;
      S.seq = f.seq;
      if (f.seats) S.seats = f.seats;
      if (f.status) S.status = f.status;
      S.cfTotal = f.cf_deadline ?? null;
      S.cfDeadline = f.cf_deadline == null ? null : performance.now() + f.cf_deadline * 1000;
      if (S.obs.hand.join(",") !== oldHand) S.selected = null;
      if (prevSeq !== f.seq) S.hints = null;
      const events = f.events || [];
      const live = !S.fresh && prevSeq !== null && f.seq !== prevSeq;
      S.fresh = false;
      if (live) {
        S.log.push(...events);
        if (S.log.length > 400) S.log.splice(0, S.log.length - 400);
      }
      const over = events.find((e) => e.type === "hand-over");
      if (over && live) {
        S.lastResult = over;
        if (!S.obs.is_over) showHandOver(over); // at the match's end #match-over shows the breakdown
      }
      if (S.obs.hand_results?.length && !S.lastResult) S.lastResult = S.obs.hand_results[S.obs.hand_results.length - 1];
      renderAll();
      break;
    }
    case "seats":
      S.seats = f.seats || S.seats;
      renderAll();
      break;
    case "hint":
      if (f.seq === S.seq || f.seq === undefined) { S.hints = f; renderHints(); }
      break;
    case "error":
      if (f.code === "auth" && !S.joined) showJoinError(t("msg.auth"));
      if (f.code === "malformed" && !S.joined) { // the server refused the nickname: try another
        showJoinError(t("join.bad_nickname"));
        const ws = S.ws;
        S.ws = null;
        ws?.close();
        break;
      }
      setMessage({ frame: f }, true);
      if (S.hints === "wait") { S.hints = null; renderHints(); }
      break;
    default:
      break;
  }
}

// ------------------------------------------------------------------ rendering
function renderAll() {
  renderInfo();
  renderBoard();
  renderHand();
  renderPiles();
  renderTurn();
  renderLog();
  renderHints();
  renderDialogs();
  renderTargets();
  renderMessage();
  fitArena();
}

// Shrink the cards (CSS --fit) until the arena fits the window; grow them back when there is room.
function fitArena() {
  const arena = $("#arena");
  if (!S.obs || getComputedStyle(arena).overflowY === "visible") return;
  let fit = 1.15;
  arena.style.setProperty("--fit", String(fit));
  while (arena.scrollHeight > arena.clientHeight + 1 && fit > 0.55) {
    fit = Math.round((fit - 0.05) * 100) / 100;
    arena.style.setProperty("--fit", String(fit));
  }
}
window.addEventListener("resize", () => fitArena());

function renderInfo() {
  const tb = S.table;
  const obs = S.obs;
  const parts = [];
  if (tb) parts.push(`${tb.ruleset ?? obs?.ruleset ?? ""}`);
  if (obs) {
    parts.push(t("table.hand_n", { n: obs.hand_number + 1 }));
    parts.push(t("table.target", { target: formatNumber(obs.target) }));
  }
  $("#table-info").textContent = parts.filter(Boolean).join(" · ");
  $("#last-hand").hidden = !S.lastResult;
}

function renderBoard() {
  const obs = S.obs;
  const opp = $("#opponents");
  const me = $("#me");
  if (!obs) { opp.replaceChildren(); me.replaceChildren(); return; }
  const nsides = obs.sides.length;
  document.body.dataset.sides = String(nsides);
  const view = (side) => ({
    tableau: obs.tableaux[side], side, ctx: ctx(), target: obs.target, score: obs.match_scores[side],
    mine: side === obs.side, turnSeat: obs.turn, toAct: obs.to_act, handSizes: obs.hand_sizes, mySeat,
  });
  const others = [];
  for (let k = 1; k < nsides; k++) others.push((obs.side + k) % nsides);
  opp.replaceChildren(...others.map((s) => tableauElement(view(s))));
  opp.dataset.count = String(others.length);
  me.replaceChildren(tableauElement(view(obs.side)));
}

function renderHand() {
  const hand = $("#hand");
  const obs = S.obs;
  if (!obs) { hand.replaceChildren(); return; }
  const legal = obs.legal_actions || [];
  hand.replaceChildren(...obs.hand.map((id, i) => {
    const playable = legal.some((a) => a === `play ${id}` || a.startsWith(`play ${id} `));
    const node = cardElement(id, { index: i, class: `${S.selected === i ? "selected" : ""} ${playable ? "playable" : ""}` });
    node.setAttribute("role", "button");
    node.tabIndex = 0;
    return node;
  }));
}

function renderPiles() {
  const obs = S.obs;
  const stockSpot = $("#stock .spot-card");
  const discardSpot = $("#discard .spot-card");
  if (!obs) return;
  $("#stock-count").textContent = String(obs.stock_size);
  stockSpot.replaceChildren(obs.stock_size ? cardElement(null) : emptySlot("0"));
  const pile = obs.discard_pile;
  $("#discard-count").textContent = String(pile.length);
  discardSpot.replaceChildren(pile.length ? cardElement(pile[pile.length - 1]) : emptySlot(t("table.discard")));
  $("#discard").classList.toggle("pickup", !!obs.pickup_available);
}

// my decision: the seat to act, or, in a coup-fourré window, the one holding the safety (it alone has choices)
function mine() { return Boolean(S.obs && (S.obs.to_act === mySeat || (S.obs.legal_actions || []).length)); }

// after a hazard a human could answer, everyone waits the same few seconds, whoever holds the safety
function inWindow() { return Boolean(S.obs && S.obs.decision === "coup-fourre" && S.obs.to_act === null); }

function windowText() {
  const pa = S.obs.pending_attack;
  const left = S.cfDeadline === null ? 0 : Math.max(0, (S.cfDeadline - performance.now()) / 1000);
  return tn("turn.cf_window", { name: seatName(ctx(), pa.attacker), hazard: cardName(pa.hazard), s: Math.ceil(left) });
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
  if (!obs) { turn.textContent = S.joined ? "" : t("turn.connecting"); return; }
  if (S.status === "waiting") {
    const missing = S.seats.filter((s) => s.kind === "human" && !s.nickname).map((s) => t("seat.empty", { n: s.seat }));
    turn.textContent = t("turn.waiting", { names: missing.join(", ") || "…" });
    return;
  }
  if (obs.is_over) { turn.textContent = t("turn.over"); return; }
  if (S.status === "broken") { turn.textContent = t("turn.broken"); return; }
  const d = obs.decision;
  const key = { play: "play", draw: "draw", "coup-fourre": "cf", extension: "ext" }[d] || "play";
  if (mine()) {
    turn.textContent = t(`turn.yours_${key}`);
    turn.classList.add("yours");
  } else if (inWindow()) {
    turn.replaceChildren(...windowText());
  } else {
    turn.replaceChildren(...tn(`turn.other_${key}`, { name: seatName(ctx(), obs.to_act) }));
  }
}

function renderLog() {
  const list = $("#log");
  const c = ctx();
  const items = [];
  for (const ev of S.log.slice(-200)) {
    const text = describeEvent(ev, c);
    if (text) items.push(el("li", { class: `ev-${ev.type}` }, text));
  }
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}

function renderHints() {
  const box = $("#hints");
  const btn = $("#hint-button");
  btn.disabled = !(mine() && S.status !== "waiting" && !S.obs?.is_over);
  if (S.hints === "wait") { box.replaceChildren(el("li", { class: "muted" }, t("table.hint_wait"))); return; }
  if (!S.hints || !Array.isArray(S.hints.actions)) { box.replaceChildren(); return; }
  box.replaceChildren(...S.hints.actions.map((h, i) => el("li", {
    class: i === 0 ? "best" : "", dataset: { action: h.action }, title: `${h.visits ?? ""}`,
    onclick: () => act(h.action),
  }, el("span", { class: "hint-action" }, describeAction(h.action, ctx(), S.obs)),
  el("span", { class: "hint-chance" }, percent(h.win_chance)))));
}

function renderDialogs() {
  const obs = S.obs;
  const cf = $("#cf-dialog");
  const ext = $("#ext-dialog");
  const myCf = obs && mine() && obs.decision === "coup-fourre" && obs.pending_attack;
  cf.hidden = !myCf;
  if (myCf) {
    const pa = obs.pending_attack;
    $("#cf-text").replaceChildren(...tn("cf.text", {
      attacker: seatName(ctx(), pa.attacker), hazard: cardName(pa.hazard), side: sideName(ctx(), pa.side),
      safety: cardName(SAFETY_OF[pa.hazard]),
    }));
    tickCountdown();
  }
  const myExt = obs && mine() && obs.decision === "extension";
  ext.hidden = !myExt;
  if (myExt) {
    const full = obs.options?.target ?? 1000;
    $("#ext-text").textContent = t("ext.text", { target: formatNumber(obs.target), full: formatNumber(full) });
    $("#ext-yes").textContent = t("ext.yes", { full: formatNumber(full) });
  }
  const over = obs && (obs.is_over || S.status === "finished");
  if (over && !S.matchShown) {
    S.matchShown = true;
    $("#match-over").hidden = false;
  }
  if (over) {
    $("#match-over-winners").replaceChildren(...winnersText(obs.winners || [], ctx()));
    const last = obs.hand_results?.[obs.hand_results.length - 1];
    $("#match-over-table").replaceChildren(last ? breakdownTable(last, ctx(), obs.match_scores) : "");
    $("#match-replay").setAttribute("href", `/replay/${encodeURIComponent(tableId)}`);
  }
}

function tickCountdown() {
  const cd = $("#cf-countdown");
  if (S.cfDeadline === null) { cd.textContent = ""; $("#cf-bar").style.width = "100%"; return; }
  const left = Math.max(0, (S.cfDeadline - performance.now()) / 1000);
  cd.textContent = t("cf.seconds", { s: Math.ceil(left) });
  const total = S.cfTotal || S.table?.cf_timeout || 10;
  $("#cf-bar").style.width = `${Math.max(0, Math.min(100, (100 * left) / total))}%`;
  $("#cf-dialog").classList.toggle("urgent", left < 3);
}
setInterval(() => {
  if (!$("#cf-dialog").hidden) tickCountdown();
  if (inWindow() && !mine()) $("#turn").replaceChildren(...windowText());
}, 200);

// Legal targets get a glow; this only helps the eye: every click is still sent to the server.
function renderTargets() {
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
function setMessage(m, isError = false) {
  S.message = m ? { ...m, isError } : null;
  renderMessage();
}

function renderMessage() {
  const box = $("#message");
  const m = S.message;
  if (!m) { box.textContent = ""; box.className = "message"; return; }
  const text = m.frame ? errorMessage(m.frame, ctx()) : m.key ? t(m.key, m.params || {}) : m.text;
  box.textContent = text;
  box.className = `message${m.isError ? " error" : " notice"}`;
}

function setConn(text, bad = false) {
  const c = $("#conn");
  c.textContent = text;
  c.classList.toggle("bad", bad);
}

function showHandOver(result) {
  S.handOver = result;
  const c = ctx();
  $("#hand-over-title").textContent = t("over.title", { n: result.hand + 1 });
  $("#hand-over-winners").replaceChildren(...tn("over.winners", {
    names: joinNames(result.winners.map((s) => sideName(c, s))),
  }));
  $("#hand-over-table").replaceChildren(breakdownTable(result, c, S.obs?.match_scores));
  $("#hand-over").hidden = false;
}

// ------------------------------------------------------------------ clicks
function onHandClick(e) {
  const card = e.target.closest(".card[data-index]");
  if (!card) return;
  const i = Number(card.dataset.index);
  S.selected = S.selected === i ? null : i;
  if (S.selected !== null) setMessage({ key: "msg.select_card", params: { card: cardName(S.obs.hand[i]) } });
  renderHand();
  renderTargets();
}

function onBoardClick(e) {
  const tab = e.target.closest(".tableau[data-side]");
  if (!tab || !S.obs) return;
  if (S.selected === null) { setMessage({ key: "msg.pick_card" }); return; }
  const id = S.obs.hand[S.selected];
  const side = Number(tab.dataset.side);
  act(side === S.obs.side ? `play ${id}` : `play ${id} ${side}`);
}

function onDiscardClick() {
  if (!S.obs) return;
  if (S.selected !== null) { act(`discard ${S.obs.hand[S.selected]}`); return; }
  if (S.obs.decision === "draw" && mine()) { act("take-discard"); return; }
  setMessage({ key: "msg.pick_card" });
}

function onStockClick() {
  if (!S.obs) return;
  act("draw");
}

function keyActivate(fn) {
  return (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); fn(e); } };
}

// the server's rules (frames.clean_nickname), counted the same way: characters are code points after NFC
function goodNickname(nick) {
  const n = [...nick].length;
  return n >= 1 && n <= 24 && /[\p{L}\p{N}]/u.test(nick) && !/[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}]/u.test(nick)
    && ![...nick].some((c) => /\p{Zs}/u.test(c) && c !== " ") && !/^(bot|robot|seat|place)\W*\d/i.test(nick.normalize("NFKC"));
}

function showJoinError(text) {
  $("#join-overlay").hidden = false;
  $("#join").disabled = false;
  $("#join-error").textContent = text;
}

function startJoin(nickname) {
  S.nickname = nickname;
  try { if (nickname) localStorage.setItem(NICK_KEY, nickname); } catch (e) { /* storage off */ }
  $("#join").disabled = true;
  connect();
}

async function main() {
  await setupLangSelect($("#lang"));
  onLangChange(() => {
    renderAll();
    if (!$("#hand-over").hidden && S.handOver) showHandOver(S.handOver);
  });
  const cards = loadCards();
  $("#hand").addEventListener("click", onHandClick);
  $("#hand").addEventListener("keydown", keyActivate(onHandClick));
  $("#arena").addEventListener("click", (e) => { if (e.target.closest("#opponents, #me")) onBoardClick(e); });
  $("#discard").addEventListener("click", onDiscardClick);
  $("#discard").addEventListener("keydown", keyActivate(onDiscardClick));
  $("#stock").addEventListener("click", onStockClick);
  $("#stock").addEventListener("keydown", keyActivate(onStockClick));
  $("#cf-yes").addEventListener("click", () => act("coup-fourre"));
  $("#cf-no").addEventListener("click", () => act("pass"));
  $("#ext-yes").addEventListener("click", () => act("extend"));
  $("#ext-no").addEventListener("click", () => act("end-hand"));
  $("#hint-button").addEventListener("click", () => {
    if (send({ type: "hint" })) { S.hints = "wait"; renderHints(); }
  });
  $("#hand-over-close").addEventListener("click", () => { $("#hand-over").hidden = true; });
  $("#match-over-close").addEventListener("click", () => { $("#match-over").hidden = true; });
  $("#last-hand").addEventListener("click", () => { if (S.lastResult) showHandOver(S.lastResult); });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") { $("#hand-over").hidden = true; S.selected = null; renderHand(); renderTargets(); }
  });

  let stored = "";
  try { stored = localStorage.getItem(NICK_KEY) || ""; } catch (e) { /* storage off */ }
  if (!$("#nickname").value) $("#nickname").value = stored;

  $("#join-form").addEventListener("submit", (e) => {
    e.preventDefault();
    if (!tableId || mySeat === null || !Number.isInteger(mySeat) || !token) return;
    const nick = $("#nickname").value.normalize("NFC").trim();
    if (!goodNickname(nick)) { $("#join-error").textContent = t("join.bad_nickname"); return; }
    $("#join-error").textContent = "";
    cards.then(() => startJoin(nick));
  });

  if (!tableId || mySeat === null || !Number.isInteger(mySeat) || !token) {
    $("#join").disabled = true;
    $("#nickname").disabled = true;
    $("#join-error").textContent = t("join.no_token");
    return;
  }
  // enabled only now, so that nothing is submitted before the page can handle it
  $("#nickname").disabled = false;
  $("#join").disabled = false;
  if (!$("#nickname").matches(":focus")) $("#nickname").focus();
  getJSON(`/api/tables/${encodeURIComponent(tableId)}`).then((facts) => {
    if (!S.table) { S.table = facts; S.seats = facts.seats || []; S.status = facts.status; }
    const edition = facts.ruleset || "";
    $("#join-table").textContent = `${edition} · ${t("ed.players", { n: facts.players })} · ${t("seat.name", { n: mySeat })}`;
    renderAll();
  }).catch(() => {});

  let joinedBefore = false;
  try { joinedBefore = localStorage.getItem(JOINED_KEY) === "1"; } catch (e) { /* storage off */ }
  if (joinedBefore) {
    $("#join-overlay").hidden = true;
    cards.then(() => startJoin(stored || null));
  }
}

// A handle for debugging and the browser tests (e.g. drop the socket to see the reconnection).
window.millebornes = { socket: () => S.ws, state: () => S };

main();
