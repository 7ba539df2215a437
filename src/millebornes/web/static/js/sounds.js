// @ts-check
// Sounds made with the Web Audio API (no sound files): the turn's chime (attention.js) and, if the player turns
// them on, the game's sounds: a card laid, a hazard that hits, a coup fourré, a completed trip. The game's
// sounds are off by default and remembered per browser (localStorage).

const GAME_KEY = "millebornes.sounds";

let audio = null;

// notes: [frequency Hz, start s, length s, wave, peak gain]; a quiet attack and decay so nothing clicks.
export function tones(notes, delayMs = 0) {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  try {
    audio = audio || new Ctx();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    const now = audio.currentTime + delayMs / 1000;
    for (const [freq, at, len, wave, peak] of notes) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = wave;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(peak, now + at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + len);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + at);
      osc.stop(now + at + len + 0.02);
    }
  } catch (e) { /* no sound: every move is still shown and told */ }
}

export function chime() {
  tones([[660, 0, 0.18, "sine", 0.2], [880, 0.12, 0.18, "sine", 0.2]]);
}

const GAME = {
  card: [[330, 0, 0.07, "triangle", 0.12]],
  hit: [[140, 0, 0.22, "square", 0.08], [95, 0.05, 0.25, "sine", 0.2]],
  cf: [[523, 0, 0.14, "triangle", 0.16], [659, 0.1, 0.14, "triangle", 0.16], [784, 0.2, 0.3, "triangle", 0.18]],
  trip: [[392, 0, 0.16, "sine", 0.16], [523, 0.14, 0.16, "sine", 0.16], [659, 0.28, 0.16, "sine", 0.16], [1047, 0.42, 0.4, "sine", 0.14]],
};

function stored() {
  try { return localStorage.getItem(GAME_KEY) === "1"; } catch (e) { return false; }
}

// toggle: the page's checkbox. play(kind, delayMs) sounds when the player turned the sounds on.
export function gameSounds(toggle) {
  let on = stored();
  if (toggle) {
    toggle.checked = on;
    toggle.addEventListener("change", () => {
      on = toggle.checked;
      try { localStorage.setItem(GAME_KEY, on ? "1" : "0"); } catch (e) { /* storage off: on for this page only */ }
      if (on) play("card");
    });
  }
  function play(kind, delayMs = 0) {
    if (on && GAME[kind]) tones(GAME[kind], delayMs);
  }
  return { play, on: () => on };
}
