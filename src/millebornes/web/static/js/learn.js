// @ts-check
// The guided first match: the home page's offer (to a browser that has not finished it: localStorage
// "millebornes.learned"; always at /learn, the address the README gives) and, at its table, the lesson over the
// board: what to do and why (the state frame's `lesson`). The table records the end of the guided hand, so the
// home page stops offering it.

import { t, formatNumber } from "./lib/words.js";
import { $, $as } from "./lib/dom.js";
import { postJSON } from "./lib/http.js";
import { remember } from "./mytables.js";

const LEARNED = "millebornes.learned";

function learned() {
  try { return localStorage.getItem(LEARNED) === "1"; } catch (e) { return false; }
}

// A new guided match, opened in this tab; `error` says so when it cannot be made.
export async function startGuidedMatch(button, error) {
  button.disabled = true;
  error.textContent = "";
  try {
    const made = await postJSON("/api/tutorial", {});
    remember({ id: made.id, ruleset: "parker", seat: 0, url: made.url, creator: true, invites: [] });
    location.assign(made.url);
  } catch (e) {
    error.textContent = t("learn.failed");
    button.disabled = false;
  }
}

export function setupLearn() {
  const panel = $("#learn-panel");
  if (!panel) return;
  const asked = location.pathname === "/learn";
  panel.hidden = learned() && !asked;
  $("#learn-start").addEventListener("click", () => startGuidedMatch($as("#learn-start", HTMLButtonElement), $("#learn-error")));
  if (asked) $("#learn-title").focus();
}

// The lesson's "why", with what it needs: the last one names the points that end a real match.
export function lessonWhy(lesson) {
  return t(`learn.${lesson.key}.why`, lesson.key === "score" ? { goal: formatNumber(Number(lesson.goal)) } : {});
}

// The lesson of the learner's frame (null at any other table).
export function renderLesson(lesson) {
  const box = $("#lesson");
  if (!lesson) { box.hidden = true; return; }
  box.hidden = false;
  $("#lesson-step").textContent = `${t("learn.title")} · ${t("learn.step", { n: lesson.n, total: lesson.total })}`;
  $("#lesson-do").textContent = t(`learn.${lesson.key}.do`);
  $("#lesson-why").textContent = lessonWhy(lesson);
  if (lesson.key === "score") {
    try { localStorage.setItem(LEARNED, "1"); } catch (e) { /* storage off */ }
  }
}
