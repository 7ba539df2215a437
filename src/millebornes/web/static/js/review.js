// @ts-check
// The game review on the replay page (docs/web-api.md, "Game review"): the Review button, the progress while the
// server works it out (a progress bar, polled every second, said now and then in a polite live region), then
// the evaluation graph (evalgraph.js) and its text equivalent (a table per hand), a badge on every judged move
// (its class in colour and in words, the chance before and after, the better move and a button that shows it on
// the board), "previous / next mistake" (an inaccuracy, a mistake or a blunder; keys P and N, which the replay's
// own keys leave free) and each seat's summary: accuracy, how many decisions of each class, key moments; and a link
// to each seat's mistakes as puzzles, "your mistakes" for the seats the server says are this browser's (`yours`: the
// seat's link, or the signed-in account that held it), the others' by their names.
//
// A move is shown at step index + 1 (the position after it); the better move is shown at step index (the
// position where it was decided), its card marked in the seat's hand and its target on the board.

import { t, tn, onLangChange, describeAction, seatName, sideName, formatNumber, percent, reasonNodes } from "./lib/words.js";
import { $, el, $as, targetOf, focusedElement } from "./lib/dom.js";
import { getJSON, HttpError } from "./lib/http.js";
import { evalGraph } from "./evalgraph.js";
import { seatHeaders } from "./mytables.js";

const CLASSES = ["best", "good", "inaccuracy", "mistake", "blunder"];
const MISTAKES = new Set(["inaccuracy", "mistake", "blunder"]);
const SYMBOL = { best: "★", good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??" };
const SHOWN = ["chance", "match", "points"]; // what a badge shows (the chances, the points given away): a reason quotes the rest
const POLL_MS = 1000;
const TELL_EVERY = 25; // percent: the progress is said at each quarter
const TABLE_SEATS = 3; // seats side by side in the summary's table; more get a block each

// api: {tableId, ctx(), go(step), step(), total(), redraw()}
export function setupReview(api) {
  const S = {
    state: "idle", done: 0, total: 0, review: null, byStep: new Map(), better: null, graph: null, told: 0, poll: null, yours: [],
  };
  const url = `/api/tables/${encodeURIComponent(api.tableId)}/review`;
  const body = $("#review-body");
  const status = $("#review-status");

  function say(text) {
    status.textContent = "";
    setTimeout(() => { status.textContent = text; }, 50); // a new text, even the same words, is said again
  }

  async function load() {
    try {
      accept(await getJSON(url, seatHeaders(api.tableId)));
    } catch (x) {
      failed(x);
    }
  }

  async function start() {
    S.state = "starting";
    S.told = 0;
    drawPanel();
    try {
      const r = await fetch(url, { method: "POST", headers: { ...seatHeaders(api.tableId), Accept: "application/json" } });
      const data = await r.json().catch(() => ({}));
      if (r.status === 503) {
        S.state = "busy";
        drawPanel();
        say(t("review.busy"));
        return;
      }
      if (!r.ok) throw new HttpError(r.status, data.detail || `${r.status}`);
      if (data.state === "running") say(t("review.started"));
      accept(data);
    } catch (x) {
      failed(x);
    }
  }

  function failed(x) {
    S.state = "error";
    S.error = x.message;
    drawPanel();
    say(t("review.error", { reason: x.message }));
  }

  function accept(data) {
    const was = S.state;
    S.state = data.state;
    S.done = data.done;
    S.total = data.total;
    if (Array.isArray(data.yours)) S.yours = data.yours;
    clearTimeout(S.poll);
    if (data.state === "running") {
      const pct = S.total ? Math.floor((100 * S.done) / S.total) : 0;
      const mark = Math.floor(pct / TELL_EVERY) * TELL_EVERY;
      if (mark > S.told && mark < 100) {
        S.told = mark;
        say(t("review.percent", { percent: percent(mark / 100) }));
      }
      S.poll = setTimeout(poll, POLL_MS);
      drawProgress();
      return;
    }
    if (data.state === "done") {
      show(data.review);
      if (was === "running" || was === "starting") say(t("review.ready"));
      return;
    }
    if (data.state === "failed" && was === "running") say(t("review.failed"));
    drawPanel();
  }

  async function poll() {
    try {
      accept(await getJSON(url, seatHeaders(api.tableId)));
    } catch (x) {
      failed(x);
    }
  }

  // ------------------------------------------------------------ the panel: button, progress, summary
  function drawPanel() {
    // a control that had the focus and is drawn again gets it back; one that went hands it to the panel
    const had = body.contains(document.activeElement) ? document.activeElement.id || "-" : null;
    if (S.state === "done") {
      body.replaceChildren(...summary());
    } else if (S.state === "running" || S.state === "starting") {
      body.replaceChildren(progressNodes());
    } else {
      const words = { failed: "review.failed", busy: "review.busy" }[S.state];
      const note = S.state === "error" ? t("review.error", { reason: S.error })
        : words ? t(words) : t("review.intro");
      const button = el("button", { type: "button", id: "review-start", class: "primary", onclick: start },
        t(S.state === "idle" || S.state === "none" ? "review.start" : "review.retry"));
      body.replaceChildren(el("p", { class: S.state === "none" || S.state === "idle" ? "muted small" : "review-note" }, note),
        button);
    }
    if (had && !body.contains(document.activeElement)) {
      const same = had !== "-" && document.getElementById(had);
      (same && !same.matches(":disabled") ? same : $("button:not(:disabled)", body) || $("#review-title")).focus();
    }
  }

  function progressNodes() {
    const words = t("review.progress", { done: formatNumber(S.done), total: formatNumber(S.total) });
    return el("div", { class: "review-progress" },
      el("p", { id: "review-progress-label", class: "small" }, words),
      el("div", {
        id: "review-bar", class: "bar", role: "progressbar", "aria-labelledby": "review-progress-label",
        "aria-valuemin": "0", "aria-valuemax": String(S.total || 1), "aria-valuenow": String(S.done), "aria-valuetext": words,
      }, el("div", { class: "fill" })));
  }

  function drawProgress() {
    if (!$("#review-bar")) drawPanel();
    const bar = $("#review-bar");
    const words = t("review.progress", { done: formatNumber(S.done), total: formatNumber(S.total) });
    $("#review-progress-label").textContent = words;
    bar.setAttribute("aria-valuemax", String(S.total || 1));
    bar.setAttribute("aria-valuenow", String(S.done));
    bar.setAttribute("aria-valuetext", words);
    // the page's policy allows no inline style attribute: the width is set through the CSSOM
    /** @type {HTMLElement} */ (bar.firstChild).style.width = `${S.total ? (100 * S.done) / S.total : 0}%`;
  }

  // a seat's summary: accuracy, each class's count, decisions judged; then the key moments of every seat
  function summary() {
    const r = S.review;
    const c = api.ctx();
    const seats = r.summary;
    const table = seats.length <= TABLE_SEATS ? summaryTable(seats, c) : summaryCards(seats, c);
    const moments = seats.flatMap((s) => s.key_moments.map((k) => ({ ...k, seat: s.seat }))).sort((a, b) => a.index - b.index);
    const list = el("ul", { class: "moments" }, ...moments.map((k) => {
      const points = Math.round(Math.abs(k.swing) * 100);
      const swing = t(k.swing < 0 ? "review.swing_down" : "review.swing_up", { n: points });
      return el("li", { class: k.swing < 0 ? "down" : "up" }, moveLink(k.index + 1), " ",
        ...tn("review.moment", { name: seatName(c, k.seat), swing }));
    }));
    const nav = el("div", { class: "review-nav", role: "group", "aria-label": t("review.nav") },
      el("button", { type: "button", id: "prev-mistake", "aria-keyshortcuts": "P", onclick: () => jump(-1) }, t("review.prev_mistake")),
      el("button", { type: "button", id: "next-mistake", "aria-keyshortcuts": "N", onclick: () => jump(1) }, t("review.next_mistake")));
    // learn from the mistakes: each seat with an inaccuracy or worse, its mistakes as puzzles (this browser's first)
    const erred = seats.filter((s) => MISTAKES_OF(s) > 0);
    const learn = el("ul", { class: "learn-links" }, ...[...erred.filter((s) => S.yours.includes(s.seat)),
      ...erred.filter((s) => !S.yours.includes(s.seat))].map((s) => el("li", {},
      el("a", { href: `/puzzles?table=${encodeURIComponent(api.tableId)}&seat=${s.seat}`, class: "learn-link",
        dataset: { seat: String(s.seat), yours: S.yours.includes(s.seat) ? "1" : "0" } }, ...learnWords(s.seat, c)))));
    return [nav, el("p", { class: "muted small keys" }, t("review.keys")), table, learn,
      el("h3", {}, t("review.key_moments")), list,
      el("p", { class: "muted small" }, t("review.budget", { n: formatNumber(r.budget.worlds) }))];
  }

  // "your mistakes" to the seat's holder only; anyone else reads the player's name (a bot's as the bot)
  function learnWords(seat, c) {
    if (S.yours.includes(seat)) return [t("puzzle.learn_yours")];
    const bot = c.seats?.find((x) => x.seat === seat)?.kind === "bot";
    return tn(bot ? "puzzle.learn_bot" : "puzzle.learn_of", { name: seatName(c, seat) });
  }

  function MISTAKES_OF(s) {
    return [...MISTAKES].reduce((n, cls) => n + (s.counts[cls] ?? 0), 0);
  }

  // a column per seat, a row per figure (as chess sites show two players side by side)
  function summaryTable(seats, c) {
    const head = el("tr", {}, el("td", {}), ...seats.map((s) => el("th", { scope: "col" }, seatName(c, s.seat))));
    const acc = el("tr", { class: "accuracy" }, el("th", { scope: "row" }, t("review.accuracy")),
      ...seats.map((s) => el("td", { class: "num" }, accuracyText(s))));
    const counts = CLASSES.map((cls) => el("tr", { dataset: { class: cls } }, el("th", { scope: "row" }, chip(cls)),
      ...seats.map((s) => el("td", { class: "num" }, formatNumber(s.counts[cls] ?? 0)))));
    const judged = el("tr", {}, el("th", { scope: "row" }, t("review.judged")),
      ...seats.map((s) => el("td", { class: "num" }, formatNumber(s.judged))));
    return el("table", { class: "breakdown review-summary" },
      el("caption", { class: "sr" }, t("review.summary")),
      el("thead", {}, head), el("tbody", {}, acc, ...counts, judged));
  }

  // more seats than a narrow column holds side by side: one block per seat, its counts as chips that wrap
  function summaryCards(seats, c) {
    return el("div", { class: "seat-summaries" }, el("h3", { class: "sr" }, t("review.summary")),
      ...seats.map((s) => el("div", { class: "seat-summary", dataset: { seat: String(s.seat) } },
        el("h4", {}, seatName(c, s.seat)),
        el("p", { class: "acc" }, el("span", { class: "small" }, t("review.accuracy")), " ", el("b", {}, accuracyText(s))),
        el("ul", { class: "counts" }, ...CLASSES.map((cls) => el("li", { dataset: { class: cls } },
          chip(cls, formatNumber(s.counts[cls] ?? 0))))))));
  }

  function accuracyText(s) {
    return s.accuracy === null ? t("review.no_accuracy") : formatNumber(s.accuracy);
  }

  // a class in its colour, its sign and its word (and a count)
  function chip(cls, count = null) {
    return el("span", { class: `review-chip class-${cls}` },
      el("span", { class: "symbol", "aria-hidden": "true" }, SYMBOL[cls]), t(`review.class.${cls}`),
      count === null ? null : el("b", { class: "count" }, count));
  }

  function moveLink(step) {
    return el("a", {
      href: `?step=${step}`, class: "move-link",
      onclick: (e) => { e.preventDefault(); api.go(step); },
    }, t("review.move", { step: formatNumber(step) }));
  }

  // ------------------------------------------------------------ the graph and its words
  function show(review) {
    S.review = review;
    S.byStep = new Map(review.moves.map((m) => [m.index + 1, m]));
    drawPanel();
    drawGraph();
    api.redraw();
  }

  function drawGraph() {
    const section = $("#review-graph");
    if (!S.review) {
      section.hidden = true;
      return;
    }
    const match = S.review.match_target !== null && S.review.match_target !== undefined;
    S.graph?.close();
    S.graph = evalGraph({ review: S.review, ctx: api.ctx, total: api.total(), onPick: (step) => api.go(step) });
    const c = api.ctx();
    const nsides = S.graph.points[0]?.values.length ?? 0;
    const legend = el("ul", { class: "graph-legend", "aria-hidden": "true" },
      ...Array.from({ length: nsides }, (_, s) => el("li", {},
        el("span", { class: `swatch side-${s % 4}` }), sideName(c, s))),
      el("li", {}, el("span", { class: "swatch dot class-inaccuracy" }), t("review.class.inaccuracy")),
      el("li", {}, el("span", { class: "swatch dot class-mistake" }), t("review.class.mistake")),
      el("li", {}, el("span", { class: "swatch dot class-blunder" }), t("review.class.blunder")),
      el("li", {}, t("review.dot_seat")));
    section.hidden = false;
    $("#graph-title").textContent = t("review.graph_title");
    $("#graph-box").replaceChildren(S.graph.node);
    $("#graph-help").textContent = t("review.graph_help");
    $("#graph-legend").replaceChildren(legend);
    const open = $as("#graph-words", HTMLDetailsElement)?.open;
    $("#graph-words-box").replaceChildren(words(match, c));
    if (open) $as("#graph-words", HTMLDetailsElement).open = true;
    S.graph.redraw();
    S.graph.update(api.step());
  }

  // the text equivalent of the graph: a table per hand, a row per judged move
  function words(match, c) {
    const hands = new Map();
    for (const p of S.graph.points) {
      if (!hands.has(p.move.hand)) hands.set(p.move.hand, []);
      hands.get(p.move.hand).push(p);
    }
    const nsides = S.graph.points[0]?.values.length ?? 0;
    const details = el("details", { id: "graph-words" }, el("summary", {}, t("review.graph_words")));
    let n = 0;
    for (const [hand, points] of hands) {
      const caption = el("caption", { id: `graph-words-${++n}` }, t(match ? "review.table_match" : "review.table_hand", { n: hand + 1 }));
      const table = el("table", { class: "breakdown graph-table" }, caption,
        el("thead", {}, el("tr", {},
          el("th", { scope: "col" }, t("review.col_move")), el("th", { scope: "col" }, t("review.col_who")),
          el("th", { scope: "col" }, t("review.col_played")), el("th", { scope: "col" }, t("review.col_class")),
          ...Array.from({ length: nsides }, (_, s) => el("th", { scope: "col", class: "num" }, sideName(c, s))))),
        el("tbody", {}, ...points.map((p) => el("tr", { dataset: { step: String(p.step), class: p.move.class } },
          el("th", { scope: "row" }, moveLink(p.step)),
          el("td", {}, seatName(c, p.move.seat)),
          el("td", {}, ...actionWords(p.move.played, c, null)),
          el("td", {}, chip(p.move.class)),
          ...p.values.map((v) => el("td", { class: "num" }, percent(v)))))));
      details.append(el("div", { class: "table-scroll", role: "region", "aria-labelledby": caption.id, tabindex: "0" }, table));
    }
    return details;
  }

  function actionWords(action, c, state) {
    if (action === "take-discard" && !state?.discard_pile?.length) return [t("review.take_discard")];
    return describeAction(action, c, state);
  }

  // ------------------------------------------------------------ mistakes, one after the other
  function mistakeSteps() {
    return S.review ? S.review.moves.filter((m) => MISTAKES.has(m.class)).map((m) => m.index + 1) : [];
  }

  function jump(direction) {
    const here = api.step();
    const steps = mistakeSteps();
    const to = direction > 0 ? steps.find((s) => s > here) : steps.filter((s) => s < here).pop();
    if (to === undefined) {
      say(t(direction > 0 ? "review.no_more_after" : "review.no_more_before"));
      return;
    }
    api.go(to);
  }

  function navState() {
    const prev = $as("#prev-mistake", HTMLButtonElement);
    const next = $as("#next-mistake", HTMLButtonElement);
    if (!prev || !next) return;
    const here = api.step();
    const steps = mistakeSteps();
    const focused = focusedElement();
    prev.disabled = !steps.some((s) => s < here);
    next.disabled = !steps.some((s) => s > here);
    if (focused?.matches(":disabled")) {
      const other = focused === prev ? next : prev;
      (other.disabled ? $("#review-title") : other).focus();
    }
  }

  // ------------------------------------------------------------ the step shown: badge, better move, board marks
  function showBetter(move) {
    S.better = move;
    S.pendingFocus = "#back-to-move";
    api.go(move.index);
  }

  // the badge of the move the step shows, or the better move at the step where it was decided
  function render(d) {
    const box = $("#move-review");
    if (!S.review) {
      box.replaceChildren();
      return;
    }
    const c = api.ctx();
    const had = box.contains(document.activeElement) && document.activeElement.id ? `#${document.activeElement.id}` : null;
    if (S.better && d.step !== S.better.index) S.better = null;
    if (S.better) {
      const m = S.better;
      const back = el("button", { type: "button", id: "back-to-move", onclick: () => { S.better = null; S.pendingFocus = "#show-better"; api.go(m.index + 1); } },
        t("review.back_to_move"));
      const why = reasonNodes(m.reason, c, SHOWN);
      box.replaceChildren(el("div", { class: "review-badge better-here" }, el("p", {},
        ...tn("review.better_here", { name: seatName(c, m.seat), move: actionWords(m.best, c, d.state) })),
      why.length ? el("p", { class: "reason" }, ...why) : null, back));
      markBetter(m);
    } else {
      const m = S.byStep.get(d.step);
      if (!m) {
        box.replaceChildren();
      } else {
        const lines = [el("p", { class: "badge-line" }, chip(m.class)),
          el("p", {}, t("review.chance_hand", { before: percent(m.best_chance), after: percent(m.chance) }))];
        if (m.match_chance !== null && m.match_chance !== undefined) {
          lines.push(el("p", {}, t("review.chance_match", { before: percent(m.best_match_chance), after: percent(m.match_chance) })));
        }
        if (MISTAKES.has(m.class)) {
          lines.push(el("p", { class: "cost" }, t("review.cost", { n: Math.round(m.loss / 5) * 5 })));
          lines.push(el("p", { class: "better" }, ...tn("review.better", { name: seatName(c, m.seat), move: actionWords(m.best, c, d.state) })));
          const why = reasonNodes(m.reason, c, SHOWN); // why the better move is better, and what is at stake
          if (why.length) lines.push(el("p", { class: "reason" }, ...why));
          lines.push(el("button", { type: "button", id: "show-better", onclick: () => showBetter(m) }, t("review.show_better")));
        }
        box.replaceChildren(el("div", { class: `review-badge class-${m.class}`, dataset: { class: m.class } }, ...lines));
      }
    }
    // the button that leads to the other view has the focus there; a redraw keeps it where it was
    const focus = S.pendingFocus || (had && !box.contains(document.activeElement) ? had : null);
    S.pendingFocus = null;
    if (focus) $(focus)?.focus();
    S.graph?.update(d.step);
    navState();
  }

  // the better move on the board: its card in the seat's hand, and where it goes
  function markBetter(m) {
    const [verb, card, side] = m.best.split(" ");
    const hand = $(`#hands .seat-hand[data-seat="${m.seat}"]`);
    const pick = card && hand?.querySelector(`.card[data-card="${card}"]`);
    if (pick) {
      pick.classList.add("better-card");
      pick.append(el("span", { class: "better-tag", "aria-hidden": "true" }, t("review.better_mark")));
    }
    let target = null;
    if (verb === "play") target = $(`#tableaux .tableau[data-side="${side ?? m.side}"]`);
    else if (verb === "discard" || verb === "take-discard") target = $("#discard");
    else if (verb === "draw") target = $("#stock");
    else if (verb === "coup-fourre") target = $(`#tableaux .tableau[data-side="${m.side}"]`);
    target?.classList.add("better-target");
  }

  // what the live region adds to the step's words: the move's class and the better move, or the better move shown
  function wordsFor(d) {
    if (!S.review) return { key: "", nodes: [] };
    const c = api.ctx();
    if (S.better && d.step === S.better.index) {
      return { key: "better", nodes: tn("review.better_here", { name: seatName(c, S.better.seat), move: actionWords(S.better.best, c, d.state) }) };
    }
    const m = S.byStep.get(d.step);
    if (!m) return { key: "", nodes: [] };
    const nodes = [`${t(`review.class.${m.class}`)}.`];
    if (MISTAKES.has(m.class)) {
      nodes.push(" ", ...tn("review.better", { name: seatName(c, m.seat), move: actionWords(m.best, c, d.state) }), ".");
      const why = reasonNodes(m.reason, c, SHOWN);
      if (why.length) nodes.push(" ", ...why);
    }
    return { key: "", nodes };
  }

  // ------------------------------------------------------------ keys, language, start
  document.addEventListener("keydown", (e) => {
    // letters are free on the move slider; a field that takes text keeps them
    if (!S.review || e.altKey || e.ctrlKey || e.metaKey || targetOf(e).closest?.("input:not([type='range']), select, textarea")) return;
    const key = e.key.toLowerCase();
    if (key === "n" || key === "p") {
      e.preventDefault();
      jump(key === "n" ? 1 : -1);
    }
  });
  onLangChange(() => {
    status.textContent = ""; // a past announcement, in the other language
    drawPanel();
    if (S.review) drawGraph();
  });
  drawPanel();
  load();

  // the better move the step shows instead of the move played there, in words (the replay's "This move"), or null
  function betterShown(d) {
    if (!S.review || !S.better || d.step !== S.better.index) return null;
    const c = api.ctx();
    return tn("review.better_shown", { name: seatName(c, S.better.seat), move: actionWords(S.better.best, c, d.state) });
  }

  return { render, words: wordsFor, betterShown };
}
