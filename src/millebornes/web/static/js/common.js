// Shared by every page: languages, card names, fetch helpers, safe element building, events in words.
// Nothing from the server or from a player is ever put into innerHTML: el() and text() use textContent.

const STRINGS = {
  en: {
    "app.title": "Mille Bornes",
    "app.tagline": "The open Mille Bornes: play with friends and bots, in your browser.",
    "lang.label": "Language",
    "home.create": "New table",
    "home.edition": "Edition",
    "home.players": "Players",
    "home.teams": "Play in teams of two",
    "home.cf_timeout": "Coup fourré countdown (s)",
    "home.seats": "Seats",
    "home.seat": "Seat {n}",
    "home.you": "you",
    "home.team": "team {t}",
    "home.create_button": "Create the table",
    "home.creating": "Creating…",
    "home.invites": "Invite links",
    "home.invites_help": "Send each link to one player: the link is the seat. Open your own to sit down.",
    "home.my_seat": "Sit down at seat 0 (you)",
    "home.invite_for": "Seat {n}",
    "home.copy": "Copy",
    "home.copied": "Copied",
    "home.history": "Finished games",
    "home.history_empty": "No finished game yet.",
    "home.replay": "Replay",
    "home.when": "When",
    "home.players_col": "Players",
    "home.result": "Result",
    "home.join_title": "Join a table",
    "home.join_help": "Got an invite link? Open it, choose a nickname, and you are in.",
    "kind.human": "Human",
    "kind.easy": "Bot: easy",
    "kind.medium": "Bot: medium",
    "kind.hard": "Bot: hard",
    "kind.expert": "Bot: expert",
    "level.easy": "easy", "level.medium": "medium", "level.hard": "hard", "level.expert": "expert",
    "bot.name": "Bot {n} ({level})",
    "seat.name": "Seat {n}",
    "seat.empty": "empty seat {n}",
    "join.title": "Take your seat",
    "join.nickname": "Nickname",
    "join.button": "Join the table",
    "join.no_token": "This page needs an invite link (…#seat=N&token=…). Ask the table's creator for yours.",
    "join.bad_nickname": "A nickname is 1 to 24 characters, with a letter or a digit, plain spaces only, and not a name like “Seat 2” or “Bot 1”.",
    "table.stock": "Stock",
    "table.discard": "Discard",
    "table.hand": "Your hand",
    "table.log": "What happened",
    "table.scores": "Scores",
    "table.hints": "Hints",
    "table.hint_button": "Hint",
    "table.hint_wait": "Thinking…",
    "table.hint_line": "{action}: {chance} to win",
    "table.battle": "Battle",
    "table.speed": "Speed",
    "table.safeties": "Safeties",
    "table.distance": "Distance",
    "table.km": "{d} / {target}",
    "table.cards_in_hand": "{n} cards",
    "table.last_hand": "Last hand",
    "table.home": "Home",
    "table.side": "Side {s}",
    "table.you_mark": "(you)",
    "table.hand_n": "Hand {n}",
    "table.target": "Target {target}",
    "turn.waiting": "Waiting for players to join: {names}",
    "turn.yours_play": "Your turn: play or discard a card",
    "turn.yours_draw": "Your turn: draw from the stock or take the discard",
    "turn.yours_cf": "Coup fourré? Answer now",
    "turn.yours_ext": "Your choice: extend the trip or end the hand",
    "turn.other_play": "{name} is playing",
    "turn.other_draw": "{name} draws",
    "turn.other_cf": "{name} may call a coup fourré",
    "turn.cf_window": "{name} played {hazard}: a coup fourré may answer it ({s} s)",
    "turn.other_ext": "{name} chooses: extension or end of the hand",
    "turn.over": "The match is over",
    "turn.broken": "This table is stopped: the server could not save a move",
    "turn.connecting": "Connecting…",
    "msg.select_card": "Selected: {card}. Now click a tableau (play it) or the discard pile (discard it).",
    "msg.pick_card": "Click a card of your hand first.",
    "msg.reconnecting": "Connection lost: reconnecting in {s} s…",
    "msg.reconnected": "Connected again.",
    "msg.offline": "Not connected: that move was not sent. Reconnecting…",
    "msg.auth": "This invite link is not valid (wrong seat or token).",
    "msg.not_your_turn": "It is not your turn.",
    "msg.stale": "The table moved on before your action arrived: look again and retry.",
    "msg.finished": "The match is over.",
    "msg.broken": "This table is stopped: the server could not save a move.",
    "msg.waiting": "The table is waiting for every player to join.",
    "msg.rate": "Too many actions at once: slow down.",
    "msg.hint_rate": "Hints are rationed: ask again in {s} s.",
    "msg.busy": "The server has many hints to work out: ask again in a few seconds.",
    "msg.malformed": "The server did not understand that.",
    "msg.too_large": "That message was too large.",
    "msg.illegal": "Not allowed: {reason}",
    "msg.error": "Error: {reason}",
    "msg.joined": "You are at the table.",
    "cf.title": "Coup fourré!",
    "cf.text": "{attacker} played {hazard} on {side}. You hold {safety}: lay it as a coup fourré?",
    "cf.yes": "Coup fourré!",
    "cf.no": "Let it go",
    "cf.seconds": "{s} s",
    "ext.title": "Extension",
    "ext.text": "You reached {target}. Extend the trip to {full}, or end the hand now?",
    "ext.yes": "Extend to {full}",
    "ext.no": "End the hand",
    "over.title": "End of hand {n}",
    "over.item": "Item",
    "over.total": "Points this hand",
    "over.match": "Match total",
    "over.close": "Continue",
    "over.winners": "Hand won by {names}",
    "match.title": "Match over",
    "match.winners": "Winner: {names}",
    "match.tie": "Tie: {names}",
    "match.replay": "Watch the replay",
    "match.home": "Back to the home page",
    "item.distance": "Distance",
    "item.safeties": "Safeties",
    "item.all_safeties": "All four safeties",
    "item.coups_fourres": "Coups fourrés",
    "item.trip": "Trip completed",
    "item.delayed_action": "Delayed action",
    "item.safe_trip": "Safe trip (no 200)",
    "item.shutout": "Shutout",
    "item.extension": "Extension",
    "item.hand_penalty": "Distance cards left in hand",
    "ev.deal": "Hand {n} is dealt: race to {target}.",
    "ev.play_own": "{name} played {card}.",
    "ev.play_on": "{name} played {card} on {side}.",
    "ev.safety": "{name} played {card}: extra turn.",
    "ev.discard": "{name} discarded {card}.",
    "ev.take_discard": "{name} took {card} from the discard pile.",
    "ev.draw": "{name} drew a card.",
    "ev.coup_fourre": "Coup fourré! {name} laid {card} against {attacker}'s {hazard}.",
    "ev.pass": "{name} let the coup fourré go.",
    "ev.extend": "{name} extends the trip to {target}.",
    "ev.end_hand": "{name} ends the hand.",
    "ev.hand_over": "Hand {n} over: {points}.",
    "ev.match_over": "Match over: {names} won ({scores}).",
    "ev.points": "{name} {p}",
    "ev.nobody": "nobody",
    "and": " and ",
    "replay.title": "Replay",
    "replay.step": "Move {step} of {total}",
    "replay.start": "The deal",
    "replay.first": "First",
    "replay.prev": "Previous",
    "replay.next": "Next",
    "replay.last": "Last",
    "replay.keys": "Arrow keys step through the moves; Home and End jump.",
    "replay.not_found": "This game is not finished, or does not exist.",
    "replay.hand_of": "{name}'s hand",
    "replay.this_move": "This move",
    "ed.players": "{n} players",
    "group.distance": "Distance", "group.hazard": "Hazard", "group.remedy": "Remedy", "group.safety": "Safety",
    "action.draw": "Draw from the stock",
    "action.take-discard": "Take {card} from the discard",
    "action.coup-fourre": "Coup fourré",
    "action.pass": "Let it go",
    "action.extend": "Extend",
    "action.end-hand": "End the hand",
    "action.play": "Play {card}",
    "action.play_on": "Play {card} on {side}",
    "action.discard": "Discard {card}",
    "status.waiting": "waiting", "status.playing": "playing", "status.finished": "finished", "status.broken": "stopped",
  },
  fr: {
    "app.title": "Mille Bornes",
    "app.tagline": "Le Mille Bornes libre : jouez entre amis et contre des robots, dans votre navigateur.",
    "lang.label": "Langue",
    "home.create": "Nouvelle table",
    "home.edition": "Édition",
    "home.players": "Joueurs",
    "home.teams": "Jouer en équipes de deux",
    "home.cf_timeout": "Délai du coup fourré (s)",
    "home.seats": "Places",
    "home.seat": "Place {n}",
    "home.you": "vous",
    "home.team": "équipe {t}",
    "home.create_button": "Créer la table",
    "home.creating": "Création…",
    "home.invites": "Liens d'invitation",
    "home.invites_help": "Envoyez chaque lien à un joueur : le lien, c'est la place. Ouvrez le vôtre pour vous asseoir.",
    "home.my_seat": "S'asseoir à la place 0 (vous)",
    "home.invite_for": "Place {n}",
    "home.copy": "Copier",
    "home.copied": "Copié",
    "home.history": "Parties terminées",
    "home.history_empty": "Aucune partie terminée pour l'instant.",
    "home.replay": "Revoir",
    "home.when": "Quand",
    "home.players_col": "Joueurs",
    "home.result": "Résultat",
    "home.join_title": "Rejoindre une table",
    "home.join_help": "Vous avez un lien d'invitation ? Ouvrez-le, choisissez un pseudo, et c'est parti.",
    "kind.human": "Humain",
    "kind.easy": "Robot : facile",
    "kind.medium": "Robot : moyen",
    "kind.hard": "Robot : difficile",
    "kind.expert": "Robot : expert",
    "level.easy": "facile", "level.medium": "moyen", "level.hard": "difficile", "level.expert": "expert",
    "bot.name": "Robot {n} ({level})",
    "seat.name": "Place {n}",
    "seat.empty": "place {n} libre",
    "join.title": "Prenez place",
    "join.nickname": "Pseudo",
    "join.button": "Rejoindre la table",
    "join.no_token": "Cette page demande un lien d'invitation (…#seat=N&token=…). Demandez le vôtre au créateur de la table.",
    "join.bad_nickname": "Un pseudo fait de 1 à 24 caractères, avec une lettre ou un chiffre, des espaces simples seulement, et n'est pas un nom comme « Place 2 » ou « Robot 1 ».",
    "table.stock": "Pioche",
    "table.discard": "Défausse",
    "table.hand": "Votre main",
    "table.log": "Ce qui s'est passé",
    "table.scores": "Scores",
    "table.hints": "Conseils",
    "table.hint_button": "Conseil",
    "table.hint_wait": "Réflexion…",
    "table.hint_line": "{action} : {chance} de gagner",
    "table.battle": "Bataille",
    "table.speed": "Vitesse",
    "table.safeties": "Bottes",
    "table.distance": "Bornes",
    "table.km": "{d} / {target}",
    "table.cards_in_hand": "{n} cartes",
    "table.last_hand": "Dernière manche",
    "table.home": "Accueil",
    "table.side": "Camp {s}",
    "table.you_mark": "(vous)",
    "table.hand_n": "Manche {n}",
    "table.target": "Objectif {target}",
    "turn.waiting": "En attente des joueurs : {names}",
    "turn.yours_play": "À vous : jouez ou défaussez une carte",
    "turn.yours_draw": "À vous : piochez ou prenez la défausse",
    "turn.yours_cf": "Coup fourré ? Répondez vite",
    "turn.yours_ext": "À vous de choisir : rallonge ou fin de la manche",
    "turn.other_play": "{name} joue",
    "turn.other_draw": "{name} pioche",
    "turn.other_cf": "{name} peut faire un coup fourré",
    "turn.cf_window": "{name} a joué {hazard} : un coup fourré peut y répondre ({s} s)",
    "turn.other_ext": "{name} choisit : rallonge ou fin de la manche",
    "turn.over": "La partie est finie",
    "turn.broken": "Cette table est arrêtée : le serveur n'a pas pu enregistrer un coup",
    "turn.connecting": "Connexion…",
    "msg.select_card": "Choisie : {card}. Cliquez maintenant un jeu (la jouer) ou la défausse (la défausser).",
    "msg.pick_card": "Cliquez d'abord une carte de votre main.",
    "msg.reconnecting": "Connexion perdue : nouvelle tentative dans {s} s…",
    "msg.reconnected": "De nouveau connecté.",
    "msg.offline": "Pas de connexion : ce coup n'est pas parti. Reconnexion…",
    "msg.auth": "Ce lien d'invitation n'est pas valable (place ou jeton erroné).",
    "msg.not_your_turn": "Ce n'est pas votre tour.",
    "msg.stale": "La table a bougé avant votre action : regardez de nouveau et recommencez.",
    "msg.finished": "La partie est finie.",
    "msg.broken": "Cette table est arrêtée : le serveur n'a pas pu enregistrer un coup.",
    "msg.waiting": "La table attend que tous les joueurs arrivent.",
    "msg.rate": "Trop d'actions d'un coup : doucement.",
    "msg.hint_rate": "Les conseils sont comptés : redemandez dans {s} s.",
    "msg.busy": "Le serveur a beaucoup de conseils à calculer : redemandez dans quelques secondes.",
    "msg.malformed": "Le serveur n'a pas compris.",
    "msg.too_large": "Message trop long.",
    "msg.illegal": "Interdit : {reason}",
    "msg.error": "Erreur : {reason}",
    "msg.joined": "Vous êtes à la table.",
    "cf.title": "Coup fourré !",
    "cf.text": "{attacker} a joué {hazard} sur {side}. Vous avez {safety} : la poser en coup fourré ?",
    "cf.yes": "Coup fourré !",
    "cf.no": "Laisser passer",
    "cf.seconds": "{s} s",
    "ext.title": "Rallonge",
    "ext.text": "Vous avez atteint {target}. Rallonger le voyage à {full}, ou finir la manche maintenant ?",
    "ext.yes": "Rallonger à {full}",
    "ext.no": "Finir la manche",
    "over.title": "Fin de la manche {n}",
    "over.item": "Poste",
    "over.total": "Points de la manche",
    "over.match": "Total de la partie",
    "over.close": "Continuer",
    "over.winners": "Manche gagnée par {names}",
    "match.title": "Partie terminée",
    "match.winners": "Vainqueur : {names}",
    "match.tie": "Égalité : {names}",
    "match.replay": "Revoir la partie",
    "match.home": "Retour à l'accueil",
    "item.distance": "Bornes",
    "item.safeties": "Bottes",
    "item.all_safeties": "Les quatre bottes",
    "item.coups_fourres": "Coups fourrés",
    "item.trip": "Voyage terminé",
    "item.delayed_action": "Action retardée",
    "item.safe_trip": "Voyage sans 200",
    "item.shutout": "Capot",
    "item.extension": "Rallonge",
    "item.hand_penalty": "Bornes restées en main",
    "ev.deal": "Manche {n} distribuée : course à {target}.",
    "ev.play_own": "{name} a joué {card}.",
    "ev.play_on": "{name} a joué {card} sur {side}.",
    "ev.safety": "{name} a joué {card} : il rejoue.",
    "ev.discard": "{name} a défaussé {card}.",
    "ev.take_discard": "{name} a pris {card} dans la défausse.",
    "ev.draw": "{name} a pioché.",
    "ev.coup_fourre": "Coup fourré ! {name} a posé {card} contre {hazard} de {attacker}.",
    "ev.pass": "{name} laisse passer le coup fourré.",
    "ev.extend": "{name} rallonge le voyage à {target}.",
    "ev.end_hand": "{name} met fin à la manche.",
    "ev.hand_over": "Fin de la manche {n} : {points}.",
    "ev.match_over": "Partie terminée : {names} gagne ({scores}).",
    "ev.points": "{name} {p}",
    "ev.nobody": "personne",
    "and": " et ",
    "replay.title": "Revoir",
    "replay.step": "Coup {step} sur {total}",
    "replay.start": "La donne",
    "replay.first": "Début",
    "replay.prev": "Précédent",
    "replay.next": "Suivant",
    "replay.last": "Fin",
    "replay.keys": "Les flèches avancent ou reculent d'un coup ; Début et Fin sautent.",
    "replay.not_found": "Cette partie n'est pas finie, ou n'existe pas.",
    "replay.hand_of": "Main de {name}",
    "replay.this_move": "Ce coup",
    "ed.players": "{n} joueurs",
    "group.distance": "Bornes", "group.hazard": "Attaque", "group.remedy": "Parade", "group.safety": "Botte",
    "action.draw": "Piocher",
    "action.take-discard": "Prendre {card} dans la défausse",
    "action.coup-fourre": "Coup fourré",
    "action.pass": "Laisser passer",
    "action.extend": "Rallonger",
    "action.end-hand": "Finir la manche",
    "action.play": "Jouer {card}",
    "action.play_on": "Jouer {card} sur {side}",
    "action.discard": "Défausser {card}",
    "status.waiting": "en attente", "status.playing": "en cours", "status.finished": "finie", "status.broken": "arrêtée",
  },
};

// The card names of RULES.md; replaced by GET /api/cards when it answers (the server is the reference).
const CARDS_FALLBACK = [
  ["25", "distance", "25 miles", "25 bornes", 25], ["50", "distance", "50 miles", "50 bornes", 50],
  ["75", "distance", "75 miles", "75 bornes", 75], ["100", "distance", "100 miles", "100 bornes", 100],
  ["200", "distance", "200 miles", "200 bornes", 200],
  ["stop", "hazard", "Stop", "Feu rouge", 0], ["speed-limit", "hazard", "Speed Limit", "Limitation de vitesse", 0],
  ["out-of-gas", "hazard", "Out of Gas", "Panne d'essence", 0], ["flat-tire", "hazard", "Flat Tire", "Crevaison", 0],
  ["accident", "hazard", "Accident", "Accident", 0],
  ["roll", "remedy", "Roll", "Feu vert", 0], ["end-of-limit", "remedy", "End of Limit", "Fin de limitation", 0],
  ["gasoline", "remedy", "Gasoline", "Essence", 0], ["spare-tire", "remedy", "Spare Tire", "Roue de secours", 0],
  ["repairs", "remedy", "Repairs", "Réparations", 0],
  ["right-of-way", "safety", "Right of Way", "Véhicule prioritaire", 0],
  ["extra-tank", "safety", "Extra Tank", "Citerne d'essence", 0],
  ["puncture-proof", "safety", "Puncture-Proof", "Increvable", 0],
  ["driving-ace", "safety", "Driving Ace", "As du volant", 0],
];

export const CARDS = {};
for (const [id, group, en, fr, value] of CARDS_FALLBACK) CARDS[id] = { id, group, en, fr, value };
export const CARD_ORDER = CARDS_FALLBACK.map((c) => c[0]);

export const SAFETY_OF = {
  stop: "right-of-way", "speed-limit": "right-of-way", "out-of-gas": "extra-tank",
  "flat-tire": "puncture-proof", accident: "driving-ace",
};

let cardsLoaded = null;
export function loadCards() {
  if (!cardsLoaded) {
    cardsLoaded = getJSON("/api/cards").then((data) => {
      for (const c of data.cards || []) {
        if (typeof c.id === "string") CARDS[c.id] = { ...CARDS[c.id], ...c };
      }
    }).catch(() => {});
  }
  return cardsLoaded;
}

// ------------------------------------------------------------------ language
const LANG_KEY = "millebornes.lang";
const listeners = [];

export function getLang() {
  let lang = null;
  try { lang = localStorage.getItem(LANG_KEY); } catch (e) { /* storage off */ }
  if (lang === "en" || lang === "fr") return lang;
  return (navigator.language || "en").toLowerCase().startsWith("fr") ? "fr" : "en";
}

export function setLang(lang) {
  if (lang !== "en" && lang !== "fr") return;
  try { localStorage.setItem(LANG_KEY, lang); } catch (e) { /* storage off */ }
  document.documentElement.lang = lang;
  applyStatic();
  for (const fn of listeners) fn(lang);
}

export function onLangChange(fn) { listeners.push(fn); }

export function t(key, params = {}) {
  const table = STRINGS[getLang()] || STRINGS.en;
  let s = table[key] ?? STRINGS.en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

// A player's own name: shown in a <bdi>, so that a name written right to left (or made to look so)
// cannot reorder the sentence around it. As a string it is just the name.
export class Name {
  constructor(text) { this.text = text; }
  toString() { return this.text; }
}

// Names joined with words between them ("Ann and Bob"), kept apart so that each name keeps its <bdi>.
export class Names {
  constructor(items) { this.items = items; }
  toString() { return this.items.map(String).join(""); }
}

export function nodesOf(value) {
  if (value instanceof Node) return [value];
  if (value instanceof Name) return [el("bdi", {}, value.text)];
  if (value instanceof Names) return value.items.flatMap(nodesOf);
  if (Array.isArray(value)) return value.flatMap(nodesOf);
  return [String(value)];
}

// t() as nodes for the page: every player's name in the message stands in its own <bdi>.
export function tn(key, params = {}) {
  const s = t(key, Object.fromEntries(Object.keys(params).map((k) => [k, `\u0000${k}\u0000`])));
  return s.split(/\u0000(\w+)\u0000/).flatMap((part, i) => (i % 2 ? nodesOf(params[part]) : part ? [part] : []));
}

// Every element with data-i18n="key" gets t(key) as its text (data-i18n-attr="placeholder" for an attribute).
export function applyStatic(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    const attr = node.getAttribute("data-i18n-attr");
    if (attr) node.setAttribute(attr, t(node.getAttribute("data-i18n")));
    else node.textContent = t(node.getAttribute("data-i18n"));
  }
  document.title = t(document.body?.dataset.titleKey || "app.title");
}

// Wire a <select id="lang"> to the language setting.
export function setupLangSelect(select) {
  const lang = getLang();
  document.documentElement.lang = lang;
  select.replaceChildren(el("option", { value: "en" }, "English"), el("option", { value: "fr" }, "Français"));
  select.value = lang;
  select.addEventListener("change", () => setLang(select.value));
  applyStatic();
}

export function cardName(id, lang = getLang()) {
  const c = CARDS[id];
  if (!c) return String(id);
  return (lang === "fr" ? c.fr : c.en) || c.en || String(id);
}

export function formatNumber(n) {
  return new Intl.NumberFormat(getLang() === "fr" ? "fr-FR" : "en-US").format(n);
}

export function percent(x) {
  return new Intl.NumberFormat(getLang() === "fr" ? "fr-FR" : "en-US",
    { style: "percent", maximumFractionDigits: 0 }).format(x);
}

export function joinNames(names) {
  if (names.length <= 1) return names[0] ?? t("ev.nobody");
  const items = [];
  names.forEach((n, i) => items.push(...(i === 0 ? [] : [i === names.length - 1 ? t("and") : ", "]), n));
  return new Names(items);
}

// ------------------------------------------------------------------ DOM helpers (text only)
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    if (child instanceof Name || child instanceof Names) node.append(...nodesOf(child));
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function $(sel, root = document) { return root.querySelector(sel); }
export function $$(sel, root = document) { return [...root.querySelectorAll(sel)]; }

// ------------------------------------------------------------------ fetch helpers
export async function getJSON(url) {
  const r = await fetch(url, { headers: { Accept: "application/json" } });
  if (!r.ok) throw new HttpError(r.status, await errorText(r));
  return r.json();
}

export async function postJSON(url, body) {
  const r = await fetch(url, {
    method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new HttpError(r.status, await errorText(r));
  return r.json();
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

// ------------------------------------------------------------------ seats, sides, events in words
// A naming context: {seats: [{seat, kind, level, nickname}], sides: [[seat...]]}.
export function seatName(ctx, seat) {
  const s = ctx.seats?.find((x) => x.seat === seat);
  if (s && s.kind === "bot") return t("bot.name", { n: seat, level: t(`level.${s.level}`) });
  if (s && s.nickname) return new Name(s.nickname);
  return t("seat.name", { n: seat });
}

export function sideName(ctx, side) {
  const seats = ctx.sides?.[side] ?? [side];
  return joinNames(seats.map((s) => seatName(ctx, s)));
}

const SIDE_OF_SEAT = (ctx, seat) => {
  const i = (ctx.sides || []).findIndex((list) => list.includes(seat));
  return i < 0 ? seat : i;
};

// One public event in words, or null for events that stay out of the log (automatic draws).
export function describeEvent(ev, ctx) {
  const name = (seat) => seatName(ctx, seat);
  switch (ev.type) {
    case "deal":
      return tn("ev.deal", { n: ev.hand + 1, target: ev.target });
    case "play": {
      const group = CARDS[ev.card]?.group;
      if (group === "hazard" && ev.side !== SIDE_OF_SEAT(ctx, ev.seat)) {
        return tn("ev.play_on", { name: name(ev.seat), card: cardName(ev.card), side: sideName(ctx, ev.side) });
      }
      if (group === "safety") return tn("ev.safety", { name: name(ev.seat), card: cardName(ev.card) });
      return tn("ev.play_own", { name: name(ev.seat), card: cardName(ev.card) });
    }
    case "discard":
      return tn("ev.discard", { name: name(ev.seat), card: cardName(ev.card) });
    case "take-discard":
      return tn("ev.take_discard", { name: name(ev.seat), card: cardName(ev.card) });
    case "coup-fourre":
      return tn("ev.coup_fourre", {
        name: name(ev.seat), card: cardName(ev.card), hazard: cardName(ev.hazard), attacker: name(ev.attacker),
      });
    case "extend":
      return tn("ev.extend", { name: name(ev.seat), target: ev.target });
    case "end-hand":
      return tn("ev.end_hand", { name: name(ev.seat) });
    case "hand-over": {
      const pts = (ev.points || []).map((p, s) => [...(s ? [", "] : []), ...tn("ev.points", { name: sideName(ctx, s), p: formatNumber(p) })]);
      return tn("ev.hand_over", { n: ev.hand + 1, points: pts });
    }
    case "match-over": {
      const scores = (ev.scores || []).map((p) => formatNumber(p)).join(" – ");
      return tn("ev.match_over", { names: joinNames((ev.winners || []).map((s) => sideName(ctx, s))), scores });
    }
    case "action":
      if (ev.action === "pass") return tn("ev.pass", { name: name(ev.seat) });
      return null;
    default:
      return null;
  }
}

// An action string of the engine's notation in words (nodes).
export function describeAction(action, ctx, obs) {
  const parts = String(action).split(" ");
  if (parts[0] === "play" && parts.length === 3) {
    return tn("action.play_on", { card: cardName(parts[1]), side: sideName(ctx, Number(parts[2])) });
  }
  if (parts[0] === "play") return tn("action.play", { card: cardName(parts[1]) });
  if (parts[0] === "discard") return tn("action.discard", { card: cardName(parts[1]) });
  if (parts[0] === "take-discard") {
    const top = obs?.discard_pile?.[obs.discard_pile.length - 1];
    return tn("action.take-discard", { card: top ? cardName(top) : "" });
  }
  return tn(`action.${parts[0]}`);
}

// The engine's English reason with every card id and English card name replaced by the card's name in
// the chosen language, and "seat N" / "side N" by the players' names.
export function translateReason(message, ctx) {
  let s = String(message ?? "");
  const lang = getLang();
  const words = [];
  for (const c of Object.values(CARDS)) {
    if (c.group !== "distance") {
      words.push([c.id, cardName(c.id, lang)]);
      if (c.en) words.push([c.en, cardName(c.id, lang)]);
    }
  }
  words.sort((a, b) => b[0].length - a[0].length);
  const marks = [];
  for (const [from, to] of words) {
    const re = new RegExp(`(?<![\\w-])${from.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-])`, "g");
    s = s.replace(re, () => { marks.push(to); return `\u0000${marks.length - 1}\u0000`; });
  }
  if (ctx) {
    s = s.replace(/\bseat (\d)\b/g, (m, n) => (ctx.seats?.some((x) => x.seat === Number(n)) ? seatName(ctx, Number(n)) : m));
    s = s.replace(/\bside (\d)\b/g, (m, n) => (Number(n) < (ctx.sides?.length ?? 0) ? sideName(ctx, Number(n)) : m));
  }
  return s.replace(/\u0000(\d+)\u0000/g, (m, i) => marks[Number(i)]);
}

export function errorMessage(frame, ctx) {
  const code = frame.code;
  if (code === "illegal") return t("msg.illegal", { reason: translateReason(frame.message, ctx) });
  const wait = code === "rate" && /ask again in ([0-9.]+) seconds/.exec(frame.message ?? "");
  if (wait) return t("msg.hint_rate", { s: wait[1] });
  const key = {
    auth: "msg.auth", "not-your-turn": "msg.not_your_turn", stale: "msg.stale", finished: "msg.finished",
    waiting: "msg.waiting", broken: "msg.broken", rate: "msg.rate", malformed: "msg.malformed",
    "too-large": "msg.too_large", busy: "msg.busy",
  }[code];
  if (key) return t(key);
  return t("msg.error", { reason: translateReason(frame.message || code, ctx) });
}

export function itemName(item) {
  return t(`item.${item}`);
}

export function formatDate(iso) {
  if (!iso) return "";
  const d = new Date(typeof iso === "number" ? iso * 1000 : iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return d.toLocaleString(getLang() === "fr" ? "fr-FR" : "en-GB", { dateStyle: "medium", timeStyle: "short" });
}
