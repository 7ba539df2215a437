// @ts-check
// The join form: the nickname checked as the server checks it, the table's line, a refusal shown in it.

import { t, editionName } from "../lib/words.js";
import { $, $as } from "../lib/dom.js";
import { mySeat, NICK_KEY, S } from "./state.js";
import { dialogs } from "./parts.js";
import { connect } from "./socket.js";

// the server's rules (frames.clean_nickname), counted the same way: characters are code points after NFC
export function goodNickname(nick) {
  const n = [...nick].length;
  return n >= 1 && n <= 24 && /[\p{L}\p{N}]/u.test(nick) && !/[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}]/u.test(nick)
    && ![...nick].some((c) => /\p{Zs}/u.test(c) && c !== " ") && !/^(bot|robot|seat|place)\W*\d/i.test(nick.normalize("NFKC"));
}

export function showJoinError(text) {
  dialogs.open($("#join-overlay"), "#nickname");
  $as("#join", HTMLButtonElement).disabled = false;
  $("#join-error").textContent = text;
}

export function startJoin(nickname) {
  S.nickname = nickname;
  try { if (nickname) localStorage.setItem(NICK_KEY, nickname); } catch (e) { /* storage off */ }
  $as("#join", HTMLButtonElement).disabled = true;
  connect();
}

// The join form's line: the edition, the players, the seat taken
export function renderJoinInfo() {
  const facts = S.facts;
  if (!facts) return;
  const edition = facts.ruleset || "";
  const named = editionName(edition) || edition;
  $("#join-table").textContent = `${named} · ${t("ed.players", { n: facts.players })} · ${t("seat.name", { n: mySeat + 1 })}`;
}
