// @ts-check
// A link to hand out: its Copy button puts it on the clipboard, or, where the clipboard is refused, selects it in its
// read-only input for the player to copy by hand; the outcome is told in a status line.

import { t } from "./lib/words.js";
import { el } from "./lib/dom.js";

// ``n``: the seat as people count it (seat 0 is "seat 1"); ``name``: the button's name, when the page holds more
// than one table's links.
export function copyButton(input, url, status, n, name = t("home.copy_for", { n })) {
  const button = el("button", { type: "button", class: "copy", dataset: { seat: String(n - 1) }, "aria-label": name },
    t("home.copy"));
  button.addEventListener("click", async () => {
    input.select();
    let done = true;
    try { await navigator.clipboard.writeText(url); } catch (x) { done = document.execCommand?.("copy") ?? false; }
    status.textContent = t(done ? "home.copied_for" : "home.copy_failed", { n });
  });
  return button;
}
