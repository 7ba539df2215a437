// @ts-check
// The account page's security (web/accounts/device_routes.py, routes.py's password change): the browsers signed in
// to the account, roughly where from and on what, each signed out alone or all but this one; and the password
// changed, the current one asked again, which signs every other device out.

import { t, formatDate } from "../lib/words.js";
import { $, el, $as } from "../lib/dom.js";

const PASSWORD_MIN = 8;

/**
 * What the account page lends this part: its sign-in's CSRF token, the words of a refusal (as account.js shows
 * them), and what to do when the sign-in ended meanwhile (or this very device was signed out).
 * @typedef {{ csrf: () => string, username: () => string, refusal: (r: any, wrong: string) => any,
 *   messageText: (m: any) => string, signedOut: () => void }} Host
 */

/** @type {Host} */
let host;
// devices: GET /api/account/sessions's list (null: not loaded); note: the status line's message, said again in a new language
const S = { devices: null, note: null, errors: { devices: null, password: null } };

async function send(method, url, body) {
  const headers = { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": host.csrf() };
  let r;
  try {
    r = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (x) {
    return null;
  }
  return { ok: r.ok, status: r.status, headers: r.headers, data: await r.json().catch(() => null) };
}

function deviceName(d) {
  const browser = t(`account.device.browser.${d.browser}`);
  const system = t(`account.device.system.${d.system}`);
  return t("account.device", {
    browser: browser.startsWith("account.") ? t("account.device.browser.other") : browser,
    system: system.startsWith("account.") ? t("account.device.system.other") : system,
  });
}

function deviceItem(d) {
  const name = deviceName(d);
  const seen = formatDate(d.seen);
  return el("li", { class: "device", dataset: { session: d.id, current: d.current ? "1" : "0" } },
    el("p", { class: "device-name" }, el("strong", {}, name),
      d.current ? el("span", { class: "device-current" }, t("account.device_current")) : null),
    el("p", { class: "muted" }, t("account.device_when", { created: formatDate(d.created), seen })),
    d.network ? el("p", { class: "muted" }, t("account.device_network", { network: d.network })) : null,
    el("button", {
      type: "button", class: "device-signout", dataset: { session: d.id },
      "aria-label": t("account.device_signout_label", { device: name, seen }),
    }, t("account.device_signout")));
}

export function drawSecurity() {
  const list = $("#devices");
  const devices = Array.isArray(S.devices) ? S.devices : [];
  list.replaceChildren(...devices.map(deviceItem));
  $("#devices-others").hidden = !devices.some((d) => !d.current);
  $("#devices-status").textContent = S.note ? host.messageText(S.note) : "";
  for (const form of ["devices", "password"]) {
    $(`#${form}-error`).textContent = S.errors[form] ? host.messageText(S.errors[form].message) : "";
  }
  $as("#password-username", HTMLInputElement).value = host.username();
}

export async function loadSecurity() {
  try {
    const r = await fetch("/api/account/sessions", { headers: { Accept: "application/json" } });
    S.devices = r.ok ? (await r.json()).sessions : null;
  } catch (x) {
    S.devices = null;
  }
}

function showError(form, refused) {
  S.errors[form] = refused;
  $(`#${form}-error`).textContent = host.messageText(refused.message);
  const field = form === "password" && refused.field === "password" ? "#password-new"
    : form === "password" && refused.field ? "#password-current" : null;
  for (const sel of ["#password-current", "#password-new"]) $(sel).removeAttribute("aria-invalid");
  if (!field) return;
  $(field).setAttribute("aria-invalid", "true");
  $(field).focus();
}

function clearErrors() {
  S.errors = { devices: null, password: null };
  S.note = null;
  for (const sel of ["#password-current", "#password-new"]) $(sel).removeAttribute("aria-invalid");
}

// A refusal: the sign-in gone hands the page back to the forms; anything else is shown by its form.
function refused(r, form, wrong) {
  if (r?.data?.code === "signed-out") return host.signedOut();
  showError(form, host.refusal(r, wrong));
}

async function signOutDevice(button) {
  clearErrors();
  const id = button.dataset.session;
  const device = (S.devices || []).find((d) => d.id === id);
  button.disabled = true;
  const r = await send("DELETE", `/api/account/sessions/${encodeURIComponent(id)}`, {});
  button.disabled = false;
  if (r?.ok && r.data?.current) return host.signedOut();
  if (!r?.ok && r?.data?.code !== "no-session") return refused(r, "devices", "account.error.refused");
  S.note = r?.ok && device ? ["account.device_done", { device: deviceName(device) }] : ["account.error.no_session"];
  await loadSecurity();
  drawSecurity();
  $("#devices-title").focus();
}

async function signOutOthers() {
  clearErrors();
  const button = $as("#devices-others", HTMLButtonElement);
  button.disabled = true;
  const r = await send("POST", "/api/account/sessions/others/signout", {});
  button.disabled = false;
  if (!r?.ok) return refused(r, "devices", "account.error.refused");
  const n = Number(r.data?.signed_out) || 0;
  S.note = n ? ["account.devices_others_done", { n }] : ["account.devices_none_other"];
  await loadSecurity();
  drawSecurity();
  $("#devices-title").focus();
}

async function changePassword(e) {
  e.preventDefault();
  clearErrors();
  drawSecurity();
  const current = $as("#password-current", HTMLInputElement).value;
  const password = $as("#password-new", HTMLInputElement).value;
  if (!current) return showError("password", { message: ["account.error.missing_password"], field: "current" });
  if (password.length < PASSWORD_MIN || !password.trim()) {
    return showError("password", { message: ["account.weak.short"], field: "password" });
  }
  const button = $as("#password-submit", HTMLButtonElement);
  button.disabled = true;
  const r = await send("POST", "/api/account/password", { current, password });
  button.disabled = false;
  if (!r?.ok) {
    if (r?.data?.code === "wrong") {
      return showError("password", { message: ["account.error.current_password"], field: "current" });
    }
    return refused(r, "password", "account.error.refused");
  }
  $as("#password-current", HTMLInputElement).value = "";
  $as("#password-new", HTMLInputElement).value = "";
  S.note = ["account.password_changed", { n: Number(r.data?.signed_out) || 0 }];
  await loadSecurity();
  drawSecurity();
  $("#devices-title").focus();
}

/** @param {Host} given */
export function setupSecurity(given) {
  host = given;
  $("#devices").addEventListener("click", (e) => {
    const button = /** @type {HTMLElement} */ (e.target).closest("button.device-signout");
    if (button instanceof HTMLButtonElement) signOutDevice(button);
  });
  $("#devices-others").addEventListener("click", signOutOthers);
  $("#password-form").addEventListener("submit", changePassword);
}
