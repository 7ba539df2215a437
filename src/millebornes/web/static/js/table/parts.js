// @ts-check
// The table page's other modules, each wired to this page's state and actions: the card help, the sounds, the
// hand's sheet, who left, the modal dialogs, the focus across redraws, the keys, the chat, the rated seat and the
// rematch.

import { $ } from "../lib/dom.js";
import { dialogStack } from "../dialogs.js";
import { focusKeeper, focusLost } from "../focus.js";
import { keyboard } from "../keys.js";
import { quickChat } from "../chat.js";
import { cardHelp } from "../cardhelp.js";
import { rematchPanel } from "../rematch.js";
import { gameSounds } from "../sounds.js";
import { handSheet } from "../handsheet.js";
import { presenceNotes } from "../presence.js";
import { ratedSeat } from "../ratedseat.js";
import { tableId, mySeat, token, byAccount, spectator, S, ctx, mine } from "./state.js";
import { send } from "./socket.js";
import { say } from "./render.js";
import { act, choose, putDown, takeBack, askHint } from "./play.js";

export const help = cardHelp();
export const sounds = gameSounds($("#game-sounds"));
// a spectator has no hand: no sheet, the sidebar keeps the log
export const sheet = spectator ? { showHints() {} } : handSheet();
// who left the table and when a bot takes their seat, on their tableau and in the turn line
export const presence = presenceNotes({ ctx, mySeat: spectator ? null : mySeat });

// Under a dialog the language menu stays usable (a panel may be read in either language) and the live
// regions keep talking.
export const dialogs = dialogStack({
  except: [".topbar .lang", "#announce", "#sr-alert"],
  remember: () => focusKey(),
  lost: focusLost,
  giveBack: (where) => restoreFocus(where),
});
export const { key: focusKey, restore: restoreFocus, keep: keepFocus } = focusKeeper({
  handIndex: () => S.focusIndex, toDialog: () => dialogs.hold(),
});
export const keys = keyboard({
  now: () => ({ joined: S.joined, obs: S.obs, selected: S.selected, mine: mine(), ctx: ctx() }),
  act, say, choose, putDown, askHint, takeBack, dialogs,
});
export const chat = quickChat({ send, ctx, seat: mySeat, spectator, tableId });

// the seat brought into a signed-in account; at a rated table, what a signed-out page is told, and the rating after
export const seatAccount = ratedSeat({
  tableId, seat: mySeat, spectator, token: () => token, byAccount, say,
  now: () => ({ table: S.table, joined: S.joined, over: Boolean(S.obs?.is_over || S.status === "finished") }),
});

export const rematch = rematchPanel({
  send, say,
  now: () => ({ spectator, joined: S.joined, mySeat, status: S.status, table: S.table, ctx: ctx(),
    nickname: S.seats.find((s) => s.seat === mySeat)?.nickname || S.nickname }),
});
