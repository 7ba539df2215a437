// @ts-check
// Fetch helpers, shared by every page: JSON in and out, a refusal as an HttpError with the server's words.

export async function getJSON(url, headers = {}) {
  const r = await fetch(url, { headers: { ...headers, Accept: "application/json" } });
  if (!r.ok) throw new HttpError(r.status, await errorText(r));
  return r.json();
}

// How to play an edition (GET /api/rules/EDITION) in both languages at once, so a change of language redraws
// without waiting: {en, fr}.
export async function rulesGuides(edition, players) {
  const url = (lang) => `/api/rules/${encodeURIComponent(edition)}?lang=${lang}&players=${players}`;
  const [en, fr] = await Promise.all([getJSON(url("en")), getJSON(url("fr"))]);
  return { en, fr };
}

export async function postJSON(url, body) {
  const r = await fetch(url, {
    method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new HttpError(r.status, await errorText(r));
  return r.json();
}

// A JSON request whose answer the caller reads whatever its status (a refusal's code becomes the catalog's words):
// {ok, status, headers, data}, or null when it did not reach the server. `headers` adds to the JSON ones (a
// change's X-CSRF-Token).
export async function sendJSON(method, url, body, headers = {}) {
  let r;
  try {
    r = await fetch(url, {
      method, headers: { ...headers, "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
  } catch (x) {
    return null;
  }
  return { ok: r.ok, status: r.status, headers: r.headers, data: await r.json().catch(() => null) };
}

export class HttpError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

async function errorText(r) {
  try {
    const data = await r.json();
    const d = data.detail ?? data.message ?? data.error ?? data;
    if (typeof d === "string") return d;
    if (Array.isArray(d)) return d.map((x) => (typeof x === "string" ? x : x.msg || JSON.stringify(x))).join("; ");
    return JSON.stringify(d);
  } catch (e) {
    return `${r.status} ${r.statusText}`;
  }
}

// POST /api/tables (the home page's form and its quick game): the answer's {ok, status, headers, data}, or null
// when the request did not reach the server.
export async function createTable(body) {
  let r;
  try {
    r = await fetch("/api/tables", {
      method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
  } catch (x) {
    return null;
  }
  return { ok: r.ok, status: r.status, headers: r.headers, data: await r.json().catch(() => null) };
}
