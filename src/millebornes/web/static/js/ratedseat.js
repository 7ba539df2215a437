// @ts-check
// The seat and its account (docs/web-api.md, "Accounts" and "Ratings"). A signed-in page brings its seat into the
// account as soon as it sits at the table, quietly: the account keeps the table, and a rated match counts for its
// rating. At a rated table a signed-out page says the match will not be rated unless its player signs in, and
// notices a sign-in made meanwhile in another tab when it is seen again. When a rated match ends, the account's
// rating is read again and shown beside the one read before the match.

import { t, editionName, formatNumber, getLang, ratingText } from "./lib/words.js";
import { $, el } from "./lib/dom.js";
import { getJSON } from "./lib/http.js";
import { whoIsSignedIn } from "./lib/me.js";

// ms between looks at the account once the match is over: the server rates it as it ends, but a process busy
// elsewhere (or the hall's sweep) may take a moment
const LOOKS = [0, 400, 1000, 2000, 4000];

const sleep = (ms) => new Promise((ok) => { setTimeout(ok, ms); });

// `token()`: the seat's token now (the first join replaces the invite's); `byAccount`: the seat was opened by the
// signed-in account, with no link; `say(message)`: the page's notice line; `now()`: {table (its facts), joined, over}.
export function ratedSeat({ tableId, seat, spectator, token, byAccount, say, now }) {
  // me: GET /api/account's answer, null signed out, undefined unknown; claimed: the account holds the seat;
  // before: its rating in the table's family when the seat came in (null: none yet; undefined: not read before the
  // end); result: what #match-rating says, {after} or {key}; asking: the look under way
  const R = { me: undefined, claimed: false, before: undefined, result: null, asking: null, ended: false };

  async function account() {
    return whoIsSignedIn();
  }

  async function claim(me) {
    const tok = token();
    if (tok) R.claimed = await bring(me, tok);
    else R.claimed = byAccount; // the seat was opened by this sign-in's account: the server checked it holds the seat
    if (R.claimed && R.before === undefined && !now().over) R.before = me.ratings?.[now().table?.ruleset] ?? null;
  }

  // The seat brought into the account by its link (another account may hold it: passed over without a word, and
  // nothing here counts for this one).
  async function bring(me, tok) {
    let r;
    try {
      r = await fetch("/api/account/claim", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": me.csrf },
        body: JSON.stringify({ seats: [{ table: tableId, seat, token: tok }] }),
      });
    } catch (x) {
      return false;
    }
    const data = await r.json().catch(() => null);
    return r.ok && Array.isArray(data?.claimed) && data.claimed.some((c) => c.table === tableId && c.seat === seat);
  }

  async function lookNow() {
    const me = await account();
    if (me === undefined) return; // the server did not answer: as it was
    const wasOut = R.me === null;
    R.me = me;
    if (me && now().joined && !R.claimed) {
      await claim(me);
      if (R.claimed && wasOut && now().table?.rated && !now().over) say({ key: "rated.now_counts", params: { name: me.username } });
    }
    render();
  }

  // One look at a time; a look asked for meanwhile follows it.
  function look() {
    if (spectator) return Promise.resolve();
    const next = (R.asking || Promise.resolve()).then(lookNow).catch(() => {});
    R.asking = next;
    next.then(() => { if (R.asking === next) R.asking = null; });
    return next;
  }

  // The match is over: was it rated, and how did this account's rating move?
  async function ended() {
    if (spectator || R.ended || !now().table?.rated) return;
    R.ended = true;
    const family = now().table.ruleset;
    const counted = (me) => {
      const after = me?.ratings?.[family];
      return after && after.matches > (R.before?.matches ?? 0) ? after : null;
    };
    for (const wait of LOOKS) {
      await sleep(wait);
      await R.asking; // the seat's claim under way, if any: whether the account holds the seat is known after it
      if (R.claimed && R.before !== undefined) {
        const after = counted(await account());
        if (after) { R.result = { after }; render(); return; }
      } else if (R.claimed && await fromGames(family)) {
        render();
        return;
      }
      const facts = await getJSON(`/api/tables/${encodeURIComponent(tableId)}`).catch(() => null);
      if (facts?.rated === false) { R.result = { key: "rated.unrated" }; render(); return; }
      if (!R.claimed && R.me !== undefined) return; // rated, but not for this page's account: nothing to say
    }
    R.result = { key: "rated.pending" };
    render();
  }

  // The page was opened after the end (a reload, another device): the account's games say how the match moved its
  // rating. True once R.before and R.result say it.
  async function fromGames(family) {
    const me = await account();
    if (!me) return false;
    const data = await getJSON(`/api/players/${encodeURIComponent(me.username)}?limit=20`).catch(() => null);
    const game = Array.isArray(data?.games) ? data.games.find((g) => g.table === tableId) : null;
    if (!Number.isFinite(game?.rating?.after)) return false;
    const now = me.ratings?.[family];
    R.before = now?.matches > 1 ? { rating: game.rating.before } : null;
    R.result = { after: { rating: game.rating.after, provisional: Boolean(now?.provisional) } };
    return true;
  }

  function resultText() {
    const { after, key } = R.result;
    if (key) return t(key);
    const edition = editionName(now().table?.ruleset) || now().table?.ruleset;
    if (!R.before) return t("rated.result_first", { edition, after: ratingText(after) });
    const d = after.rating - R.before.rating;
    const change = d > 0 ? `+${formatNumber(d)}` : d < 0 ? `−${formatNumber(-d)}` : "±0";
    return t("rated.result", { edition, before: formatNumber(R.before.rating), after: ratingText(after), change });
  }

  // drawn again only when it changes: the page redraws at every move, and the link may hold the focus
  function notice(box, on) {
    const sig = on ? getLang() : "";
    if (box.dataset.sig === sig) return;
    box.dataset.sig = sig;
    box.replaceChildren(...(on ? [t("rated.signed_out"), " ",
      el("a", { href: "/account", target: "_blank", rel: "noopener" }, t("rated.signin_link"))] : []));
  }

  // The badge in the top bar; the notice in the join form, then above the table; the result in #match-over.
  function render() {
    const { table, joined, over } = now();
    const rated = Boolean(table?.rated) && R.result?.key !== "rated.unrated";
    $("#rated").hidden = !rated;
    const warn = rated && !spectator && !over && R.me === null;
    $("#join-rated").hidden = !warn || joined;
    notice($("#join-rated"), warn && !joined);
    $("#rated-box").hidden = !warn || !joined;
    notice($("#rated-text"), warn && joined);
    const text = R.result ? resultText() : "";
    if ($("#match-rating").textContent !== text) $("#match-rating").textContent = text;
  }

  if (!spectator) {
    // a sign-in made in another tab (the notice's link) is seen when this one comes back
    document.addEventListener("visibilitychange", () => { if (!document.hidden && !R.claimed) look(); });
    window.addEventListener("focus", () => { if (!R.claimed) look(); });
  }

  return { look, ended, render, joined: () => { if (!R.claimed) look(); } };
}
