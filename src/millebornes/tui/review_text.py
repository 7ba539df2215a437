"""A game review in words, for the terminal: the tables ``millebornes review`` prints and the lines the
replay shows on a reviewed move, from the message catalog.

A review (:func:`millebornes.review.review`) names its moves in notation and its seats from 0; here they
are said as the replay says them ("Seat 2: Play Flat Tire on Seat 1") with chances in percent. Nothing
needs a terminal, so the command line and its tests use it as it is.
"""

from __future__ import annotations

import io
import re

from babel.numbers import format_decimal
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..actions import ACTION_CODES
from ..notation import replay
from ..review import CLASSES, REVIEW_FORMAT
from .words import Words

MARKED = ("inaccuracy", "mistake", "blunder")
STYLE = {
    "best": "bold green",
    "good": "green",
    "inaccuracy": "bold yellow",
    "mistake": "bold dark_orange",
    "blunder": "bold red",
}


def check_review(review: object, record: dict) -> bool:
    """Whether ``review`` is a review (the JSON ``millebornes review --json`` writes) of this record: each
    move at its index in the record, as played there, by the seat that was to play; everything the terminal
    reads of it in place."""
    if not isinstance(review, dict) or review.get("format") != REVIEW_FORMAT:
        return False
    actions = record["actions"]
    game = replay(record, upto=0)
    seats = [game.to_act]
    for action in actions[:-1]:
        game.act(action)
        seats.append(game.to_act)
    try:
        reviewed = set(review["seats"])
        if not reviewed <= set(range(record["players"])):
            return False
        for m in review["moves"]:
            i = m["index"]
            if not (
                isinstance(i, int)
                and 0 <= i < len(actions)
                and actions[i] == m["played"]
                and seats[i] == m["seat"] in reviewed
                and m["best"] in ACTION_CODES
                and m["class"] in CLASSES
            ):
                return False
            float(m["chance"]), float(m["best_chance"]), int(m["hand"])
        judged = {m["index"] for m in review["moves"]}
        for s in review["summary"]:
            if s["seat"] not in reviewed or not all(k["index"] in judged for k in s["key_moments"]):
                return False
            [float(k["swing"]) for k in s["key_moments"]], [int(s["counts"][c]) for c in CLASSES]
            float(s["accuracy"] or 0), int(s["judged"])
        int(review["budget"]["worlds"]), int(review["budget"]["seed"])
    except (KeyError, TypeError, ValueError):
        return False
    return True


class ReviewWords:
    """One review of one record, said in one language."""

    def __init__(self, record: dict, review: dict, lang: str = "en"):
        game = replay(record, upto=0)
        self.record, self.review = record, review
        self.w = Words(lang, game.players, game.teams, None)
        self.edition = record["ruleset"]
        self.players = game.players
        self.tops: list[str | None] = []
        self.seats: list[int] = []
        for action in record["actions"]:
            self.tops.append(game.discard_pile[-1] if game.discard_pile else None)
            seat = game.to_act
            game.act(action)
            assert seat is not None  # act refuses a finished match
            self.seats.append(seat)
        self.hands = game.hand_number + 1
        self.by_index = {m["index"]: m for m in review["moves"]}

    def t(self, key: str, /, **kw) -> str:
        return self.w.t(key, **kw)

    # -- pieces --------------------------------------------------------------------------
    def action(self, index: int, action: str) -> str:
        """An action taken (or that could have been) at ``index``, in words, the discard pile as it was."""
        return self.w.action(action, self.tops[index])

    def klass(self, name: str) -> str:
        return self.t(f"review.class.{name}")

    def badge(self, name: str) -> Text:
        return Text(self.klass(name), style=STYLE[name])

    def percent(self, chance: float) -> str:
        return self.t("tui.review.percent", p=self.w.catalog.number(round(100 * chance)))

    def accuracy(self, value: float | None) -> str:
        """A seat's accuracy with its tenth always shown ('90.0', '90,0')."""
        return "–" if value is None else format_decimal(value, format="#,##0.0", locale=self.w.catalog.locale)

    def chances(self, move: dict) -> str:
        """The side's chance of the hand with the best move and with the move played."""
        return f"{self.percent(move['best_chance'])} → {self.percent(move['chance'])}"

    def why(self, move: dict, shown: tuple[str, ...] = ("chance",)) -> str:
        """Why the better move is better, in one line, quoting a figure other than those ``shown`` beside it (the
        hand's chance, and the match's where the line gives it)."""
        given = move.get("reason")
        return self.w.why(given, self.w.side_title, shown=shown) if given else ""

    def seat_at(self, index: int) -> int:
        """The seat that played action ``index``."""
        return self.seats[index]

    def marked(self) -> list[dict]:
        """The moves played that were an inaccuracy or worse, in the order played."""
        return [m for m in self.review["moves"] if m["class"] in MARKED]

    # -- one move, as the replay shows it ----------------------------------------------------
    def move_line(self, move: dict) -> Text:
        """'Mistake · Seat 2: Discard Roll (chance of the hand 62% → 41%) · better: Play Roll'."""
        i = move["index"]
        text = self.badge(move["class"])
        text.append(" · " + self.t("tui.move", who=self.w.seat(move["seat"]), action=self.action(i, move["played"])))
        if move["class"] in MARKED:
            if move.get("match_chance") is not None:  # the match's chance may be what marks it (an extension)
                match = f"{self.percent(move['best_match_chance'])} → {self.percent(move['match_chance'])}"
                text.append(" " + self.t("tui.review.chance_change_match", chances=self.chances(move), match=match))
            else:
                text.append(" " + self.t("tui.review.chance_change", chances=self.chances(move)))
            text.append(" · " + self.w.catalog.n("tui.review.cost", 5 * round(move["loss"] / 5)))
            text.append(" · " + self.t("tui.review.better", action=self.action(i, move["best"])), style="bold")
            if why := self.why(move, ("chance", "match", "points")):
                text.append(" · " + why, style="italic")
        else:
            text.append(" " + self.t("tui.review.chance_after", chance=self.percent(move["chance"])))
        return text

    # -- tables ----------------------------------------------------------------------------
    def title(self) -> str:
        budget = self.review["budget"]
        return self.t(
            "tui.review.title",
            edition=self.w.edition(self.edition),
            players=self.players,
            worlds=self.w.catalog.number(budget["worlds"]),
            seed=budget["seed"],
        )

    def summary_table(self) -> Table:
        """Each reviewed seat's accuracy and how many decisions of each class."""
        table = _table()
        table.add_column(self.t("tui.review.col.seat"), no_wrap=True)
        for label in (self.t("review.accuracy"), self.t("tui.review.col.judged")):
            table.add_column(label, justify="right", min_width=_longest_word(label))
        for name in CLASSES:
            table.add_column(self.badge(name), justify="right", min_width=_longest_word(self.klass(name)))
        for s in self.review["summary"]:
            table.add_row(
                self.w.seat(s["seat"]),
                Text(self.accuracy(s["accuracy"]), style="bold"),
                str(s["judged"]),
                *(str(s["counts"][name]) for name in CLASSES),
            )
        return table

    def moves_table(self, numbered: bool = False, chance: str = "tui.review.col.chance") -> Table:
        """The columns every list of moves shares: (a key,) move number, hand, who, move played, chance, class."""
        table = _table()
        if numbered:
            table.add_column("", style="bold cyan", no_wrap=True)
        table.add_column(self.t("tui.review.col.move"), justify="right", no_wrap=True)
        if self.hands > 1:
            table.add_column(self.t("tui.review.col.hand"), justify="right", no_wrap=True)
        table.add_column(self.t("tui.review.col.who"), no_wrap=True)
        table.add_column(self.t("tui.review.col.played"))
        table.add_column(self.t(chance), justify="right", min_width=len(f"{self.percent(1)} → {self.percent(1)}"))
        table.add_column(self.t("tui.review.col.class"), no_wrap=True)
        return table

    def move_cells(self, move: dict, before: float) -> list:
        i = move["index"]
        hand = [str(move["hand"] + 1)] if self.hands > 1 else []
        return [
            str(i + 1),
            *hand,
            self.w.seat(move["seat"]),
            self.action(i, move["played"]),
            f"{self.percent(before)} → {self.percent(move['chance'])}",
            self.badge(move["class"]),
        ]

    def marked_table(self) -> Table | Text:
        """Every inaccuracy, mistake and blunder: when, who, what, how much it cost (the chance of the hand with
        the best move, then with the move played), what was better and why."""
        marked = self.marked()
        if not marked:
            return Text(self.t("tui.review.none_marked"), style="italic")
        table = self.moves_table()
        table.add_column(self.t("tui.review.col.better"))
        for m in marked:
            table.add_row(*self.move_cells(m, m["best_chance"]), self.action(m["index"], m["best"]))
        return _unbroken(table)

    def why_table(self) -> Table | None:
        """Why each better move of :meth:`marked_table` is better, by move number, in lines as wide as the
        terminal (None when no marked move has a reason)."""
        rows = [(m, why) for m in self.marked() if (why := self.why(m))]
        if not rows:
            return None
        table = _table()
        table.add_column(self.t("tui.review.col.move"), justify="right", no_wrap=True)
        table.add_column(self.t("tui.review.col.why"), ratio=1)
        for m, why in rows:
            table.add_row(str(m["index"] + 1), why)
        return table

    def key_moments(self) -> list[tuple[dict, float]]:
        """The seats' key moments in the order played: (the move, its side's chance of the hand after the
        seat's previous decision)."""
        out = []
        for s in self.review["summary"]:
            for k in s["key_moments"]:
                move = self.by_index.get(k["index"])
                if move is not None:
                    out.append((move, move["chance"] - k["swing"]))
        return sorted(out, key=lambda pair: pair[0]["index"])

    def key_table(self, numbered: bool = False) -> Table:
        """The key moments, the chance of the hand from the seat's previous decision to after this one."""
        table = self.moves_table(numbered, chance="tui.review.col.swing")
        for n, (move, before) in enumerate(self.key_moments(), 1):
            table.add_row(*([str(n)] if numbered else []), *self.move_cells(move, before))
        return _unbroken(table)


def _table() -> Table:
    return Table(box=None, padding=(0, 1), show_edge=False, header_style="bold")


def _unbroken(table: Table) -> Table:
    """Each column at least as wide as its longest word: a narrow terminal wraps cells between words only."""
    for column in table.columns:
        cells = [str(column.header)] + [str(c) for c in column.cells]
        column.min_width = max([column.min_width or 0] + [_longest_word(c) for c in cells if c.strip()])
    return table


def _longest_word(label: str) -> int:
    """A header may wrap between its words, never inside one."""
    return max(len(word) for word in re.split(r"[ ]+", label) if word)


def review_text(record: dict, review: dict, lang: str = "en", width: int = 100, color: bool = False) -> str:
    """What ``millebornes review`` prints: the title, the seats' summary, the marked moves and why their better
    moves are better, the key moments."""
    words = ReviewWords(record, review, lang)
    out = io.StringIO()
    console = Console(
        file=out,
        width=width,
        color_system="standard" if color else None,
        force_terminal=color,
        highlight=False,
        emoji=False,
        soft_wrap=False,
    )
    console.print(Text(words.title(), style="bold"))
    console.print()
    console.print(words.summary_table())
    console.print()
    console.print(Text(words.t("tui.review.marked_title"), style="bold underline"))
    console.print(words.marked_table())
    console.print()
    if (why := words.why_table()) is not None:
        console.print(Text(words.t("tui.review.why_title"), style="bold underline"))
        console.print(why)
        console.print()
    console.print(Text(words.t("tui.review.key_title"), style="bold underline"))
    console.print(words.key_table())
    return "\n".join(line.rstrip() for line in out.getvalue().rstrip("\n").splitlines())
