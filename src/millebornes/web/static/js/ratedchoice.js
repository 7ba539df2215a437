// @ts-check
// The home page's "Rated match" box, in the quick game and the new table's form (docs/web-api.md, "Ratings"). A rated
// match counts for accounts only, so the box is offered to a signed-in page; signed out, its note says why not
// and leads to the account page. Checked, the note says what the table holds to: the server takes the edition's
// standard rules only (the forms send no other) and refuses every take-back there.

import { t, tn } from "./lib/words.js";
import { $, el, $as } from "./lib/dom.js";

const BOXES = [["#quick-rated", "#quick-rated-note"], ["#rated", "#rated-note"]];
let signedIn = false;

export function renderRated() {
  for (const [box, note] of BOXES) {
    const input = $as(box, HTMLInputElement);
    input.disabled = !signedIn;
    if (!signedIn) input.checked = false;
    $(note).replaceChildren(...(signedIn ? [t(input.checked ? "home.rated_on" : "home.rated_note")]
      : tn("home.rated_signed_out", { link: el("a", { href: "/account" }, t("home.rated_signin")) })));
  }
}

// Whether the box of that form (its selector) asks for a rated table.
export function ratedChosen(box) {
  return signedIn && $as(box, HTMLInputElement).checked;
}

// The new table's form asks for a rated match (the challenge of a bot that plays no other): ticked once the look-up
// of who is signed in says the page is (after setupRated's own, which it follows).
/** @param {Promise<string | null>} account */
export async function wantRated(account) {
  if (!(await account)) return;
  $as("#rated", HTMLInputElement).checked = true;
  renderRated();
}

// `account`: the header's look-up of who is signed in (accountlink.js), a username or null.
export async function setupRated(account) {
  renderRated();
  for (const [box] of BOXES) $(box).addEventListener("change", renderRated);
  signedIn = Boolean(await account);
  renderRated();
}
