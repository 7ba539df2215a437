// @ts-check
// "My tables": the tables this browser created or joined, kept in localStorage under one key, newest first and
// at most MAX (the oldest is dropped). One job: read and write that list; the home page shows it (mine.js).
// An entry: { id, ruleset, at (ms), seat, url (my seat's link, with its token), used (the invite token that link
// replaced on the seat's first join), creator, invites: [{ seat, url }] }.

const KEY = "millebornes.tables";
export const MAX = 30;

// Only links to a table page of this server are kept: what the list gives back is always safe to follow.
function tableLink(url, id) {
  return typeof url === "string" && url.startsWith(`/t/${encodeURIComponent(id)}#`) ? url : null;
}

/**
 * @typedef {{ id: string, ruleset: string, at: number, seat: number | null, url: string | null, creator: boolean,
 *   invites: { seat: number, url: string }[], used: string | null }} TableEntry
 */

/** @returns {TableEntry | null} */
function clean(e) {
  if (!e || typeof e.id !== "string" || !e.id) return null;
  const invites = Array.isArray(e.invites)
    ? e.invites.filter((i) => Number.isInteger(i?.seat) && tableLink(i.url, e.id)).map((i) => ({ seat: i.seat, url: i.url }))
    : [];
  return {
    id: e.id, ruleset: typeof e.ruleset === "string" ? e.ruleset : "", at: Number(e.at) || 0,
    seat: Number.isInteger(e.seat) ? e.seat : null, url: tableLink(e.url, e.id), creator: e.creator === true, invites,
    used: typeof e.used === "string" ? e.used : null,
  };
}

/** @returns {TableEntry[]} */
export function myTables() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(data) ? data.map(clean).filter((e) => e !== null) : [];
  } catch (e) {
    return [];
  }
}

function save(list) {
  try { localStorage.setItem(KEY, JSON.stringify(list.slice(0, MAX))); } catch (e) { /* storage off or full */ }
}

// Record a table (or more about one already known: a seat taken, the invites of its creator); it moves first.
export function remember(entry) {
  const list = myTables();
  const old = /** @type {Partial<TableEntry>} */ (list.find((e) => e.id === entry.id) || {});
  const given = Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined && v !== null && v !== ""));
  const merged = clean({ ...old, ...given, at: old.at || Date.now(), creator: old.creator || entry.creator === true });
  if (!merged) return;
  save([merged, ...list.filter((e) => e.id !== entry.id)]);
}

export function forget(id) {
  save(myTables().filter((e) => e.id !== id));
}

// The seat taken from a link on the table page: "#seat=N&token=..." made again from what the page kept; `used`, the
// invite token the seat's first join replaced (dead since: kept only to know that link again).
export function rememberSeat(id, ruleset, seat, token, used) {
  if (!id || !Number.isInteger(seat) || !token) return;
  remember({ id, ruleset, seat, used, url: `/t/${encodeURIComponent(id)}#seat=${seat}&token=${encodeURIComponent(token)}` });
}

// A seat opened by the signed-in account on this device, with no link of its own: "#seat=N&account=1" opens it again
// while the account is signed in here.
export function rememberAccountSeat(id, ruleset, seat) {
  if (!id || !Number.isInteger(seat)) return;
  remember({ id, ruleset, seat, url: `/t/${encodeURIComponent(id)}#seat=${seat}&account=1` });
}

function tokenOf(url) {
  return url ? new URLSearchParams(url.split("#")[1] || "").get("token") : null;
}

// This browser's token of that seat at the table (My tables'), or null.
export function linkedToken(id, seat) {
  const e = myTables().find((x) => x.id === id);
  return e && e.seat === seat ? tokenOf(e.url) : null;
}

// The token that opens my seat now when a page is opened with an invite link this browser already used: the
// seat's new token, else null (the link is someone else's, or not used here).
export function replacedToken(id, seat, given) {
  const e = myTables().find((x) => x.id === id);
  return e && e.seat === seat && e.used && e.used === given ? tokenOf(e.url) : null;
}

// This browser's seats as POST /api/account/signup, signin and claim take them: [{table, seat, token}], each
// table once (My tables keeps one seat a table); a link the server could not have made is left out, since one
// would get the whole request refused.
export function seatLinks() {
  return myTables().map((e) => ({ table: e.id, seat: e.seat, token: tokenOf(e.url) }))
    .filter((l) => l.seat !== null && l.seat < 6 && l.token && l.token.length <= 64 && l.table.length <= 16);
}

// A token of my seat at the table, to show that I sat there (a private table's replay and review): this tab's,
// else My tables'; null when this browser did not sit there.
export function seatToken(id) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(`millebornes.seat.${id}`) || "null");
    if (kept && typeof kept.token === "string") return kept.token;
  } catch (e) { /* storage off */ }
  return tokenOf(myTables().find((x) => x.id === id)?.url);
}

// The header that carries it: Authorization: Bearer <token> (never the address, which logs keep).
export function seatHeaders(id) {
  const token = seatToken(id);
  return token ? { Authorization: `Bearer ${token}` } : {};
}
