// @ts-check
// Who is signed in on this browser, as every page asks it: GET /api/me, where signed out is an answer and not an
// error status, so that a signed-out page logs no error in the browser's console (GET /api/account answers 401).

/**
 * GET /api/account's answer for the account signed in, null when nobody is, undefined when the server could not be
 * asked.
 * @returns {Promise<any>}
 */
export async function whoIsSignedIn() {
  try {
    const r = await fetch("/api/me", { headers: { Accept: "application/json" } });
    const data = await r.json().catch(() => null);
    if (!r.ok || !data) return undefined;
    return data.signed_in ? data : null;
  } catch (x) {
    return undefined;
  }
}
