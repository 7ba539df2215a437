// @ts-check
// The guided first match: the home page's offer (to a browser that has not finished it: localStorage
// "millebornes.learned") and, at its table, the lesson over the board: what to do and why (the state frame's
// `lesson`). The table records the end of the guided hand, so the home page stops offering it.

import { t } from "./lib/words.js";
import { $, $as } from "./lib/dom.js";
import { postJSON } from "./lib/http.js";
import { remember } from "./mytables.js";

const LEARNED = "millebornes.learned";

function learned() {
  try { return localStorage.getItem(LEARNED) === "1"; } catch (e) { return false; }
}

export function setupLearn() {
  const panel = $("#learn-panel");
  if (!panel) return;
  panel.hidden = learned();
  $("#learn-start").addEventListener("click", async () => {
    const button = $as("#learn-start", HTMLButtonElement);
    button.disabled = true;
    $("#learn-error").textContent = "";
    try {
      const made = await postJSON("/api/tutorial", {});
      remember({ id: made.id, ruleset: "parker", seat: 0, url: made.url, creator: true, invites: [] });
      location.assign(made.url);
    } catch (e) {
      $("#learn-error").textContent = t("learn.failed");
      button.disabled = false;
    }
  });
}

// The lesson of the learner's frame (null at any other table).
export function renderLesson(lesson) {
  const box = $("#lesson");
  if (!lesson) { box.hidden = true; return; }
  box.hidden = false;
  $("#lesson-step").textContent = `${t("learn.title")} · ${t("learn.step", { n: lesson.n, total: lesson.total })}`;
  $("#lesson-do").textContent = t(`learn.${lesson.key}.do`);
  $("#lesson-why").textContent = t(`learn.${lesson.key}.why`);
  if (lesson.key === "score") {
    try { localStorage.setItem(LEARNED, "1"); } catch (e) { /* storage off */ }
  }
}
