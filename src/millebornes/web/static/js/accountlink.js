// The header's way to the account page: "Sign in", or the signed-in username. Who is signed in is asked once
// (GET /api/account: 401 when nobody is); the link says it again in each language.

import { $, t, tn, Name } from "./common.js";

let username = null;

export function renderAccountLink() {
  const link = $("#account-link");
  if (!link) return;
  if (username) link.replaceChildren(...tn("account.me", { name: new Name(username) }));
  else link.textContent = t("account.signin_link");
}

export async function setupAccountLink() {
  renderAccountLink();
  try {
    const r = await fetch("/api/account", { headers: { Accept: "application/json" } });
    const data = r.ok ? await r.json() : null;
    username = typeof data?.username === "string" ? data.username : null;
  } catch (x) {
    username = null;
  }
  renderAccountLink();
  $("#account-link")?.setAttribute("data-ready", "1");
}
