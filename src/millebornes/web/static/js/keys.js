// @ts-check
// The table page's keys: the terminal game's keys on the whole page, the move bar that names the chosen card's
// moves with their keys, and the "Keys" panel that lists them in words. A key sends the action it means, as a
// click does: the server judges it.

import { t, tn, getLang, describeAction, sideName, cardName } from "./lib/words.js";
import { $, el } from "./lib/dom.js";
import { CARDS } from "./lib/cards.js";
import { textOf, announce } from "./telling.js";

// A touch screen with no keyboard: no key names shown (the stylesheet hides them), the words say "tap".
export function touchScreen() {
  return Boolean(window.matchMedia?.("(hover: none) and (pointer: coarse)").matches);
}

// page.now(): {joined, obs, selected (index in the hand or null), mine (the seat's decision), ctx};
// page.act(action), say(message, isError), choose(i, toggle, focus), putDown(), askHint(), takeBack(); page.dialogs: the stack.
export function keyboard(page) {
  if (touchScreen()) {
    $("#keys-button").dataset.i18n = "keys.button_touch";
    $("#keys-title").dataset.i18n = "keys.title_touch";
  }
  // The hand index of the hazard being aimed (a): while it is the chosen card, number keys pick a side. Any other
  // choice, a move or Esc ends the aim, so browsing the hand by number keys never attacks.
  let aiming = null;

  function aimingNow({ obs, selected, mine } = page.now()) {
    return aiming !== null && aiming === selected && mine && obs?.decision === "play";
  }

  // The sides a chosen hazard could go to: every side but the seat's own.
  function opponents(obs) {
    return obs.sides.map((_, side) => side).filter((side) => side !== obs.side);
  }

  // The legal moves of the chosen card (or of the draw decision), from the state's legal actions, as named
  // buttons with their keys: "Play on my side p", "Attack Ann a", "Discard d". The server still judges.
  function moveOptions(now = page.now()) {
    const { obs, selected, mine, ctx } = now;
    if (!obs || !mine) return [];
    const legal = obs.legal_actions || [];
    if (obs.decision === "draw") {
      const opts = [{ action: "draw", nodes: tn("action.draw"), key: "s" }];
      if (legal.includes("take-discard")) opts.push({ action: "take-discard", nodes: describeAction("take-discard", ctx, obs), key: "t" });
      return opts;
    }
    if (obs.decision !== "play" || selected === null) return [];
    const id = obs.hand[selected];
    const aimed = aimingNow(now);
    const several = opponents(obs).length > 1;
    const opts = [];
    if (legal.includes(`play ${id}`) && !aimed) opts.push({ action: `play ${id}`, nodes: [t(obs.teams ? "move.play_ours" : "move.play_mine")], key: "p" });
    for (const a of legal) {
      const m = a.match(/^play (\S+) (\d+)$/);
      if (m && m[1] === id) {
        const side = Number(m[2]);
        const key = aimed ? String(side + 1) : several ? `a ${side + 1}` : "a";
        opts.push({ action: a, nodes: tn("move.attack", { side: sideName(ctx, side) }), key, attack: true });
      }
    }
    if (legal.includes(`discard ${id}`) && !aimed) opts.push({ action: `discard ${id}`, nodes: [t("move.discard")], key: "d" });
    return opts;
  }

  function renderMoves() {
    const bar = $("#moves");
    const now = page.now();
    const { obs, selected, mine } = now;
    bar.setAttribute("aria-label", t("move.title"));
    const opts = moveOptions(now);
    const chosen = obs && selected !== null ? obs.hand[selected] : null;
    const aimed = aimingNow(now);
    const caption = chosen ? t(aimed ? "move.aim_caption" : "move.caption", { card: cardName(chosen) }) : null;
    let note = null;
    if (chosen && !mine) note = t("move.wait");
    else if (obs && mine && obs.decision === "play" && !chosen && !obs.is_over) {
      note = touchScreen() ? t("move.choose_touch") : t("move.choose", { last: obs.hand.length });
    }
    const sig = JSON.stringify([getLang(), caption, note, opts.map((o) => [o.action, o.key, textOf(o.nodes)])]);
    if (bar.dataset.sig === sig) return;
    bar.dataset.sig = sig;
    // a key sequence ("a 2") has no aria-keyshortcuts form: the Keys panel and the announcement say it
    const buttons = opts.map((o, i) => el("button", {
      type: "button", class: `move${i === 0 ? " first" : ""}${o.attack ? " attack" : ""}`, dataset: { action: o.action },
      "aria-keyshortcuts": o.key.includes(" ") ? null : o.key, onclick: () => page.act(o.action),
    }, ...o.nodes, " ", el("kbd", { "aria-hidden": "true" }, o.key)));
    if (chosen) {
      buttons.push(el("button", { type: "button", class: "move ghost back", "aria-keyshortcuts": "Escape", onclick: () => back() },
        t("move.back"), " ", el("kbd", { "aria-hidden": "true" }, t("keys.esc_name"))));
    }
    bar.replaceChildren(...[caption && el("span", { class: "move-caption" }, caption), ...buttons,
      note && el("span", { class: "move-note" }, note)].filter(Boolean));
  }

  // The keys, in words, for the "Keys" panel, for a table of so many sides and hand cards; "u" only where a move
  // may be taken back at all (a person alone with bots, at a table that is not rated).
  function renderKeys(sides, cards, undo) {
    const rows = [[`1–${cards}`, "keys.cards"], ["p", "keys.play"], [sides > 2 ? `a, 1–${sides}` : "a", sides > 2 ? "keys.attack_aim" : "keys.attack"], ["d", "keys.discard"],
      ["s", "keys.draw"], ["t", "keys.take"], [t("keys.yes_no"), "keys.answer"], ["h", "keys.hint"], ...(undo ? [["u", "keys.undo"]] : []),
      [t("keys.esc_name"), "keys.back"], ["?", "keys.help"]];
    const list = $("#keys-list");
    const sig = `${getLang()}|${sides}|${cards}|${undo}`;
    if (list.dataset.sig === sig) return;
    list.dataset.sig = sig;
    list.replaceChildren(...rows.flatMap(([k, key]) => [el("dt", {}, el("kbd", {}, k)), el("dd", {}, t(key))]));
  }

  function toggleKeys(open = $("#keys-help").hidden) {
    $("#keys-help").hidden = !open;
    $("#keys-button").setAttribute("aria-expanded", open ? "true" : "false");
  }

  // p (where "own") and d (where "discard"): the chosen card on my side, or on the discard pile. A hazard
  // "on my side" is sent as such, as the terminal does, and the server says why not.
  function playChosen(where) {
    const { obs, selected, mine } = page.now();
    if (mine && obs.decision === "draw") { page.say({ key: "msg.draw_first" }, true); return; }
    if (selected === null) { page.say({ key: "msg.pick_card_key", params: { last: obs.hand.length } }, true); return; }
    const id = obs.hand[selected];
    if (where === "discard") page.act(`discard ${id}`);
    else page.act(CARDS[id]?.group === "hazard" ? `play ${id} ${obs.side}` : `play ${id}`);
  }

  // a: the chosen hazard on the one opponent, or, with several, the step that asks which side (then a number).
  function attack() {
    const { obs, selected, mine } = page.now();
    if (mine && obs.decision === "draw") { page.say({ key: "msg.draw_first" }, true); return; }
    if (selected === null) { page.say({ key: "msg.pick_card_key", params: { last: obs.hand.length } }, true); return; }
    const id = obs.hand[selected];
    if (CARDS[id]?.group !== "hazard") { page.say({ key: "msg.not_hazard", params: { card: cardName(id) } }, true); return; }
    if (!mine) { page.say({ key: "msg.not_your_turn" }, true); return; }
    const sides = opponents(obs);
    if (sides.length === 1) { page.act(`play ${id} ${sides[0]}`); return; }
    aiming = selected;
    renderMoves();
    const choices = moveOptions().filter((o) => o.attack).map((o) => t("a11y.move_key", { move: textOf(o.nodes), key: o.key }));
    announce(t("a11y.aim", { card: cardName(id), moves: choices.join(t("list.sep")) || t("a11y.aim_none") }));
  }

  // Esc or Back: out of the side step, else the card put down.
  function back() {
    if (aimingNow()) { aiming = null; renderMoves(); announce(t("a11y.aim_left")); return; }
    page.putDown();
  }

  // A number: a side while aiming a hazard (after a), else always a card of the hand.
  function onDigit(n) {
    const { obs } = page.now();
    if (aimingNow()) {
      if (n > obs.sides.length) { page.say({ key: "msg.no_side", params: { k: n } }, true); return; }
      page.act(`play ${obs.hand[aiming]} ${n - 1}`);
      return;
    }
    if (n > obs.hand.length) { page.say({ key: "msg.no_card", params: { k: n } }, true); return; }
    page.choose(n - 1, false, true);
  }

  // The terminal's keys, on the whole page: never while typing (the nickname) or with Ctrl, Alt or Meta.
  // (Tab is the dialog stack's.)
  function onKey(e) {
    if (e.key === "Tab") return;
    if (e.defaultPrevented || e.ctrlKey || e.altKey || e.metaKey || e.isComposing) return;
    if (e.target.closest?.("input, select, textarea, [contenteditable]")) return;
    const top = page.dialogs.top();
    if (e.key === "Escape") {
      if (top && (top.id === "hand-over" || top.id === "match-over" || top.id === "learn-over")) { e.preventDefault(); page.dialogs.close(top); return; }
      if (top) return;
      if (!$("#keys-help").hidden) {
        const inside = $("#keys-help").contains(document.activeElement);
        toggleKeys(false);
        if (inside) $("#keys-button").focus();
        return;
      }
      if (page.now().selected !== null) { e.preventDefault(); back(); }
      return;
    }
    const { joined, obs } = page.now();
    if (!joined || !obs) return;
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (top) {
      const yes = k === "y" || k === "o"; // o for oui: each language's own key, y kept for every one
      if ((top.id === "cf-dialog" || top.id === "ext-dialog") && (yes || k === "n")) {
        e.preventDefault();
        (yes ? top.querySelector("button.primary") : top.querySelector("button:not(.primary)")).click();
      }
      return;
    }
    if (e.shiftKey && /^[a-z]$/i.test(e.key)) return;
    // a digit as typed, or the digit row's key unshifted (AZERTY types "&é\"'(-è" there)
    const digit = /^[1-9]$/.test(e.key) ? Number(e.key)
      : /^Digit[1-9]$/.test(e.code) && !e.shiftKey ? Number(e.code.slice(-1)) : null;
    if (digit !== null) { e.preventDefault(); onDigit(digit); return; }
    const fn = {
      p: () => playChosen("own"), d: () => playChosen("discard"), a: attack, s: () => page.act("draw"), t: () => page.act("take-discard"),
      h: page.askHint, u: page.takeBack, "?": () => toggleKeys(),
    }[k];
    if (fn) { e.preventDefault(); fn(); }
  }

  // A card chosen, put down or played: the side step ends with it.
  function endAim() { aiming = null; }

  return { moveOptions, renderMoves, renderKeys, toggleKeys, onKey, endAim, aiming: () => aimingNow() };
}
