// @ts-check
// The turn clock line #clock: who is deciding and for how long, and the time left when the table has a clock.
// It reads the attributes table.js keeps on #turn (data-clock-*) and ticks every second; a screen reader is
// told once, ten seconds before the seat's own time runs out, not every second (#clock is a timer: not live).

import { t, tn, onLangChange } from "./lib/words.js";
import { $ } from "./lib/dom.js";
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
  let text;
  if (ends !== null && starts !== null && now < starts) { // held while the seat reads the hand's score
    text = d.clockMine === "1" ? t("clock.paused_mine", { time: clockText(ends - starts) })
      : t("clock.paused", { name: d.clockName });
    box.textContent = text;
    box.hidden = false;
    box.classList.remove("hurry");
    return;
  }
  if (d.clockMine === "1") {
    text = ends === null ? "" : t("clock.mine", { time: clockText(ends - now) });
    const left = ends === null ? Infinity : (ends - now) / 1000;
    const which = `${d.seq}|${d.clockEnds}`;
    if (left <= HURRY && left > 0 && hurried !== which) {
      hurried = which;
      announce(textOf(tn("clock.hurry", { n: Math.ceil(left) })));
    }
  } else {
    text = t("clock.thinking", { name: d.clockName, time: clockText(now - Number(d.clockSince)) });
    if (ends !== null) text += ` · ${t("clock.left", { time: clockText(ends - now) })}`;
  }
  box.textContent = text;
  box.hidden = !text;
  box.classList.toggle("hurry", ends !== null && ends - now <= HURRY * 1000);
}

setInterval(tick, 1000);
onLangChange(tick);
new MutationObserver(tick).observe($("#turn"), { attributes: true });
tick();
