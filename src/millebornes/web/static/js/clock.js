// @ts-check
// The turn clock line #clock: who is deciding and for how long, and the time left when the table has a clock.
// It reads the attributes table.js keeps on #turn (data-clock-*) and ticks every second; a screen reader is
// told once, ten seconds before the seat's own time runs out, not every second (#clock is a timer: not live).
// Its clauses never break inside ("Bob is thinking: 0:02", "1:58 left"): a narrow top bar shows them on two lines,
// a long name cut short there (the turn line names it in full).

import { t, tn, onLangChange } from "./lib/words.js";
import { $, el } from "./lib/dom.js";
import { announce, textOf } from "./telling.js";

const HURRY = 10;
let hurried = "";

function clockText(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function tick() {
  const turn = $("#turn");
  const box = $("#clock");
  const d = turn?.dataset || {};
  if (!box || !d.clockSeat || d.clockAway === "1") { // who left: the turn line says when a bot takes over
    if (box) { box.hidden = true; box.textContent = ""; }
    return;
  }
  const now = Date.now();
  const ends = d.clockEnds ? Number(d.clockEnds) : null;
  const starts = d.clockStarts ? Number(d.clockStarts) : null;
  if (ends !== null && starts !== null && now < starts) { // held while the seat reads the hand's score
    box.textContent = d.clockMine === "1" ? t("clock.paused_mine", { time: clockText(ends - starts) })
      : t("clock.paused", { name: d.clockName });
    box.hidden = false;
    box.classList.remove("hurry");
    return;
  }
  /** @type {(string | Node)[]} */
  const parts = [];
  if (d.clockMine === "1") {
    if (ends !== null) parts.push(t("clock.mine", { time: clockText(ends - now) }));
    const left = ends === null ? Infinity : (ends - now) / 1000;
    const which = `${d.seq}|${d.clockEnds}`;
    if (left <= HURRY && left > 0 && hurried !== which) {
      hurried = which;
      announce(textOf(tn("clock.hurry", { n: Math.ceil(left) })));
    }
  } else {
    const name = el("bdi", { class: "clock-name" }, d.clockName || "");
    parts.push(el("span", {}, ...tn("clock.thinking", { name, time: clockText(now - Number(d.clockSince)) })));
    if (ends !== null) parts.push(t("clock.left", { time: clockText(ends - now) }));
  }
  box.replaceChildren(...parts.flatMap((part, i) => [...(i ? [" · "] : []), el("span", { class: "clock-part" }, part)]));
  box.hidden = !parts.length;
  box.classList.toggle("hurry", ends !== null && ends - now <= HURRY * 1000);
}

setInterval(tick, 1000);
onLangChange(tick);
new MutationObserver(tick).observe($("#turn"), { attributes: true });
tick();
