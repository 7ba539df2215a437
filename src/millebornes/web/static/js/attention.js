// @ts-check
// "Your turn, anywhere": when this seat has a decision to take (play, draw, a coup-fourré answer, an extension),
// the tab's title and icon say so, and, if the player turned them on, a short tone and a desktop notification
// (the latter only while the tab is hidden). Both are off by default and remembered per browser (localStorage);
// the notification permission is asked for only when its toggle is turned on.
// The module watches #turn's data-mine / data-decision / data-status (set by table.js on every state): table.html
// loads it as a script of its own, and table.js knows nothing of it.

import { t, onLangChange } from "./lib/words.js";
import { $, $as } from "./lib/dom.js";
import { chime } from "./sounds.js";

const SOUND_KEY = "millebornes.alert.sound";
const NOTIFY_KEY = "millebornes.alert.notify";
const PLAIN_ICON = "data:,";

// the tab's icon on my turn: a gold disc with a dark ring (drawn here, no file)
const TURN_ICON = "data:image/svg+xml," + encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'>"
  + "<circle cx='16' cy='16' r='14' fill='#f2c14e' stroke='#1d4d2c' stroke-width='4'/>"
  + "<circle cx='16' cy='16' r='5' fill='#b3261e'/></svg>");

function stored(key) {
  try { return localStorage.getItem(key) === "1"; } catch (e) { return false; }
}

function store(key, on) {
  try { localStorage.setItem(key, on ? "1" : "0"); } catch (e) { /* storage off: on for this page only */ }
}

export function attention() {
  const turn = $("#turn");
  const icon = /** @type {HTMLLinkElement | null} */ (document.querySelector("link[rel~='icon']"));
  const sound = $as("#alert-sound", HTMLInputElement);
  const notify = $as("#alert-notify", HTMLInputElement);
  const status = $("#alert-status");
  let yours = false;
  let shown = null; // the notification on screen

  function myTurn() {
    const d = turn.dataset;
    return d.mine === "1" && d.status === "playing" && Boolean(d.decision);
  }

  function setTitle() {
    if (yours) document.title = t("alert.tab_title");
    // else the page's own title (applyStatic sets it on every language change)
  }

  function hidden() { return document.visibilityState === "hidden"; }

  function showNotification() {
    if (!notify.checked || !("Notification" in window) || Notification.permission !== "granted" || !hidden()) return;
    try {
      shown = new Notification(t("alert.tab_title"), { body: turn.textContent, tag: "millebornes-turn" });
      shown.onclick = () => { window.focus(); shown?.close(); };
    } catch (e) { /* some browsers only notify from a service worker: the title still tells */ }
  }

  function update() {
    const now = myTurn();
    if (now === yours) return;
    yours = now;
    if (icon) icon.href = yours ? TURN_ICON : PLAIN_ICON;
    if (yours) {
      setTitle();
      if (sound.checked) chime();
      showNotification();
    } else {
      document.title = t(document.body?.dataset.titleKey || "app.title");
      shown?.close();
      shown = null;
    }
  }

  // a note under the toggles, kept in the page's language by applyStatic (data-i18n)
  function say(key) {
    if (key) { status.dataset.i18n = key; status.textContent = t(key); } else { delete status.dataset.i18n; status.textContent = ""; }
  }

  sound.checked = stored(SOUND_KEY);
  notify.checked = stored(NOTIFY_KEY) && "Notification" in window && Notification.permission === "granted";
  if (!("Notification" in window)) { notify.disabled = true; say("alert.unsupported"); }

  sound.addEventListener("change", () => {
    store(SOUND_KEY, sound.checked);
    if (sound.checked) chime(); // the player hears what it sounds like (and the click lets the page play sound)
  });
  notify.addEventListener("change", async () => {
    if (!notify.checked) { store(NOTIFY_KEY, false); say(""); return; }
    let permission = Notification.permission;
    if (permission !== "granted" && permission !== "denied") {
      try { permission = await Notification.requestPermission(); } catch (e) { permission = "denied"; }
    }
    const on = permission === "granted";
    notify.checked = on;
    store(NOTIFY_KEY, on);
    say(on ? "" : "alert.denied");
  });
  document.addEventListener("visibilitychange", () => {
    if (!hidden()) { shown?.close(); shown = null; }
  });
  onLangChange(() => setTitle());

  new MutationObserver(update).observe(turn, { attributes: true, attributeFilter: ["data-mine", "data-decision", "data-status"] });
  update();
}

attention();
