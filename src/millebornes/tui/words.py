"""Everything the terminal app says, in English or French: card labels, names of seats and sides,
the log of events, the engine's reasons for a refused move, score breakdowns.

Kept apart from the widgets so that it can be tested without a terminal.

>>> card_label("right-of-way", "fr"), card_label("75")
('Véhicule prioritaire', '75 miles')
>>> Words("fr", players=2, teams=False, viewer=0).reason("you need a Roll first: your battle pile shows nothing")
"Il vous faut d'abord un Feu vert : votre pile de bataille ne montre rien"
"""

from __future__ import annotations

import re
from collections import Counter

from ..cards import CARD_IDS, GROUP, NAMES_EN, NAMES_FR, card_name

LANGS = ("en", "fr")


def card_label(card: str, lang: str = "en") -> str:
    """The printed name of a card (the names of RULES.md): '25 miles', 'Feu vert'..."""
    return card_name(card, "fr" if lang == "fr" else "en")


# One-line summaries: how an edition differs from the others.
EDITION_SUMMARY = {
    "en": {
        "classic": "Hazards stack, take the last discard, anyone may coup fourré; 700 (+extension)",
        "parker": "Printed US rules: no hazard on a hazard, no discard pickup; points to 5000",
        "dujardin": "French 1954 leaflet: one race to exactly 1000, only distance counts",
        "family": "French family rules: one race to 1000 with a simple points count",
    },
    "fr": {
        "classic": "Attaques empilées, défausse reprise, coup fourré par tous ; 700 (+allonge)",
        "parker": "Règle US imprimée : pas d'attaque sur attaque ni reprise ; 5000 points",
        "dujardin": "Dépliant Dujardin 1954 : une course à 1000 pile, seules les bornes comptent",
        "family": "Règle familiale : une course à 1000 avec un compte de points simple",
    },
}

MESSAGES = {
    "en": {
        "seat": "Seat {n}", "team": "Team {n}", "you": "you", "your_team": "your team",
        "bot": "{level} bot", "human": "human",
        "pts": "{n} pts", "battle": "Battle", "speed": "Speed", "safeties": "Safeties", "none": "—",
        "hand_of": "Hand of {who}", "hidden": "(hidden: the keyboard is being passed)",
        "status": "{edition} · hand {hand} · race to {target} · stock {stock} · discard: {discard}",
        "empty": "empty",
        "your_play": "Your turn: choose a card with 1-{n}   h hint",
        "your_draw": "Your turn: s draw from the stock, t take {card} from the discard pile",
        "chosen_own": "{card}: p play it, d discard it   (Esc: back)",
        "chosen_hazard": "{card}: {targets}, d discard it   (Esc: back)",
        "target_key": "{key} on {name}",
        "thinking": "{who} is thinking…",
        "wait": "Wait: it is {who}'s turn",
        "match_over": "The match is over. q quits.",
        "not_hazard_side": "{card} is played on your own side: press p (or d to discard)",
        "hazard_own": "{card} is played on an opponent: press a side number ({keys})",
        "no_such_card": "There is no card {n} in your hand",
        "choose_first": "Choose a card first (1-{n})",
        "draw_first": "First draw: s from the stock, t takes {card} from the discard pile",
        "hint_running": "Thinking about a hint…",
        "hint": "Hint: {items}",
        "hint_none": "No decision of yours to analyse now",
        "win": "win {p}%",
        "no_side": "There is no side {n}",
        "pass_title": "Pass the keyboard to {who}",
        "pass_body": "{who}, press Enter when the others cannot see the screen.",
        "cf_title": "Coup fourré?",
        "cf_body": "{attacker} played {hazard} on {target}. You hold {safety}: "
                   "lay it as a coup fourré?",
        "cf_keys": "y coup fourré · n pass",
        "ext_title": "Extension?",
        "ext_body": "You reached {short}. Extend the trip to {long} (bonus if you make it) "
                    "or end the hand now?",
        "ext_keys": "y extend to {long} · n end the hand",
        "hand_over_title": "Hand {n} is over",
        "match_over_title": "The match is over",
        "item": "", "hand_total": "Hand total", "match_total": "Match total",
        "completed": "{who} completed the trip.", "completed_you": "You completed the trip.",
        "no_completion": "Nobody completed the trip.",
        "winners": "{names} {verb}", "wins": "wins", "win_plural": "win", "win_you": "win",
        "continue": "Enter: continue", "quit_hint": "Enter: back to the table · q: save and quit",
        "saved": "Game saved to {path}",
        # log
        "ev_play": "{who} played {card}", "ev_play_you": "You played {card}",
        "ev_safety": "{who} played {card} (a safety: another turn)",
        "ev_safety_you": "You played {card} (a safety: another turn)",
        "ev_attack": "{who} played {card} on {target}", "ev_attack_you": "You played {card} on {target}",
        "ev_discard": "{who} discarded {card}", "ev_discard_you": "You discarded {card}",
        "ev_take": "{who} took {card} from the discard pile",
        "ev_take_you": "You took {card} from the discard pile",
        "ev_drew_you": "You drew {cards}",
        "ev_cf": "Coup fourré! {who} laid {card} against {hazard}",
        "ev_cf_you": "Coup fourré! You laid {card} against {hazard}",
        "ev_extend": "{who} extends the trip to {target}", "ev_extend_you": "You extend the trip to {target}",
        "ev_end": "{who} ends the hand", "ev_end_you": "You end the hand",
        "ev_deal": "Hand {n} dealt: {who} starts, race to {target}",
        "ev_deal_you": "Hand {n} dealt: you start, race to {target}",
        "ev_hand_over": "Hand {n} is over: {result}",
        "ev_match_over": "The match is over: {result}",
        "points_list": "{name} {pts}",
        "and": " and ",
        # setup
        "setup_title": "Mille Bornes: a new match",
        "setup_help": "↑↓ choose a line · ←→ change it · Enter start · q quit",
        "edition": "Edition", "players": "Players", "teams": "Teams", "yes": "yes", "no": "no",
        "seat_kind": "Seat {n}",
        # replay
        "replay_status": "Replay · step {i}/{n} · {edition} · hand {hand} · stock {stock} · discard: {discard}",
        "replay_keys": "→/space next · ← back · PgUp/PgDn ±10 · Home/End · q quit",
        "replay_start": "The deal: nothing played yet",
        "replay_back": "Back to step {i}: {action}",
        "hands": "Hands",
    },
    "fr": {
        "seat": "Joueur {n}", "team": "Équipe {n}", "you": "vous", "your_team": "votre équipe",
        "bot": "robot {level}", "human": "humain",
        "pts": "{n} pts", "battle": "Bataille", "speed": "Vitesse", "safeties": "Bottes", "none": "—",
        "hand_of": "Main de {who}", "hidden": "(cachée : on passe le clavier)",
        "status": "{edition} · manche {hand} · course à {target} · pioche {stock} · défausse : {discard}",
        "empty": "vide",
        "your_play": "À vous : choisissez une carte avec 1-{n}   h conseil",
        "your_draw": "À vous : s piocher, t prendre {card} dans la défausse",
        "chosen_own": "{card} : p la jouer, d la défausser   (Échap : retour)",
        "chosen_hazard": "{card} : {targets}, d la défausser   (Échap : retour)",
        "target_key": "{key} sur {name}",
        "thinking": "{who} réfléchit…",
        "wait": "Patience : c'est au tour de {who}",
        "match_over": "La partie est finie. q pour quitter.",
        "not_hazard_side": "{card} se joue sur votre propre jeu : p (ou d pour la défausser)",
        "hazard_own": "{card} se joue sur un adversaire : tapez son numéro ({keys})",
        "no_such_card": "Vous n'avez pas de carte {n}",
        "choose_first": "Choisissez d'abord une carte (1-{n})",
        "draw_first": "Piochez d'abord : s dans la pioche, t prend {card} dans la défausse",
        "hint_running": "Je cherche un conseil…",
        "hint": "Conseil : {items}",
        "hint_none": "Rien à analyser : ce n'est pas à vous de décider",
        "win": "gagne {p} %",
        "no_side": "Il n'y a pas de joueur {n}",
        "pass_title": "Passez le clavier à {who}",
        "pass_body": "{who}, tapez Entrée quand les autres ne voient plus l'écran.",
        "cf_title": "Coup fourré ?",
        "cf_body": "{attacker} a joué {hazard} sur {target}. Vous avez {safety} : "
                   "la poser en coup fourré ?",
        "cf_keys": "y coup fourré · n passer",
        "ext_title": "Allonge ?",
        "ext_body": "Vous avez atteint {short}. Allonger jusqu'à {long} (prime si vous y arrivez) "
                    "ou arrêter la manche ?",
        "ext_keys": "y allonger à {long} · n arrêter la manche",
        "hand_over_title": "Manche {n} terminée",
        "match_over_title": "La partie est terminée",
        "item": "", "hand_total": "Total de la manche", "match_total": "Total de la partie",
        "completed": "{who} a terminé le voyage.", "completed_you": "Vous avez terminé le voyage.",
        "no_completion": "Personne n'a terminé le voyage.",
        "winners": "{names} {verb}", "wins": "gagne", "win_plural": "gagnent", "win_you": "gagnez",
        "continue": "Entrée : continuer", "quit_hint": "Entrée : retour au jeu · q : enregistrer et quitter",
        "saved": "Partie enregistrée dans {path}",
        "ev_play": "{who} a joué {card}", "ev_play_you": "Vous avez joué {card}",
        "ev_safety": "{who} a joué {card} (une botte : il rejoue)",
        "ev_safety_you": "Vous avez joué {card} (une botte : vous rejouez)",
        "ev_attack": "{who} a joué {card} sur {target}", "ev_attack_you": "Vous avez joué {card} sur {target}",
        "ev_discard": "{who} a défaussé {card}", "ev_discard_you": "Vous avez défaussé {card}",
        "ev_take": "{who} a pris {card} dans la défausse",
        "ev_take_you": "Vous avez pris {card} dans la défausse",
        "ev_drew_you": "Vous avez pioché {cards}",
        "ev_cf": "Coup fourré ! {who} pose {card} contre {hazard}",
        "ev_cf_you": "Coup fourré ! Vous posez {card} contre {hazard}",
        "ev_extend": "{who} allonge jusqu'à {target}", "ev_extend_you": "Vous allongez jusqu'à {target}",
        "ev_end": "{who} arrête la manche", "ev_end_you": "Vous arrêtez la manche",
        "ev_deal": "Manche {n} distribuée : {who} commence, course à {target}",
        "ev_deal_you": "Manche {n} distribuée : vous commencez, course à {target}",
        "ev_hand_over": "Manche {n} terminée : {result}",
        "ev_match_over": "La partie est terminée : {result}",
        "points_list": "{name} {pts}",
        "and": " et ",
        "setup_title": "Mille Bornes : une nouvelle partie",
        "setup_help": "↑↓ choisir une ligne · ←→ la changer · Entrée commencer · q quitter",
        "edition": "Édition", "players": "Joueurs", "teams": "Équipes", "yes": "oui", "no": "non",
        "seat_kind": "Joueur {n}",
        "replay_status": "Relecture · coup {i}/{n} · {edition} · manche {hand} · pioche {stock} · "
                         "défausse : {discard}",
        "replay_keys": "→/espace suivant · ← retour · PgUp/PgDn ±10 · Début/Fin · q quitter",
        "replay_start": "La donne : rien n'est encore joué",
        "replay_back": "Retour au coup {i} : {action}",
        "hands": "Mains",
    },
}

BREAKDOWN_ITEMS = {
    "en": {
        "distance": "Distance", "safeties": "Safeties", "all_safeties": "All four safeties",
        "coups_fourres": "Coups fourrés", "trip": "Trip completed", "delayed_action": "Delayed action",
        "safe_trip": "Safe trip (no 200)", "shutout": "Shutout", "extension": "Extension",
        "hand_penalty": "Distance left in hand",
    },
    "fr": {
        "distance": "Distance", "safeties": "Bottes", "all_safeties": "Les quatre bottes",
        "coups_fourres": "Coups fourrés", "trip": "Voyage terminé", "delayed_action": "Pioche épuisée",
        "safe_trip": "Sans 200", "shutout": "Capot", "extension": "Allonge",
        "hand_penalty": "Bornes restées en main",
    },
}

LEVEL_NAMES = {
    "en": {"easy": "easy", "medium": "medium", "hard": "hard", "expert": "expert"},
    "fr": {"easy": "facile", "medium": "moyen", "hard": "fort", "expert": "expert"},
}

# The engine's reasons for a refused action, in French.  Applied after seat and side numbers have
# become names; English card names are replaced by French ones afterwards.
_REASONS_FR = [
    (r"you need a Roll first: your battle pile shows nothing",
     "il vous faut d'abord un Feu vert : votre pile de bataille ne montre rien"),
    (r"you need a Roll first: your battle pile shows (.+)",
     r"il vous faut d'abord un Feu vert : votre pile de bataille montre \1"),
    (r"you are stopped: your battle pile shows (.+); you need (.+) first",
     r"vous êtes arrêté : votre pile de bataille montre \1 ; il vous faut d'abord \2"),
    (r"you are under a Speed Limit: only 25 and 50 may be played",
     "vous êtes sous Limitation de vitesse : seules les bornes 25 et 50 sont permises"),
    (r"a side may play at most two 200s in a hand", "on ne peut poser que deux 200 par manche"),
    (r"(\d+) would take you past the target: (\d+) \+ \d+ > (\d+) \(distance may never pass the target\)",
     r"\1 vous ferait dépasser le but : \2 + \1 > \3 (on ne dépasse jamais le but)"),
    (r"your battle pile already shows a Roll", "votre pile de bataille montre déjà un Feu vert"),
    (r"your battle pile shows (.+): you need (.+), not a Roll",
     r"votre pile de bataille montre \1 : il vous faut \2, pas un Feu vert"),
    (r"you are not under a Speed Limit", "vous n'êtes pas sous Limitation de vitesse"),
    (r"(.+) cures (.+), but your battle pile shows (.+)",
     r"\1 répare \2, mais votre pile de bataille montre \3"),
    (r"(.+) is played on an opponent, not on your own side",
     r"\1 se joue sur un adversaire, pas sur votre propre jeu"),
    (r"(.+) has (.+) in play: (.+) cannot hurt it", r"\1 a posé \2 : \3 ne peut pas l'atteindre"),
    (r"(.+) already shows a Speed Limit", r"\1 a déjà une Limitation de vitesse"),
    (r"(.+) has not started: its battle pile is empty",
     r"\1 n'est pas parti : sa pile de bataille est vide"),
    (r"(.+) is not moving \(its battle pile shows (.+)\): a hazard only hits a moving car",
     r"\1 est arrêté (sa pile de bataille montre \2) : une attaque ne vise qu'une voiture qui roule"),
    (r"'(draw|take-discard)' is not possible now: the card for this turn is already drawn",
     "la carte de ce tour est déjà piochée"),
    (r"(.+) has no (.+) in hand", r"\1 n'a pas de \2 en main"),
    (r"the match is over", "la partie est terminée"),
]
_EN_TO_FR = sorted(zip(NAMES_EN, NAMES_FR), key=lambda p: -len(p[0]))


class Words:
    """The sentences of one table, seen by one viewer seat, in one language."""

    def __init__(self, lang: str, players: int, teams: bool, viewer: int | None,
                 kinds: list[str] | None = None):
        self.lang = "fr" if lang == "fr" else "en"
        self.m = MESSAGES[self.lang]
        self.players = players
        self.teams = teams
        self.nsides = players // 2 if teams else players
        self.viewer = viewer
        self.kinds = kinds

    def t(self, message: str, /, **kw) -> str:
        return self.m[message].format(**kw)

    def card(self, card: str) -> str:
        return card_label(card, self.lang)

    # -- names --------------------------------------------------------------------------
    def seat(self, seat: int) -> str:
        """'Seat 2' (seats are numbered from 1 for people)."""
        return self.t("seat", n=seat + 1)

    def who(self, seat: int) -> str:
        return self.t("you") if seat == self.viewer else self.seat(seat)

    def side(self, side: int) -> str:
        """A side as a target or a winner: 'you', 'Seat 2', 'Team 1'."""
        if self.viewer is not None and side == self.viewer % self.nsides:
            return self.t("your_team" if self.teams else "you")
        return self.side_title(side)

    def side_title(self, side: int) -> str:
        if not self.teams:
            return self.seat(side)
        seats = "+".join(str(s + 1) for s in range(side, self.players, self.nsides))
        return f"{self.t('team', n=side + 1)} ({seats})"

    def kind(self, seat: int) -> str:
        if not self.kinds:
            return ""
        k = self.kinds[seat]
        if k == "human":
            return self.t("human")
        return self.t("bot", level=LEVEL_NAMES[self.lang].get(k, k))

    def names_list(self, names: list[str]) -> str:
        if len(names) <= 1:
            return "".join(names)
        return ", ".join(names[:-1]) + self.m["and"] + names[-1]

    # -- actions and events -------------------------------------------------------------
    def action(self, action: str) -> str:
        """An action string in words: 'play flat-tire 1' -> 'Flat Tire on Seat 2'."""
        words = action.split()
        if words[0] == "play":
            card = self.card(words[1])
            return f"{card} → {self.side(int(words[2]))}" if len(words) == 3 else card
        if words[0] == "discard":
            return ("défausser " if self.lang == "fr" else "discard ") + self.card(words[1])
        fixed = {
            "en": {"draw": "draw", "take-discard": "take the discard", "coup-fourre": "coup fourré",
                   "pass": "pass", "extend": "extend", "end-hand": "end the hand"},
            "fr": {"draw": "piocher", "take-discard": "prendre la défausse", "coup-fourre": "coup fourré",
                   "pass": "passer", "extend": "allonger", "end-hand": "arrêter la manche"},
        }[self.lang]
        return fixed.get(action, action)

    def _ev(self, key: str, seat: int, **kw) -> str:
        if seat == self.viewer:
            return self.t(key + "_you", **kw)
        return self.t(key, who=self.seat(seat), **kw)

    def event(self, ev: dict) -> str | None:
        """One public event in words, or None for events not worth a log line (other seats' draws)."""
        kind = ev["type"]
        if kind == "play":
            card = ev["card"]
            if GROUP[CARD_IDS.index(card)] == "hazard":
                return self._ev("ev_attack", ev["seat"], card=self.card(card), target=self.side(ev["side"]))
            key = "ev_safety" if GROUP[CARD_IDS.index(card)] == "safety" else "ev_play"
            return self._ev(key, ev["seat"], card=self.card(card))
        if kind == "discard":
            return self._ev("ev_discard", ev["seat"], card=self.card(ev["card"]))
        if kind == "take-discard":
            return self._ev("ev_take", ev["seat"], card=self.card(ev["card"]))
        if kind == "coup-fourre":
            return self._ev("ev_cf", ev["seat"], card=self.card(ev["card"]), hazard=self.card(ev["hazard"]))
        if kind == "extend":
            return self._ev("ev_extend", ev["seat"], target=ev["target"])
        if kind == "end-hand":
            return self._ev("ev_end", ev["seat"])
        if kind == "deal":
            return self._ev("ev_deal", ev["first"], n=ev["hand"] + 1, target=ev["target"])
        if kind == "hand-over":
            return self.t("ev_hand_over", n=ev["hand"] + 1, result=self.result(ev["winners"], ev["points"]))
        if kind == "match-over":
            return self.t("ev_match_over", result=self.result(ev["winners"], ev["scores"]))
        return None

    def result(self, winners: list[int], points: list[int]) -> str:
        names = [self.side(s) for s in winners]
        mine = self.viewer is not None and self.viewer % self.nsides in winners and not self.teams
        verb = self.m["win_you"] if mine else self.m["wins"] if len(names) == 1 else self.m["win_plural"]
        head = self.t("winners", names=self.names_list(names), verb=verb)
        head = head[0].upper() + head[1:]
        pts = ", ".join(self.t("points_list", name=self.side_title(s), pts=p) for s, p in enumerate(points))
        return f"{head} ({pts})"

    def drew(self, before: list[str], after: list[str], events: list[dict]) -> str | None:
        """'You drew 75 miles': the viewer's new cards, from its own hand before and after."""
        if self.viewer is None or any(e["type"] == "deal" for e in events):
            return None
        if not any(e["type"] == "draw" and e["seat"] == self.viewer for e in events):
            return None
        gone = Counter()
        came = Counter()
        for e in events:
            if e.get("seat") != self.viewer:
                continue
            if e["type"] in ("play", "discard"):
                gone[e["card"]] += 1
            elif e["type"] == "coup-fourre":
                gone[e["card"]] += 1
            elif e["type"] == "take-discard":
                came[e["card"]] += 1
        new = Counter(after) - (Counter(before) - gone + came)
        cards = [self.card(c) for c in CARD_IDS for _ in range(new[c])]
        return self.t("ev_drew_you", cards=self.names_list(cards)) if cards else None

    # -- refused actions ---------------------------------------------------------------
    def reason(self, text: str) -> str:
        """The engine's reason for refusing an action, with people's names, in this language."""
        text = re.sub(r"\bside (\d+)", lambda m: self.side_title(int(m.group(1))), text)
        text = re.sub(r"\bseat (\d+)", lambda m: self.who(int(m.group(1))), text)
        if self.lang == "fr":
            for pattern, repl in _REASONS_FR:
                new, n = re.subn(f"^{pattern}$", repl, text)
                if n:
                    text = new
                    break
            for en, fr in _EN_TO_FR:
                text = re.sub(rf"\b{re.escape(en)}\b", fr, text)
            text = text.replace("vous n'a pas", "vous n'avez pas")
        else:
            text = text.replace("you has no", "you have no")
        return text[:1].upper() + text[1:]

    # -- scores --------------------------------------------------------------------------
    def item(self, key: str) -> str:
        return BREAKDOWN_ITEMS[self.lang].get(key, key.replace("_", " "))

    def edition_summary(self, name: str) -> str:
        return EDITION_SUMMARY[self.lang].get(name, "")
