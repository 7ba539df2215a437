"""The French catalog (src/millebornes/i18n/fr.po) follows French typography and usage, checked message by message.

- A no-break space (U+00A0) before ":" and inside « »; a narrow no-break space (U+202F) before ";", "!" and "?";
  a no-break space between a number and its unit ("{s} s", "{n} cartes") and before "%".
- French quotes « » and apostrophes ’ (no straight " or ', the card names too: those of docs/rules.md §1, as the
  engine writes them in millebornes.cards.NAMES_FR, which the terminal's test compares), "…" rather than "...", no
  space before "," or ".", no double space, numbers of five digits or more grouped (the pages format the numbers
  they fill in).
- A count is a plural entry: "{n} joueur" / "{n} joueurs", never one text for every n.
- No assumed gender: no "il" / "elle" standing for a player, no adjective that agrees with one gender only.
- "{names}" (one player or several) is never the subject of a verb, which would have to agree.
- A player's name never follows "de", "que", "le" or "la" ("de Ann" must be "d’Ann": the sentence is turned
  another way).
- One vocabulary: the card names of docs/rules.md §1 (millebornes.cards.NAMES_FR), "Allonge" for the extension
  (the word the terminal game used; neither the rules nor their French sources name it), "bornes" for distance; and no
  English word left.

Pure Python: no browser. A new message (the refusal reasons, the terminal's words...) is checked the same way.
"""

from __future__ import annotations

import re

import pytest

from millebornes import cards as C
from millebornes.i18n import catalog, placeholders

NBSP, NNBSP = "\u00a0", "\u202f"
FR = catalog("fr")
EN = catalog("en")


def texts(cat) -> list[tuple[str, str]]:
    """(key, text) for every message and every plural form."""
    out = list(cat.messages.items())
    for key, forms in cat.plurals.items():
        out += [(f"{key}[{i}]", form) for i, form in enumerate(forms)]
    return sorted(out)


FR_TEXTS = texts(FR)
# words after a count that make it a plural entry
COUNTED = r"(?:cartes?|joueurs?|joueuses?|coups?|bornes?|points?|places?|secondes?|minutes?|manches?|parties|partie|tables?|conseils?|robots?|fois|tours?|km)"
UNITS = r"(?:s|min|km|ms|%|cartes?|joueurs?|coups?|bornes?|points?|places?|secondes?|minutes?|manches?|tours?)"
# "il" as a player (not the impersonal "il y a", "il faut", "il reste"), and words that agree with one gender
GENDERED = (
    r"(?:il(?![ \u00a0](?:n’)?y[ \u00a0]a|[ \u00a0](?:vous[ \u00a0]|nous[ \u00a0]|lui[ \u00a0]|leur[ \u00a0])?(?:faut|reste|manque))"
    r"|elle|ils|elles|celui|celle|lui-même|elle-même|gagnant|gagnante|perdant|perdante|connecté|connectée"
    r"|prêt|prête|invité|invitée|assis|assise|vainqueur|vainqueurs|joueuse)"
)
# placeholders that stand for a player or a side (a name that may begin with a vowel)
PEOPLE = r"(?:name|names|who|attacker|side|player|winner|winners|nick|nickname)"
# placeholders that are always a large number (a target distance): no plural entry needed
LARGE = {"target", "full", "short", "long", "goal"}
ENGLISH = r"(?:the|and|you|your|with|from|of|to|is|are|it|this|that|seat|seats|hand|hands|card|cards|played|play|discard|draw|drew|hint|hints|miles|move|moves|next|previous|first|last|copy|link|winner|won|turn|waiting|over|back|home|join|nickname|game|games|player|players|team|teams|replay|deal|bot|yes|no|let|go|end|extend|trip|safety|safeties|hazard|remedy|win|need|roll|flat|tire|speed|limit|gas|gasoline|spare|repairs|right|way|extra|tank|puncture|proof|driving|ace|take|pass|empty|nobody|choose|click|press|key|keys|not|only|can|cannot|must|already|when|side|sides|shows|nothing|allowed|wait|please|error|server|again)"
PROPER = ("Parker Brothers", "Winning Moves", "Mille Bornes", "Dujardin")


def plain(text: str) -> str:
    """The text without its {placeholders} and proper names."""
    text = re.sub(r"\{[^{}]*\}", " ", text)
    for name in PROPER:
        text = text.replace(name, " ")
    return text


def faults(key: str, text: str) -> list[str]:
    found = []

    def bad(what, pattern, where=text, flags=0):
        for m in re.finditer(pattern, where, flags):
            found.append(f"{what}: …{where[max(0, m.start() - 15) : m.end() + 15]!r}…")

    prose = re.sub(r"\{[^{}]*\}|https?://\S+", "X", text)  # a placeholder's format and an address keep their : and '
    bad("a no-break space (U+00A0) goes before ':'", r"(?<!\u00a0):", prose)
    bad("a narrow no-break space (U+202F) goes before ';', '!' and '?'", r"(?<![\u202f!?]);|(?<![\u202f!?])[!?]", prose)
    bad("« is followed by a no-break space", r"«(?!\u00a0)")
    bad("» follows a no-break space", r"(?<!\u00a0)»")
    bad("French quotes « », not straight double quotes", r'"')
    bad("the apostrophe is ’ (U+2019)", r"'", prose)
    bad("… rather than three dots", r"\.\.\.")
    bad("no space before ',' or '.'", r"[ \u00a0\u202f][,.](?!\.)")
    if not key.startswith("tui."):  # the terminal's key lines lay out columns with spaces
        bad("no double space", r"  ")
    bad("no space at either end", r"^\s|\s$") if key not in ("and", "list.sep") else None  # joined between names
    bad("a no-break space between a number and its unit", r"(?:\d|\})[ ]" + UNITS + r"(?![\w’])")
    bad("a no-break space before %", r"(?<![\u00a0\u202f])%")
    bad(
        "group the digits of large numbers (1\u202f000)",
        r"(?<![\d\u202f])\d{5,}|(?<![\d\u202f–-])(?!19\d\d|20\d\d)\d{4}(?![\d–-])",
    )
    bad("no pronoun or adjective that assumes a gender", r"(?<![\w’-])" + GENDERED + r"(?![\w’-])", plain(text), re.I)
    bad("{names} may be several people: never the subject of a verb", r"\{names\}[ \u00a0]+[a-zà-ÿ]")
    bad("English left in French", r"(?<![\w’'-])" + ENGLISH + r"(?![\w’'-])", plain(text), re.I)
    bad(
        "no name after de, que, le or la (de Ann: d’Ann)",
        r"(?<![\w’-])(?:de|que|le|la)[ \u00a0]\{" + PEOPLE + r"\}",
        text,
        re.I,
    )
    bad("the extension is an Allonge", r"rallong", text, re.I)
    bad("distance is counted in bornes", r"\bmiles?\b|kilom", plain(text), re.I)
    return found


def test_every_french_message_follows_french_typography_and_usage():
    found = [f"{key}: {f}" for key, text in FR_TEXTS for f in faults(key, text)]
    assert not found, f"{len(found)} faults in fr.po:\n" + "\n".join(found)


def test_a_count_is_a_plural_entry():
    found = []
    for key, text in FR.messages.items():
        for name in placeholders(text) - LARGE:
            if re.search(rf"\{{{name}\}}[\u00a0 ]{COUNTED}(?![\w’])", text):
                found.append(f"{key}: {text!r} (a count of {{{name}}}: a plural entry)")
    for key, (one, *more) in FR.plurals.items():
        if re.search(r"\{n\}[\u00a0 ]\w+s(?![\w’])", one) and not re.search(r"\{n\}[\u00a0 ]fois", one):
            found.append(f"{key}: the singular form {one!r} reads as a plural")
        if not more:
            found.append(f"{key}: a plural entry needs its plural form")
    assert not found, "\n".join(found)


def test_card_names_are_those_of_the_rules():
    for k in range(C.NUM_KINDS):
        assert FR.t(f"card.{C.CARD_IDS[k]}") == C.NAMES_FR[k], C.CARD_IDS[k]
        assert EN.t(f"card.{C.CARD_IDS[k]}") == C.NAMES_EN[k], C.CARD_IDS[k]


def test_french_and_english_have_the_same_messages_and_placeholders():
    assert FR.keys() == EN.keys()
    for key, text in texts(EN):
        fr = dict(FR_TEXTS)[key]
        assert placeholders(fr) <= placeholders(text) | {"n"}, (key, fr)


@pytest.mark.parametrize(
    "text",
    [
        "Interdit : vous devez d'abord jouer un Feu vert",
        "Coup fourré !",
        "{name} a joué {card} : il rejoue.",
        "{names} gagne",
        "{n} joueurs",
        "Délai : {s} s",
        "« Place 2 »",
        "Partie en 1000 points",
        "Your turn",
        "Rallonge",
        "Attendez...",
        "Prêt ?",
        "la Crevaison de {attacker}",
        "Main de {name}",
        "Panne d'essence",
        "Délai\u00a0: {s}\u00a0s ; ensuite",
        "200 bornes",
    ],
)
def test_the_checks_catch_what_they_look_for(text):
    assert faults("x", text.replace(" :", "\u00a0:") if "Interdit" in text else text)


@pytest.mark.parametrize(
    "text", ["Adresse\u00a0: https://exemple.fr/t/abc", "Total\u00a0: {points:,}", "Le coup {action!r} est refusé."]
)
def test_the_checks_leave_a_placeholders_format_and_an_address_alone(text):
    assert not faults("x", text)
