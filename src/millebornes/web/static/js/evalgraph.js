// @ts-check
// The review's evaluation graph: each side's chance of winning (the match where it has several hands, else the
// hand) after every judged move, as stacked bands that fill the height (two sides: the line between them is the
// first side's chance, as a chess site draws White's), hands marked by vertical lines, the inaccuracies, mistakes
// and blunders by dots in their class's colour, and the step the replay shows by a marker.
//
// The graph is one control, a slider over the judged moves (role slider, named, with the step and the chances in
// words as its value): a click goes to the judged move nearest to it; on the focused graph ← → (and ↑ ↓) go to the
// previous or next judged move, Page Up / Page Down ten of them, Home / End the first and the last. The drawing
// itself is hidden from screen readers: the table of the review (review.js) says the same in words.

import { t, percent, formatNumber, seatName, sideName } from "./lib/words.js";
import { el, svgEl } from "./lib/dom.js";

const HEIGHT = 150;
const PHONE_HEIGHT = 118;
const PAD = { left: 40, right: 14, top: 18, bottom: 6 };
const JUMP = 10;

// Each judged move's point: the step that shows it (index + 1), each side's chance (shares of one), its move.
// Every seat is judged from its own view, and two views of one position differ steadily (each seat deals the
// others hands at random, not the hands their play shows), so a point is the mean of the latest view of every
// seat judged so far in the hand: the line follows the game instead of zigzagging between the views.
export function graphPoints(review) {
  const match = review.match_target !== null && review.match_target !== undefined;
  const latest = new Map();
  let hand = null;
  return review.moves.map((m) => {
    if (m.hand !== hand) {
      latest.clear();
      hand = m.hand;
    }
    const raw = (match ? m.match_sides : m.sides) || m.sides;
    const sum = raw.reduce((a, b) => a + b, 0) || 1;
    latest.set(m.seat, raw.map((v) => v / sum));
    const views = [...latest.values()];
    const values = raw.map((_, s) => views.reduce((a, v) => a + v[s], 0) / views.length);
    return { step: m.index + 1, values, move: m };
  });
}

// The chances at `step` in words: "Ann: 54 %, Bob: 46 %" (the last judged move shown there), or null before any.
export function chancesAt(points, step, ctx) {
  let at = null;
  for (const p of points) {
    if (p.step > step) break;
    at = p;
  }
  if (!at) return null;
  return at.values.map((v, s) => t("review.side_chance", { name: String(sideName(ctx, s)), chance: percent(v) })).join(", ");
}

// opts: {review, ctx, total, onPick(step)}; returns {node, points, update(step), redraw(), close()}.
export function evalGraph(opts) {
  const points = graphPoints(opts.review);
  const match = opts.review.match_target !== null && opts.review.match_target !== undefined;
  const box = el("div", {
    class: "eval-graph", role: "slider", tabindex: "0", "aria-valuemin": "0", "aria-valuemax": String(opts.total),
    "aria-label": t(match ? "review.graph_match" : "review.graph_hand"),
  });
  let step = 0;
  let geometry = null;

  function draw() {
    const width = Math.max(120, Math.floor(box.clientWidth || 600));
    const height = window.matchMedia("(max-width: 640px)").matches ? PHONE_HEIGHT : HEIGHT;
    const plotW = width - PAD.left - PAD.right;
    const plotH = height - PAD.top - PAD.bottom;
    const x = (s) => PAD.left + (opts.total ? s / opts.total : 0) * plotW;
    const y = (v) => PAD.top + (1 - v) * plotH;
    geometry = { x, y, width };
    const root = svgEl("svg", { width, height, viewBox: `0 0 ${width} ${height}`, "aria-hidden": "true", focusable: "false" });
    root.append(svgEl("rect", { x: PAD.left, y: PAD.top, width: plotW, height: plotH, class: "plot" }));
    if (points.length) {
      const nsides = points[0].values.length;
      // the bands, bottom up: side 0 from 0 to its chance, side 1 above it...
      const xs = [PAD.left, ...points.map((p) => x(p.step)), PAD.left + plotW];
      const rows = [points[0], ...points, points[points.length - 1]].map((p) => p.values);
      let below = rows.map(() => 0);
      for (let s = 0; s < nsides; s++) {
        const above = rows.map((v, i) => (s === nsides - 1 ? 1 : below[i] + v[s]));
        const top = xs.map((px, i) => `${px.toFixed(1)},${y(above[i]).toFixed(1)}`);
        const bottom = xs.map((px, i) => `${px.toFixed(1)},${y(below[i]).toFixed(1)}`).reverse();
        root.append(svgEl("polygon", { points: [...top, ...bottom].join(" "), class: `band side-${s % 4}` }));
        if (s < nsides - 1) {
          root.append(svgEl("polyline", { points: top.join(" "), class: "edge" }));
        }
        below = above;
      }
    }
    root.append(svgEl("line", { x1: PAD.left, x2: PAD.left + plotW, y1: y(0.5), y2: y(0.5), class: "half" }));
    // the percentage axis: the first side's chance reads from the bottom (each band's height is its side's)
    for (const v of [0, 0.5, 1]) {
      const label = svgEl("text", { x: PAD.left - 5, y: y(v).toFixed(1), class: "axis-label" });
      label.textContent = percent(v);
      root.append(label);
    }
    // the hands: a line where each begins (its first judged move), and its number
    const starts = [];
    for (const p of points) {
      if (!starts.length || starts[starts.length - 1].hand !== p.move.hand) starts.push({ hand: p.move.hand, step: p.step - 1 });
    }
    starts.forEach((h, i) => {
      const left = i === 0 ? PAD.left : x(h.step);
      const right = i + 1 < starts.length ? x(starts[i + 1].step) : PAD.left + plotW;
      if (i > 0) root.append(svgEl("line", { x1: left, x2: left, y1: 2, y2: PAD.top + plotH, class: "hand-line" }));
      const label = svgEl("text", { x: left + 3, y: 13, class: "hand-label" });
      label.textContent = right - left > 64 ? t("table.hand_n", { n: h.hand + 1 }) : formatNumber(h.hand + 1);
      if (right - left > 12) root.append(label);
    });
    // the inaccuracies, mistakes and blunders, on an edge of the mover's band (two sides: the line)
    for (const p of points) {
      const cls = p.move.class;
      if (cls !== "inaccuracy" && cls !== "mistake" && cls !== "blunder") continue;
      const side = p.move.side;
      const edge = side < p.values.length - 1 ? side + 1 : side;
      const top = p.values.slice(0, edge).reduce((a, b) => a + b, 0);
      const dot = svgEl("circle", { cx: x(p.step).toFixed(1), cy: y(Math.min(1, top)).toFixed(1), r: cls === "inaccuracy" ? 3.5 : 4.5,
        class: `dot class-${cls}` });
      const tip = svgEl("title"); // for the mouse; the table of the review says it to everyone
      tip.textContent = t("review.dot", { move: t("review.move", { step: formatNumber(p.step) }),
        name: String(seatName(opts.ctx(), p.move.seat)), judgement: t(`review.class.${cls}`) });
      dot.append(tip);
      root.append(dot);
      // whose move: the seat's number beside its dot, as the legend says
      const who = svgEl("text", { x: (x(p.step) + 6).toFixed(1), y: (y(Math.min(1, top)) - 5).toFixed(1), class: "dot-seat" });
      who.textContent = formatNumber(p.move.seat + 1);
      root.append(who);
    }
    const marker = svgEl("g", { class: "marker" });
    marker.append(svgEl("line", { x1: 0, x2: 0, y1: PAD.top - 4, y2: PAD.top + plotH, class: "marker-line" }));
    marker.append(svgEl("polygon", { points: "-5,0 5,0 0,6", transform: `translate(0 ${PAD.top - 6})`, class: "marker-head" }));
    root.append(marker);
    box.replaceChildren(root);
    place();
  }

  function place() {
    const marker = box.querySelector(".marker");
    if (marker && geometry) marker.setAttribute("transform", `translate(${geometry.x(step).toFixed(1)} 0)`);
    box.setAttribute("aria-valuenow", String(step));
    const chances = chancesAt(points, step, opts.ctx());
    box.setAttribute("aria-valuetext", chances === null ? t("replay.start")
      : t("review.graph_value", { step: formatNumber(step), total: formatNumber(opts.total), chances }));
  }

  // the judged move `delta` judged moves away from the step shown (the nearest one on that side)
  function judged(delta) {
    if (!points.length) return null;
    let i;
    if (delta > 0) {
      i = points.findIndex((p) => p.step > step);
      if (i < 0) return null;
      i = Math.min(points.length - 1, i + delta - 1);
    } else {
      i = points.findLastIndex((p) => p.step < step);
      if (i < 0) return null;
      i = Math.max(0, i + delta + 1);
    }
    return points[i].step;
  }

  box.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const to = {
      ArrowRight: () => judged(1), ArrowUp: () => judged(1), ArrowLeft: () => judged(-1), ArrowDown: () => judged(-1),
      PageDown: () => judged(JUMP), PageUp: () => judged(-JUMP),
      Home: () => points[0]?.step, End: () => points[points.length - 1]?.step,
    }[e.key];
    if (!to) return;
    e.preventDefault();
    e.stopPropagation(); // the replay's own keys step one move; here they go from judged move to judged move
    const target = to();
    if (target !== null && target !== undefined && target !== step) opts.onPick(target);
  });
  box.addEventListener("click", (e) => {
    if (!geometry || !points.length) return;
    const rect = box.getBoundingClientRect();
    const px = e.clientX - rect.left;
    let best = points[0];
    for (const p of points) if (Math.abs(geometry.x(p.step) - px) < Math.abs(geometry.x(best.step) - px)) best = p;
    opts.onPick(best.step);
  });
  let width = 0;
  const resized = window.ResizeObserver ? new ResizeObserver(() => {
    if (box.clientWidth && box.clientWidth !== width) {
      width = box.clientWidth;
      draw();
    }
  }) : null;
  resized?.observe(box);

  return {
    node: box,
    points,
    update(s) {
      step = s;
      place();
    },
    redraw: draw,
    close() { resized?.disconnect(); },
  };
}
