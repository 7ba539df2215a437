// @ts-check
// The header's way to the account page: "Sign in", or the signed-in username. Who is signed in is asked once
// (lib/me.js); the link says it again in each language.

import { t, tn } from "./lib/words.js";
import { $, Name } from "./lib/dom.js";
import { whoIsSignedIn } from "./lib/me.js";

let username = null;
let seats = [];

export function renderAccountLink() {
  const link = $("#account-link");
  if (!link) return;
  if (username) link.replaceChildren(...tn("account.me", { name: new Name(username) }));
  else link.textContent = t("account.signin_link");
}

// The username signed in, or null: what the page's other choices (a rated match) depend on too.
export async function setupAccountLink() {
  renderAccountLink();
  const data = await whoIsSignedIn();
  username = typeof data?.username === "string" ? data.username : null;
  seats = username && Array.isArray(data?.seats) ? data.seats : [];
  renderAccountLink();
  $("#account-link")?.setAttribute("data-ready", "1");
  return username;
}

// The seats the signed-in account holds (GET /api/account's), once setupAccountLink has asked; none signed out.
export function accountSeats() {
  return seats;
}
