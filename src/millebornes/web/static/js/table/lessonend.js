// @ts-check
// The guided match's end, in place of the match's: the last lesson (the score sheet, and what each of the learner's
// points was for, from the frame's `lesson.scored`), then what to do next: a real match (the home page's quick
// game) or the lessons again (a new guided match).

import { t, formatNumber } from "../lib/words.js";
import { $, el, $as } from "../lib/dom.js";
import { breakdownTable } from "../board.js";
import { lessonWhy, startGuidedMatch } from "../learn.js";
import { S, ctx } from "./state.js";
import { dialogs } from "./parts.js";

/** @typedef {{ item: string, points: number }} Scored */

export function fillLessonEnd() {
  const lesson = S.lesson;
  const result = S.obs?.hand_results?.[0];
  if (!lesson || !result) return;
  $("#learn-over-step").textContent = `${t("learn.title")} · ${t("learn.step", { n: lesson.n, total: lesson.total })}`;
  $("#learn-over-do").textContent = t("learn.score.do");
  const scored = /** @type {Scored[]} */ (Array.isArray(lesson.scored) ? lesson.scored : []);
  $("#learn-scored").replaceChildren(...scored.map((s) => el("li", { dataset: { item: s.item } },
    t(`learn.scored.${s.item}`, { points: formatNumber(s.points) }))));
  $("#learn-over-table").replaceChildren(breakdownTable(result, ctx())); // the list above says what counted
  $("#learn-over-why").textContent = lessonWhy(lesson);
}

export function openLessonEnd() {
  fillLessonEnd();
  dialogs.open($("#learn-over"), "#learn-over-title"); // read from the top: the lesson, then what to do next
}

export function setupLessonEnd() {
  $("#learn-over-close").addEventListener("click", () => dialogs.close($("#learn-over")));
  $("#learn-again").addEventListener("click", () => startGuidedMatch($as("#learn-again", HTMLButtonElement), $("#learn-again-error")));
}
