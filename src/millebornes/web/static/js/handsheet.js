// @ts-check
// On a phone the table is a page that scrolls, and what a player needs at their turn would fall below the fold.
// So there the hand becomes a bottom sheet, always on screen: the last refusal, two tabs that open the hints or
// the last moves of the log, what the chosen card does and its moves, the player's own tableau in small
// (table/brief.js: the sheet covers the real one) and the hand at the very bottom, under the thumb. Whatever grows (a card's help, a panel opened) grows upwards: the hand never moves under the finger.
// The panels are the page's own (#hints, #log keep their ids and their drawing): the sheet moves them in on a
// phone, in the order it shows them (so the focus follows the eye), and back on a wider screen; the page's
// bottom makes room for the sheet.

import { $ } from "./lib/dom.js";

const PHONE = "(max-width: 640px)";

export function handSheet() {
  const query = window.matchMedia(PHONE);
  const box = $(".hand-box");
  const tabs = $("#sheet-tabs");
  const panelBox = $("#sheet-panels");
  const panels = { hints: $(".hints-panel"), log: $(".log-panel") };
  const buttons = { hints: $("#sheet-hints"), log: $("#sheet-log") };
  const message = $("#message");
  const [title, brief, hand, help, moves] = ["#hand-title", "#me-brief", "#hand", "#card-help", "#moves"].map((sel) => $(sel));
  // where each moved node lives on a wider screen: a marker left in its place
  const homes = new Map();
  for (const node of [panels.hints, panels.log, message]) {
    const mark = document.createComment(node.id || node.className);
    node.before(mark);
    homes.set(node, mark);
  }
  let open = null;

  function show(which) {
    open = which;
    for (const [name, panel] of Object.entries(panels)) {
      const on = query.matches ? name === which : true;
      panel.hidden = !on;
      buttons[name].setAttribute("aria-expanded", query.matches && on ? "true" : "false");
    }
    if (which === "log") { const list = $("#log"); list.scrollTop = list.scrollHeight; }
  }

  function toggle(which) {
    show(open === which ? null : which);
  }

  function place() {
    if (query.matches) {
      panelBox.append(panels.hints, panels.log);
      box.append(message, panelBox, tabs, help, moves, title, brief, hand);
      tabs.hidden = false;
    } else {
      for (const [node, mark] of homes) mark.after(node);
      box.append(title, brief, hand, help, moves, tabs, panelBox);
      tabs.hidden = true;
    }
    show(open);
    room();
  }

  // the page's bottom leaves the sheet's height free, so the last tableau can scroll above it
  function room() {
    const h = query.matches ? Math.ceil(box.getBoundingClientRect().height) : 0;
    document.body.style.setProperty("--sheet-h", `${h}px`);
  }

  buttons.hints.addEventListener("click", () => toggle("hints"));
  buttons.log.addEventListener("click", () => toggle("log"));
  query.addEventListener("change", place);
  if (window.ResizeObserver) new ResizeObserver(room).observe(box);
  place();

  // a hint asked for, or arrived: its panel opens beside the hand (on a wider screen it is always there)
  return { showHints: () => { if (query.matches) show("hints"); } };
}
