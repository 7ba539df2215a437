"""A game review in words, for the terminal: the tables ``millebornes review`` prints and the lines the
replay shows on a reviewed move, from the message catalog.

A review (:func:`millebornes.review.review`) names its moves in notation and its seats from 0; here they
are said as the replay says them ("Seat 2: Play Flat Tire on Seat 1") with chances in percent. Nothing
needs a terminal, so the command line and its tests use it as it is.
"""

from __future__ import annotations

import io

from babel.numbers import format_decimal
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..notation import replay
from ..review import CLASSES, REVIEW_FORMAT
from .words import Words

MARKED = ("inaccuracy", "mistake", "blunder")
STYLE = {"best": "bold green", "good": "green", "inaccuracy": "bold yellow", "mistake": "bold dark_orange",
         "blunder": "bold red"}


def check_review(review: object, record: dict) -> bool:
    """Whether ``review`` is a review (the JSON ``millebornes review --json`` writes) of this record: each
    move at its index in the record, as played there."""
    if not isinstance(review, dict) or review.get("format") != REVIEW_FORMAT:
        return False
    moves, summary = review.get("moves"), review.get("summary")
    if not isinstance(moves, list) or not isinstance(summary, list):
        return False
    actions = record["actions"]
    try:
        for m in moves:
            i = m["index"]
            if not (isinstance(i, int) and 0 <= i < len(actions) and actions[i] == m["played"]
                    and m["class"] in CLASSES):
                return False
            float(m["chance"]), float(m["best_chance"])
        for s in summary:
            for k in s["key_moments"]:
                if not (isinstance(k["index"], int) and 0 <= k["index"] < len(actions)):
                    return False
            int(s["seat"]), [int(s["counts"][c]) for c in CLASSES]
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
        for action in record["actions"]:
            self.tops.append(game.discard_pile[-1] if game.discard_pile else None)
            game.act(action)
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
        """The side's chance of the hand before the move (best play) and after the move played."""
        return f"{self.percent(move['best_chance'])} → {self.percent(move['chance'])}"

    def who(self, index: int) -> str:
        return self.w.seat(self.seat_at(index))

    def seat_at(self, index: int) -> int:
        move = self.by_index.get(index)
        if move is not None:
            return move["seat"]
        return replay(self.record, upto=index).to_act

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
            text.append(" " + self.t("tui.review.chance_change", chances=self.chances(move)))
            text.append(" · " + self.t("tui.review.better", action=self.action(i, move["best"])), style="bold")
        else:
            text.append(" " + self.t("tui.review.chance_after", chance=self.percent(move["chance"])))
        return text

    # -- tables ----------------------------------------------------------------------------
    def title(self) -> str:
        budget = self.review["budget"]
        return self.t("tui.review.title", edition=self.w.edition(self.edition), players=self.players,
                      worlds=self.w.catalog.number(budget["worlds"]), seed=budget["seed"])

    def summary_table(self) -> Table:
        """Each reviewed seat's accuracy and how many decisions of each class."""
        table = Table(box=None, padding=(0, 1), show_edge=False, header_style="bold")
        table.add_column(self.t("tui.review.col.seat"))
        table.add_column(self.t("review.accuracy"), justify="right")
        table.add_column(self.t("tui.review.col.judged"), justify="right")
        for name in CLASSES:
            table.add_column(self.badge(name), justify="right")
        for s in self.review["summary"]:
            table.add_row(self.w.seat(s["seat"]), Text(self.accuracy(s["accuracy"]), style="bold"),
                          str(s["judged"]), *(str(s["counts"][name]) for name in CLASSES))
        return table

    def marked_table(self) -> Table | Text:
        """Every inaccuracy, mistake and blunder: when, who, what, how much it cost, what was better."""
        marked = self.marked()
        if not marked:
            return Text(self.t("tui.review.none_marked"), style="italic")
        table = Table(box=None, padding=(0, 1), show_edge=False, header_style="bold")
        table.add_column(self.t("tui.review.col.move"), justify="right")
        if self.hands > 1:
            table.add_column(self.t("tui.review.col.hand"), justify="right")
        table.add_column(self.t("tui.review.col.who"))
        table.add_column(self.t("tui.review.col.played"))
        table.add_column(self.t("tui.review.col.class"))
        table.add_column(self.t("tui.review.col.chance"), justify="right", no_wrap=True)
        table.add_column(self.t("tui.review.col.better"))
        for m in marked:
            i = m["index"]
            hand = [str(m["hand"] + 1)] if self.hands > 1 else []
            table.add_row(str(i + 1), *hand, self.w.seat(m["seat"]), self.action(i, m["played"]),
                          self.badge(m["class"]), self.chances(m), self.action(i, m["best"]))
        return table

    def key_moments(self) -> list[tuple[int, Text]]:
        """Each seat's key moments: (index in the record, the moment in words)."""
        out = []
        for s in self.review["summary"]:
            for k in s["key_moments"]:
                i = k["index"]
                move = self.by_index.get(i)
                after = move["chance"] if move else 0.0
                chances = f"{self.percent(after - k['swing'])} → {self.percent(after)}"
                text = Text(self.t("tui.review.moment", n=i + 1, who=self.w.seat(s["seat"]),
                                   action=self.action(i, move["played"]) if move else "", chances=chances))
                if move is not None and move["class"] in MARKED:
                    text.append(" · ")
                    text.append_text(self.badge(move["class"]))
                out.append((i, text))
        return out

    def key_table(self) -> Table:
        table = Table(box=None, padding=(0, 1), show_edge=False, show_header=False)
        table.add_column()
        for _, text in self.key_moments():
            table.add_row(text)
        return table


def review_text(record: dict, review: dict, lang: str = "en", width: int = 100, color: bool = False) -> str:
    """What ``millebornes review`` prints: the title, the seats' summary, the marked moves, the key moments."""
    words = ReviewWords(record, review, lang)
    out = io.StringIO()
    console = Console(file=out, width=width, color_system="standard" if color else None, force_terminal=color,
                      highlight=False, emoji=False, soft_wrap=False)
    console.print(Text(words.title(), style="bold"))
    console.print()
    console.print(words.summary_table())
    console.print()
    console.print(Text(words.t("tui.review.marked_title"), style="bold underline"))
    console.print(words.marked_table())
    console.print()
    console.print(Text(words.t("tui.review.key_title"), style="bold underline"))
    console.print(words.key_table())
    return "\n".join(line.rstrip() for line in out.getvalue().rstrip("\n").splitlines())
