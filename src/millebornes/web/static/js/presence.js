// @ts-check
// Who left the table, and when a bot takes their seat: "Bob left — a bot takes over in 0:45" on the seat's
// tableau and in the turn line when the decision is theirs, counting down each second from the seat facts'
// `takeover` (seconds left when the frame came: no wall clock is shared with the server); "A bot is playing for
// Bob" once a stand-in does; only "Bob left" when no bot is coming (nobody else at the table to wait, or the
// table not being played). A screen reader hears the leaving once in #announce, never the countdown.

import { t, tn, seatName } from "./lib/words.js";
import { el, $$ } from "./lib/dom.js";
import { announce, textOf } from "./telling.js";

const STANDIN = "standin";

function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// ctx(): the page's seats and sides; mySeat: the page's own seat (null for a spectator), whose absence the
// page itself never shows (its #standin-box says a bot plays for it).
export function presenceNotes({ ctx, mySeat }) {
  let shown = new Map(); // seat -> STANDIN, the Date.now() ms a stand-in comes at, or null: none is coming

  function told(seat, ends) {
    const name = seatName(ctx(), seat);
    if (ends === null) return t("presence.told", { name });
    const s = Math.max(1, Math.ceil((ends - Date.now()) / 1000));
    return s < 120 ? t("presence.told_seconds", { name, n: s }) : t("presence.told_minutes", { name, n: Math.ceil(s / 60) });
  }

  // The seats' facts of a frame; `playing`: whether the table is being played (else a seat's stand-in
  // is no news: only who left).
  function update(seats, playing) {
    const now = Date.now();
    const next = new Map();
    for (const s of seats || []) {
      if (s.kind !== "human" || s.seat === mySeat) continue;
      if (s.standin && playing) next.set(s.seat, STANDIN);
      else if (!s.connected && s.away != null) next.set(s.seat, playing && s.takeover != null ? now + s.takeover * 1000 : null);
    }
    for (const [seat, ends] of next) {
      if (ends !== STANDIN && !shown.has(seat)) announce(told(seat, ends));
    }
    for (const [seat, was] of shown) {
      const s = (seats || []).find((x) => x.seat === seat);
      if (!next.has(seat) && was !== STANDIN && s?.connected) announce(t("presence.back", { name: seatName(ctx(), seat) }));
    }
    shown = next;
  }

  function nodes(seat) {
    const ends = shown.get(seat);
    const name = seatName(ctx(), seat);
    if (ends === STANDIN) return tn("presence.standin", { name });
    if (ends === null) return tn("presence.left", { name });
    return tn("presence.left_takeover", { name, time: clockText(ends - Date.now()) });
  }

  // The line that says it, kept up to date by tick(); null for a seat that is there and plays itself.
  function note(seat, tag = "p") {
    if (!shown.has(seat)) return null;
    const line = el(tag, { class: `away-note${shown.get(seat) === STANDIN ? " standin" : ""}`, dataset: { seat: String(seat) } }, ...nodes(seat));
    line.dataset.text = line.textContent;
    return line;
  }

  function tick() {
    for (const line of $$(".away-note[data-seat]")) {
      const seat = Number(line.dataset.seat);
      if (!shown.has(seat)) continue;
      const fresh = nodes(seat);
      const text = textOf(fresh);
      if (line.dataset.text !== text) {
        line.dataset.text = text;
        line.replaceChildren(...fresh);
      }
    }
  }
  setInterval(tick, 250);

  return { update, note, has: (seat) => shown.has(seat) };
}
