// What the pages add to, or read from, the browser's window beyond the DOM's own types. Only the type checker
// reads this file.

interface Window {
  /** Safari's older name of AudioContext (js/sounds.js falls back to it). */
  webkitAudioContext?: typeof AudioContext;
  /** The table page's handle for debugging and the browser tests (js/table.js): its socket and its state. */
  millebornes?: { socket: () => WebSocket | null; state: () => import("../table/state.js").TableState };
}
