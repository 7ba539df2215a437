#!/usr/bin/env node
// A Mille Bornes bot in JavaScript (Node.js, no dependencies): it speaks the stdio bot protocol of docs/protocol.md.
// One JSON object a line on stdin, one a line on stdout; logs go to stderr.
//
//   millebornes tournament --bots random --bots "cmd:node examples/external_bot.js" --games 20
//   MILLEBORNES_BOT_TOKEN=mbb_... millebornes bot "cmd:node examples/external_bot.js" --server https://example.org
//
// Its game: a coup fourre whenever it may, a safety when it holds one, a remedy for its own hazard, its longest
// distance card, a hazard on the side furthest ahead, and otherwise the discard of a card it needs least.
"use strict";

const readline = require("readline");

const PROTOCOL = "millebornes-bot/1";
const MILES = { 25: 25, 50: 50, 75: 75, 100: 100, 200: 200 };
const KEEP_LAST = ["right-of-way", "extra-tank", "puncture-proof", "driving-ace", "roll", "200", "100"];

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

function card(action) {
  return action.split(" ")[1];
}

function furthestAhead(obs) {
  let best = null;
  (obs.tableaux || []).forEach((tableau, side) => {
    if (side !== obs.side && (best === null || tableau.distance > best.distance)) best = { side, distance: tableau.distance };
  });
  return best === null ? null : best.side;
}

function choose(obs, legal) {
  if (legal.includes("coup-fourre")) return "coup-fourre";
  if (legal.includes("extend")) return "end-hand";
  if (legal.includes("draw")) return "draw";
  const plays = legal.filter((a) => a.startsWith("play "));
  const safety = plays.find((a) => ["right-of-way", "extra-tank", "puncture-proof", "driving-ace"].includes(card(a)));
  if (safety) return safety;
  const remedy = plays.find((a) => ["roll", "gasoline", "spare-tire", "repairs", "end-of-limit"].includes(card(a)));
  if (remedy) return remedy;
  const miles = plays.filter((a) => card(a) in MILES && a.split(" ").length === 2);
  if (miles.length) return miles.sort((a, b) => MILES[card(b)] - MILES[card(a)])[0];
  const leader = furthestAhead(obs);
  const attack = plays.find((a) => a.split(" ").length === 3 && Number(a.split(" ")[2]) === leader);
  if (attack) return attack;
  const discards = legal.filter((a) => a.startsWith("discard "));
  if (discards.length) {
    const need = (a) => KEEP_LAST.indexOf(card(a));
    return discards.sort((a, b) => need(a) - need(b))[0];
  }
  return legal[0];
}

function answer(m) {
  const id = Number.isInteger(m.id) ? m.id : null;
  if (m.type === "hello") {
    if (m.protocol !== undefined && m.protocol !== PROTOCOL) {
      return send({ type: "error", id: null, message: `this bot speaks ${PROTOCOL}` });
    }
    return send({ type: "hello", protocol: PROTOCOL, name: "js-example", version: "1.0" });
  }
  if (m.type === "bye") process.exit(0);
  if (m.type !== "decide") return send({ type: "error", id, message: `unknown request type ${JSON.stringify(m.type)}` });
  if (id === null) return send({ type: "error", id, message: '"id" must be an integer' });
  const legal = m.legal_actions;
  if (!Array.isArray(legal) || !legal.length || !legal.every((a) => typeof a === "string")) {
    return send({ type: "error", id, message: '"legal_actions" must be a non-empty array of strings' });
  }
  const obs = m.observation && typeof m.observation === "object" ? m.observation : {};
  send({ type: "action", id, action: choose(obs, legal) });
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (!line.trim()) return;
  let message;
  try {
    message = JSON.parse(line);
  } catch (error) {
    return send({ type: "error", id: null, message: "the request is not valid JSON" });
  }
  if (message === null || typeof message !== "object" || Array.isArray(message)) {
    return send({ type: "error", id: null, message: "a request is a JSON object" });
  }
  answer(message);
});
lines.on("close", () => process.exit(0)); // the input's end: the host has gone
