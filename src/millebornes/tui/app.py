"""The Textual app: set up a match, play it against bots or hot-seat, save it, replay a record.

The app holds a :class:`~millebornes.tui.session.PlaySession` and talks to the engine through its
public API only: ``act`` for every move (a refused move comes back as ``IllegalAction`` with the
reason, which is shown), ``observation(seat)`` of the seat at the keyboard for everything drawn on
screen.  Bots decide in worker threads from their own seat's observation, and their moves are
applied on the app's thread after ``pace`` seconds, so the screen never freezes.
"""

from __future__ import annotations

import os
import shlex
import time
from collections import Counter, deque
from pathlib import Path

from rich.console import Group
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Container
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Footer, RichLog, Static

from ..actions import IllegalAction
from ..bots import LEVELS
from ..bots.ladder import default_level, offered_levels
from ..cards import CARD_IDS, GROUP, KIND_OF, SAFETY_OF
from ..events import Event, HandResult
from ..notation import replay
from ..observation import Observation
from ..review import DEFAULT_WORLDS
from ..rules import RULESETS, Ruleset
from ..rules import ruleset as get_ruleset
from ..state import Game
from .bindings import localized
from .keepsave import REPLACE, RESUME, UnfinishedScreen
from .render import breakdown_table, hand_text, tableau_text
from .reviewing import Reviewing, prepare_processes
from .rules import RulesScreen
from .session import HUMAN, PlaySession
from .words import Words, standing_line

HINT_MS = 300
LOG_LINES = 200
"""The log keeps its newest lines only, live and when a resumed match is told again."""


def kinds(ruleset: str = "classic", players: int = 2, teams: bool | None = None) -> tuple[str, ...]:
    """What the setup screen offers for a seat at the table: the levels offered there, weakest first, then a
    person."""
    return (*offered_levels(ruleset, players, teams), HUMAN)


CSS = """
Screen { layout: vertical; }
#status { height: auto; max-height: 2; background: $primary-background; color: $text; padding: 0 1; }
#tableaux { layout: grid; grid-size: 2; grid-gutter: 0 1; grid-rows: auto; height: auto; }
.tableau { height: auto; background: $panel; padding: 0 1; }
#hand { height: auto; padding: 0 1; border-top: solid $secondary; }
#prompt { height: auto; min-height: 2; max-height: 4; padding: 0 1; background: $boost; }
#log { height: 1fr; min-height: 1; padding: 0 1; scrollbar-size-vertical: 1; }
.dialog { width: 76; max-width: 100%; height: auto; max-height: 100%; overflow-y: auto; border: thick $accent;
          background: $surface; padding: 0 1; }
.summary { width: 100; max-width: 100%; max-height: 100%; overflow-y: auto; }
ModalScreen { align: center middle; }
QuestionScreen { align: center bottom; }
PassScreen { align: center middle; }
#setup { padding: 1 2; }
"""


def _is_hazard(card: str) -> bool:
    return GROUP[KIND_OF[card]] == "hazard"


def held_order(order: list[str], hand: list[str], slot: int | None = None) -> list[str]:
    """The hand in the order the player knows it, so that a number key keeps its card: the cards still held keep
    their order, a card gone leaves its slot (``slot``, the one chosen, when several of its kind were held) and
    the ones after it close up, and a new card goes to the end.

    >>> held_order(["75", "roll", "100", "roll"], ["100", "roll", "stop", "75"], slot=3)
    ['75', 'roll', '100', 'stop']
    """
    gone = Counter(order) - Counter(hand)
    if slot is not None and slot < len(order) and gone[order[slot]]:
        gone[order[slot]] -= 1
        order = order[:slot] + order[slot + 1 :]
    kept = []
    for card in order:
        if gone[card]:
            gone[card] -= 1
        else:
            kept.append(card)
    new = Counter(hand) - Counter(kept)
    return kept + list(new.elements())


# ------------------------------------------------------------------------- widgets
class TableauView(Widget):
    """One side's tableau, drawn from an observation."""

    def __init__(self, side: int, **kw):
        super().__init__(classes="tableau", id=f"side-{side}", **kw)
        self.side = side
        self.data: tuple | None = None

    def show(self, obs: Observation, w: Words, turn_side: int | None, kinds_line: str) -> None:
        self.data = (obs, w, turn_side, kinds_line)
        self.refresh(layout=True)

    def render(self) -> Text:
        if self.data is None:
            return Text("")
        obs, w, turn_side, kinds_line = self.data
        width = self.content_size.width or 36
        return tableau_text(obs, self.side, w, width, turn_side, kinds_line)


class HandView(Widget):
    """The hand of the seat at the keyboard (or all hands, in a replay)."""

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.rows: list[tuple[str, list[str], set | None, int | None]] = []
        self.hidden = ""
        self.words: Words | None = None

    def show(self, rows, hidden: str = "") -> None:
        self.rows = rows
        self.hidden = hidden
        self.refresh(layout=True)

    def render(self) -> Text:
        if self.hidden:
            return Text(self.hidden, style="italic")
        width = self.content_size.width or (self.app.size.width - 2)
        out = Text()
        if self.words is None:  # before the first show: no rows either
            return out
        for i, (title, cards, playable, selected) in enumerate(self.rows):
            if i:
                out.append("\n")
            out.append(title + "\n", style="bold underline")
            out.append_text(hand_text(cards, self.words, width, playable, selected))
        return out


class PromptView(Static):
    pass


# ------------------------------------------------------------------------- dialogs


def table_widgets(nsides: int) -> ComposeResult:
    """The table's layout, shared by play and replay: status, tableaux, hand, prompt, log."""
    yield Static(id="status")
    with Container(id="tableaux"):
        for side in range(nsides):
            yield TableauView(side)
    yield HandView(id="hand")
    yield PromptView(id="prompt")
    log = RichLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20, max_lines=LOG_LINES)
    log.can_focus = False  # before the screen gives its first focus: the keys are the game's, not the log's
    yield log
    yield Footer()


def log_to_end(screen: Screen) -> None:
    """Once the layout settles, the log shows its newest line: the tableaux growing a line, or the terminal
    shrinking, shortens the log without scrolling it."""
    log = screen.query_one("#log", RichLog)
    screen.call_after_refresh(log.scroll_end, animate=False)


class PassScreen(Screen):
    """Hot-seat: the next person takes the keyboard; nothing of any hand is on screen."""

    BINDINGS = [Binding("enter", "go", "tui.key.continue")]

    def __init__(self, title: str, body: str):
        super().__init__()
        self.title_text, self.body = title, body

    def compose(self) -> ComposeResult:
        yield Static(Text.assemble((self.title_text, "bold"), "\n\n", self.body), classes="dialog", id="pass")

    def action_go(self) -> None:
        self.dismiss(None)


class QuestionScreen(ModalScreen[bool]):
    """A yes/no decision of the seat at the keyboard: coup fourré or extension."""

    BINDINGS = [
        Binding("y", "answer(True)", "tui.key.yes"),
        Binding("c", "answer(True)", show=False),
        Binding("n", "answer(False)", "tui.key.no"),
        Binding("escape", "answer(False)", show=False),
    ]

    def __init__(self, title: str, body: str, keys: str, kind: str):
        super().__init__()
        self.title_text, self.body, self.keys, self.kind = title, body, keys, kind

    def compose(self) -> ComposeResult:
        """At the bottom, over the log: the hand and the tableaux stay in sight; its own footer shows its keys."""
        yield Static(
            Text.assemble((self.title_text, "bold yellow"), "\n", self.body, "\n\n", (self.keys, "bold")),
            classes="dialog",
            id=f"ask-{self.kind}",
        )
        yield Footer()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class HandOverScreen(ModalScreen[None]):
    """The score breakdown of a hand per side, and the match result when it is over."""

    BINDINGS = [
        Binding("enter", "close", "tui.key.continue"),
        Binding("escape", "close", show=False),
        Binding("q", "app.quit", "tui.key.save_quit"),
    ]

    def __init__(self, title: str, lines: list[str], table, keys: str):
        super().__init__()
        self.parts = (title, lines, table, keys)

    def compose(self) -> ComposeResult:
        title, lines, table, keys = self.parts
        yield Static(
            Group(
                Text(title, style="bold yellow"),
                *(Text(s) for s in lines),
                Text(""),
                table,
                Text(""),
                Text(keys, style="bold"),
            ),
            classes="dialog",
            id="breakdown",
        )
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)


# ------------------------------------------------------------------------- setup
class SetupScreen(Screen):
    """Edition, players, teams, and a kind for each seat after the first; Enter starts."""

    BINDINGS = [
        Binding("up", "move(-1)", show=False),
        Binding("down", "move(1)", show=False),
        Binding("left", "change(-1)", show=False),
        Binding("right", "change(1)", show=False),
        Binding("enter", "start", "tui.key.start"),
        Binding("q", "app.quit", "tui.key.quit"),
    ]

    def __init__(self, lang: str, ruleset: str = "classic", players: int = 2, kinds: list[str] | None = None):
        super().__init__()
        self.lang = lang
        self.edition = ruleset if ruleset in RULESETS else "classic"
        self.players = players
        self.teams: bool | None = None
        self.kinds = list(kinds or [])
        self.row = 0
        self._fix()

    def _rules(self):
        return get_ruleset(self.edition)

    def _counts(self) -> list[int]:
        r = self._rules()
        return sorted(set(r.solo_players) | set(r.team_players))

    def _team_choices(self) -> list[bool]:
        r = self._rules()
        return [t for t in (False, True) if r.allows(self.players, t)]

    def _fix(self) -> None:
        if self.players not in self._counts():
            self.players = self._counts()[0]
        choices = self._team_choices()
        if self.teams not in choices:
            self.teams = self._rules().default_teams(self.players)
            if self.teams not in choices:
                self.teams = choices[0]
        # a level not offered at this table (or a seat not chosen yet) takes the table's default level
        start = default_level(*self._table())
        offered = kinds(*self._table())
        self.kinds = [k if k in offered or k not in LEVELS else start for k in self.kinds]
        self.kinds += [start] * (8 - len(self.kinds))

    def _table(self) -> tuple[str, int, bool]:
        return self.edition, self.players, bool(self.teams)

    def rows(self) -> list[str]:
        out = ["edition", "players"]
        if len(self._team_choices()) > 1:
            out.append("teams")
        out += [f"seat{s}" for s in range(1, self.players)]
        return out

    def compose(self) -> ComposeResult:
        yield Static(id="setup")
        yield Footer()

    def on_mount(self) -> None:
        self.draw()

    def draw(self) -> None:
        w = Words(self.lang, self.players, bool(self.teams), None)
        text = Text(w.t("tui.setup_title") + "\n\n", style="bold")
        for i, row in enumerate(self.rows()):
            if row == "edition":
                label, value = w.t("home.edition"), w.edition(self.edition)
            elif row == "players":
                label, value = w.t("home.players"), str(self.players)
            elif row == "teams":
                label, value = w.t("tui.teams"), w.t("tui.yes" if self.teams else "tui.no")
            else:
                s = int(row[4:])
                label, value = w.seat(s), Words(self.lang, 2, False, None, self.kinds).kind(s - 1)
                note = standing_line(self.lang, self.kinds[s - 1], *self._table()) if i == self.row else ""
                if self.teams:
                    label += " · " + w.t("tui.team", n=s % (self.players // 2) + 1)
            mark = "▶ " if i == self.row else "  "
            text.append(f"{mark}{label:<22}", style="bold" if i == self.row else "")
            text.append(f"◀ {value} ▶", style="reverse" if i == self.row else "cyan")
            text.append("\n")
            if row == "edition":
                text.append(f"    {w.edition_summary(self.edition)}\n", style="italic")
            elif row.startswith("seat") and note:
                text.append(f"    {note}\n", style="italic")
        text.append("\n" + w.t("tui.setup_help"), style="dim")
        self.query_one("#setup", Static).update(text)

    def action_move(self, step: int) -> None:
        self.row = (self.row + step) % len(self.rows())
        self.draw()

    def action_change(self, step: int) -> None:
        row = self.rows()[self.row]
        if row == "edition":
            names = list(RULESETS)
            self.edition = names[(names.index(self.edition) + step) % len(names)]
        elif row == "players":
            counts = self._counts()
            self.players = (
                counts[(counts.index(self.players) + step) % len(counts)] if (self.players in counts) else counts[0]
            )
            self.teams = None
        elif row == "teams":
            self.teams = not self.teams
        else:
            s = int(row[4:])
            k, choices = self.kinds[s - 1], kinds(*self._table())
            self.kinds[s - 1] = (
                choices[(choices.index(k) + step) % len(choices)] if k in choices else default_level(*self._table())
            )
        self._fix()
        self.row = min(self.row, len(self.rows()) - 1)
        self.draw()

    def action_start(self) -> None:
        self.dismiss(
            {
                "ruleset": self.edition,
                "players": self.players,
                "teams": self.teams,
                "bots": self.kinds[: self.players - 1],
            }
        )


# ------------------------------------------------------------------------- the table
class GameScreen(Screen):
    """The table: tableaux, the hand of the seat at the keyboard, prompts, the log."""

    BINDINGS = [
        Binding("q", "app.quit", "tui.key.save_quit"),
        Binding("h", "hint", "tui.key.hint"),
        Binding("question_mark", "rules", "tui.key.help"),
        Binding("p", "where('own')", "tui.key.play", show=False),
        Binding("a", "attack", "tui.key.attack", show=False),
        Binding("d", "where('discard')", "tui.key.discard", show=False),
        Binding("s", "draw('draw')", "tui.key.draw", show=False),
        Binding("t", "draw('take-discard')", "tui.key.take", show=False),
        Binding("enter", "confirm", show=False),
        Binding("escape", "back", show=False),
    ]
    BINDINGS += [Binding(str(n), f"digit({n})", show=False) for n in range(1, 10)]

    def __init__(self, session: PlaySession, lang: str = "en", pace: float = 1.0, hint_ms: int = HINT_MS):
        super().__init__()
        self.session = session
        self.game = session.game
        self.lang = lang
        self.pace = pace
        session.settings.update(lang=lang, pace=pace)
        self.hint_ms = hint_ms
        self.viewer: int | None = session.humans[0] if len(session.humans) == 1 else None
        self.selected: int | None = None
        self.aiming: int | None = None
        """The slot of the hazard ``a`` is aiming: while it is the card chosen, a number key names a side."""
        self.message: Text = Text("")
        self.thinking: int | None = None
        self.busy = False  # a dialog or the pass screen is up
        self.token = 0
        self.log_lines: deque[str] = deque(maxlen=LOG_LINES)
        self.orders: dict[int, list[str]] = {s: self.game.hand(s) for s in session.humans}
        """Each person's hand in the order shown (:func:`held_order`): presentation only, the moves name kinds."""

    # -- drawing ---------------------------------------------------------------------
    @property
    def w(self) -> Words:
        return Words(self.lang, self.game.players, self.game.teams, self.viewer, self.session.kinds)

    @property
    def hot_seat(self) -> bool:
        return len(self.session.humans) > 1

    @property
    def log_words(self) -> Words:
        """Hot-seat: the log stays on screen when the keyboard is passed, so it names every seat
        and never tells what someone drew."""
        if self.hot_seat:
            return Words(self.lang, self.game.players, self.game.teams, None, self.session.kinds)
        return self.w

    def compose(self) -> ComposeResult:
        yield from table_widgets(self.game.nsides)

    def on_mount(self) -> None:
        if self.game.history:
            self.retell()
        else:
            self.note(self.dealt_line(self.game))
        self.refresh_view()
        self.call_after_refresh(self.advance)

    def dealt_line(self, g: Game) -> str | None:
        """The first hand's deal, which no action's events tell."""
        return self.log_words.event(
            {"type": "deal", "hand": g.hand_number, "first": g.hand_number % g.players, "target": g.target}
        )

    def retell(self) -> None:
        """A resumed match: its record played again from the deal gives back the log (its newest lines) and the
        order each person's hand was shown in."""
        past = replay(self.game.record(), upto=0)
        lines = [self.dealt_line(past)]
        self.orders = {s: past.hand(s) for s in self.session.humans}
        for action in self.game.history:
            before = past.hand(self.viewer) if self.viewer is not None else []
            events = past.act(action)
            self.keep_orders(past, events)
            after = past.hand(self.viewer) if self.viewer is not None else []
            lines += self.told(events, before, after)
        for line in [line for line in lines if line][-LOG_LINES + 1 :]:
            self.note(line)
        self.note(self.log_words.t("tui.resumed"))

    def told(self, events: list[Event], before: list[str], after: list[str]) -> list[str | None]:
        """An action's log lines: its public events, and what the one person at the table drew."""
        lines = [self.log_words.event(ev) for ev in events if ev["type"] != "draw"]
        if self.viewer is not None and not self.hot_seat:
            lines.append(self.w.drew(before, after, events))
        return lines

    def keep_orders(self, game: Game, events: list[Event], mover: int | None = None, slot: int | None = None) -> None:
        """After an action: a new deal shows each hand as dealt, else each keeps its order (``slot``, the card
        ``mover`` chose)."""
        dealt = any(ev["type"] == "deal" for ev in events)
        for s in self.orders:
            hand = game.hand(s)
            self.orders[s] = hand if dealt else held_order(self.orders[s], hand, slot if s == mover else None)

    def note(self, line: str | None) -> None:
        if not line:
            return
        self.log_lines.append(line)
        self.query_one("#log", RichLog).write(Text(line))

    def observation(self) -> Observation:
        seat = self.viewer if self.viewer is not None else self.session.humans[0]
        return self.game.observation(seat)

    def refresh_view(self) -> None:
        g, w = self.game, self.w
        obs = self.observation()
        top = obs["discard_pile"][-1] if obs["discard_pile"] else None
        self.query_one("#status", Static).update(
            w.t(
                "tui.status",
                edition=w.edition(obs["ruleset"]),
                hand=obs["hand_number"] + 1,
                target=w.num(obs["target"]),
                stock=obs["stock_size"],
                discard=w.card(top) if top else w.t("pile.empty"),
            )
        )
        turn = obs["turn"]
        turn_side = None if obs["is_over"] or turn is None else g.side_of(turn)
        for view in self.query(TableauView):
            seats = [s for s in range(g.players) if g.side_of(s) == view.side]
            kinds = "+".join(w.kind(s) for s in seats if s not in (self.viewer,))
            view.show(obs, w, turn_side, f"[{kinds}]" if kinds else "")
        hand = self.query_one(HandView)
        hand.words = w
        if self.viewer is None:
            hand.show([], hidden=w.t("tui.hidden"))
        else:
            title = w.t("replay.hand_of", name=w.seat(self.viewer)) if self.hot_seat else w.t("table.hand")
            hand.show([(title, self.hand(), self.playable(obs), self.selected)])
        self.query_one(PromptView).update(Text.assemble(self.prompt(obs), "\n", self.message))
        log_to_end(self)

    def on_resize(self) -> None:
        log_to_end(self)

    def playable(self, obs: Observation) -> set | None:
        if obs["decision"] != "play" or obs["to_act"] != obs["seat"]:
            return None
        return {a.split()[1] for a in obs["legal_actions"] if a.startswith("play ")}

    def prompt(self, obs: Observation) -> Text:
        w = self.w
        if obs["is_over"]:
            return Text(w.t("tui.match_over"), style="bold")
        seat = obs["to_act"]
        assert seat is not None  # a match not over has a seat to act
        if seat != self.viewer:
            return Text(w.t("tui.thinking", who=w.seat(seat)), style="italic")
        if obs["decision"] == "draw":
            return Text(w.t("tui.your_draw", card=w.card(obs["discard_pile"][-1])), style="bold")
        if obs["decision"] != "play":
            return Text("")
        hand = self.hand()
        if self.selected is None or self.selected >= len(hand):
            return Text(w.t("tui.your_play", n=len(hand)), style="bold")
        card = hand[self.selected]
        if not _is_hazard(card):
            return Text(w.t("tui.chosen_own", card=w.card(card)), style="bold")
        sides = self.opponents()
        if self.side_step():
            listed = ", ".join(w.t("tui.aim_side", key=t + 1, name=w.side(t)) for t in sides)
            return Text(w.t("tui.aim", card=w.card(card), sides=listed), style="bold")
        if len(sides) == 1:
            return Text(w.t("tui.chosen_attack", card=w.card(card), side=w.side(sides[0])), style="bold")
        return Text(w.t("tui.chosen_aim", card=w.card(card)), style="bold")

    def opponents(self) -> list[int]:
        """The sides the seat at the keyboard may attack, asked for while it has the move."""
        assert self.viewer is not None  # nobody else is asked for a target
        own = self.game.side_of(self.viewer)
        return [t for t in range(self.game.nsides) if t != own]

    def side_step(self) -> bool:
        """Whether a number key names a side: ``a`` opened the side step for the card still chosen, on the seat's
        play; any other choice, a move or Escape ends it, so browsing the hand never attacks."""
        g = self.game
        return (
            self.aiming is not None
            and self.aiming == self.selected
            and g.to_act == self.viewer
            and g.decision == "play"
        )

    def say(self, text: str, style: str = "bold red") -> None:
        self.message = Text(text, style=style)
        self.refresh_view()

    # -- the flow of the game ------------------------------------------------------------
    def advance(self) -> None:
        """Ask whoever must decide next: the seat at the keyboard, a pass screen, or a bot."""
        if self.busy or self.thinking is not None:
            return
        g = self.game
        self.refresh_view()
        seat = g.to_act
        if seat is None:  # the match is over
            return
        if not self.session.is_human(seat):
            self.start_bot(seat)
            return
        if seat != self.viewer:
            self.viewer = None
            self.selected = self.aiming = None
            self.message = Text("")
            self.refresh_view()
            self.busy = True
            w = self.w
            name = w.seat(seat)
            self.app.push_screen(
                localized(PassScreen, self.lang)(w.t("tui.pass_title", who=name), w.t("tui.pass_body", who=name)),
                callback=lambda _: self._passed(seat),
            )
            return
        if g.decision == "coup-fourre":
            self.ask_coup_fourre()
        elif g.decision == "extension":
            self.ask_extension()

    def _passed(self, seat: int) -> None:
        self.busy = False
        self.viewer = seat
        self.advance()

    def ask_coup_fourre(self) -> None:
        w, obs = self.w, self.observation()
        att = obs["pending_attack"]
        assert att is not None  # asked about a hazard just played
        safety = CARD_IDS[SAFETY_OF[KIND_OF[att["hazard"]]]]
        self.busy = True
        body = w.t(
            "cf.text",
            attacker=w.seat(att["attacker"]),
            hazard=w.card(att["hazard"]),
            side=w.side(att["side"]),
            safety=w.card(safety),
        )
        ask = localized(QuestionScreen, self.lang)
        self.app.push_screen(
            ask(w.t("tui.cf_title"), body[:1].upper() + body[1:], w.t("tui.cf_keys"), "cf"),
            callback=lambda yes: self._answered("coup-fourre" if yes else "pass"),
        )

    def ask_extension(self) -> None:
        w, r = self.w, self.game.ruleset
        self.busy = True
        self.app.push_screen(
            localized(QuestionScreen, self.lang)(
                w.t("ext.title"),
                w.t("ext.text", target=w.num(self.game.target), full=w.num(r.target)),
                w.t("tui.ext_keys", long=w.num(r.target)),
                "extension",
            ),
            callback=lambda yes: self._answered("extend" if yes else "end-hand"),
        )

    def _answered(self, action: str) -> None:
        self.busy = False
        self.apply(self.viewer, action)

    def apply(self, seat: int | None, action: str) -> bool:
        """Act for a seat (None: the seat to act); a refusal is explained, never ignored.  True if the move was
        made."""
        g = self.game
        w = self.w
        before = self.observation()["hand"] if self.viewer is not None else []
        mover, slot = g.to_act if seat is None else seat, self.selected
        try:
            events = g.act(action, seat)
        except IllegalAction as exc:
            self.selected = self.aiming = None
            self.say(w.reason(exc))
            return False
        self.selected = self.aiming = None
        self.message = Text("")
        self.token += 1
        self.keep_orders(g, events, mover, slot if mover == self.viewer else None)
        hand_over = None
        for ev in events:
            if ev["type"] == "hand-over":
                hand_over = ev
        after = self.observation()["hand"] if self.viewer is not None else []
        for line in self.told(events, before, after):
            self.note(line)
        self.session.save()
        if hand_over is not None:
            self.show_hand_over(hand_over)
        else:
            self.advance()
        return True

    def show_hand_over(self, result: HandResult) -> None:
        g = self.game
        w = self.w
        lines = []
        if result["completed"] is not None:
            done = result["completed"]
            mine = self.viewer is not None and done == g.side_of(self.viewer) and not g.teams
            lines.append(w.t("tui.completed_you") if mine else w.t("tui.completed", who=w.side_title(done)))
        else:
            lines.append(w.t("tui.no_completion"))
        if g.is_over:  # the hand's line and the match's, told apart; a match of one hand has one
            title = f"{w.t('tui.hand_over_title', n=result['hand'] + 1)} · {w.t('match.title')}"
            if result["hand"] > 0:
                lines.append(w.t("tui.hand_result", result=w.result(result["winners"], result["points"])))
            lines.append(w.t("tui.match_result", result=w.result(g.winners, g.match_scores)))
            keys = w.t("tui.quit_hint")
        else:
            lines.append(w.result(result["winners"], result["points"]))
            title = w.t("tui.hand_over_title", n=result["hand"] + 1)
            keys = w.t("tui.continue")
        self.busy = True
        self.refresh_view()
        table = breakdown_table(result, g.match_scores, w)
        self.app.push_screen(
            localized(HandOverScreen, self.lang)(title, lines, table, keys), callback=lambda _: self._after_hand()
        )

    def _after_hand(self) -> None:
        self.busy = False
        self.advance()

    # -- bots ------------------------------------------------------------------------
    def start_bot(self, seat: int) -> None:
        g = self.game
        self.thinking = seat
        token = self.token
        obs = g.observation(seat)
        legal = g.legal_actions()
        bot = self.session.bots[seat]
        started = time.monotonic()
        self.refresh_view()

        def think() -> None:
            try:
                action = bot.choose(obs, legal)
            except Exception:  # a broken bot must not break the table: it plays its first legal action
                action = legal[0]
            try:
                self.app.call_from_thread(self._bot_chose, seat, token, action, started)
            except RuntimeError:  # the app has closed meanwhile
                pass

        self.run_worker(think, thread=True, group="bot", exit_on_error=False)

    def _bot_chose(self, seat: int, token: int, action: str, started: float) -> None:
        wait = self.pace - (time.monotonic() - started)
        if wait > 0:
            self.set_timer(wait, lambda: self._bot_play(seat, token, action))
        else:
            self._bot_play(seat, token, action)

    def _bot_play(self, seat: int, token: int, action: str) -> None:
        if token != self.token or self.game.to_act != seat:
            return
        self.thinking = None
        if action not in self.game.legal_actions():
            action = self.game.legal_actions()[0]
        self.apply(seat, action)

    # -- keys --------------------------------------------------------------------------
    def my_turn(self, quiet: bool = False) -> bool:
        g = self.game
        if self.busy:
            return False
        seat = g.to_act
        if seat is None:  # the match is over
            self.say(self.w.t("tui.match_over"))
            return False
        if seat != self.viewer:
            if not quiet:
                self.say(self.w.t("tui.wait", who=self.w.seat(seat)))
            return False
        return g.decision in ("play", "draw")

    def hand(self) -> list[str]:
        """The hand at the keyboard as shown: the n-th card is number key n's."""
        seat = self.viewer if self.viewer is not None else self.session.humans[0]
        order = held_order(self.orders.get(seat, []), self.game.observation(seat)["hand"])
        self.orders[seat] = order
        return order

    def action_digit(self, n: int) -> None:
        if not self.my_turn():
            return
        w = self.w
        hand = self.hand()
        if self.game.decision == "draw":
            self.say(w.t("tui.draw_first", card=w.card(self.observation()["discard_pile"][-1])))
            return
        if self.side_step():
            assert self.selected is not None  # side_step: the hazard aimed is the card chosen
            if n > self.game.nsides:
                self.say(w.t("tui.no_side", n=n))
                return
            self.apply(self.viewer, f"play {hand[self.selected]} {n - 1}")
            return
        if n > len(hand):
            self.say(w.t("tui.no_such_card", n=n))
            return
        self.selected, self.aiming = n - 1, None
        self.message = Text("")
        self.refresh_view()

    def chosen_card(self) -> str | None:
        """The card chosen to play now; None, with the reason said, before the draw or with no card chosen."""
        if not self.my_turn():
            return None
        w = self.w
        if self.game.decision == "draw":
            self.say(w.t("tui.draw_first", card=w.card(self.observation()["discard_pile"][-1])))
            return None
        hand = self.hand()
        if self.selected is None:
            self.say(w.t("tui.choose_first", n=len(hand)))
            return None
        return hand[self.selected]

    def action_where(self, where: str) -> None:
        card = self.chosen_card()
        if card is None:
            return
        if where == "discard":
            self.apply(self.viewer, f"discard {card}")
        elif _is_hazard(card):
            assert self.viewer is not None  # my_turn: the seat at the keyboard has the move
            self.apply(self.viewer, f"play {card} {self.game.side_of(self.viewer)}")
        else:
            self.apply(self.viewer, f"play {card}")

    def action_attack(self) -> None:
        """a: the chosen hazard on the one opponent at once; with several, the side step, where a side's number
        attacks it (the browser's keys too)."""
        card = self.chosen_card()
        if card is None:
            return
        if not _is_hazard(card):
            self.say(self.w.t("tui.not_hazard", card=self.w.card(card)))
            return
        sides = self.opponents()
        if len(sides) == 1:
            self.apply(self.viewer, f"play {card} {sides[0]}")
            return
        self.aiming = self.selected
        self.message = Text("")
        self.refresh_view()

    def action_draw(self, action: str) -> None:
        if self.my_turn():
            self.apply(self.viewer, action)

    def action_confirm(self) -> None:
        if not self.my_turn(quiet=True) or self.selected is None:
            return
        if self.side_step():
            return
        if _is_hazard(self.hand()[self.selected]):
            self.action_attack()
        else:
            self.action_where("own")

    def action_back(self) -> None:
        """Escape: out of the side step back to the card chosen, else the card put down."""
        if not self.side_step():
            self.selected = None
        self.aiming = None
        self.message = Text("")
        self.refresh_view()

    def key_rows(self) -> list[tuple[str, str]]:
        """The table's keys in words for the ? screen, in the words of the browser's Keys panel."""
        w = self.w
        several = self.game.nsides > 2
        return [
            (f"1-{len(self.hand())}", w.t("keys.cards")),
            ("p", w.t("keys.play")),
            (f"a, 1-{self.game.nsides}" if several else "a", w.t("keys.attack_aim" if several else "keys.attack")),
            ("d", w.t("keys.discard")),
            ("s", w.t("keys.draw")),
            ("t", w.t("keys.take")),
            (f"{w.t('tui.yes_key')} / n", w.t("keys.answer")),
            ("h", w.t("keys.hint")),
            (w.t("keys.esc_name"), w.t("tui.keys_back")),
            ("?", w.t("tui.keys_help")),
            ("q", self.quit_words()),
        ]

    def quit_words(self) -> str:
        """What ``q`` does here: saves the match, and where, or nothing when there is nowhere to save it."""
        path = self.session.save_path
        if path is None:
            return self.w.t("tui.keys_quit_unsaved")
        resume = f"millebornes play --resume --save {shlex.quote(str(path))}"
        return self.w.t("tui.keys_quit", path=path, command=resume)

    @property
    def rules(self) -> Ruleset:
        """The rules ``?`` tells: the table's."""
        return self.game.ruleset

    def action_rules(self) -> None:
        """The keys, then how to play this table's edition, over the table (the game waits behind it)."""
        rules = localized(RulesScreen, self.lang)(self.rules, self.lang, self.game.players, self.key_rows())
        self.app.push_screen(rules)

    def action_hint(self) -> None:
        if self.busy or self.game.is_over or self.game.to_act != self.viewer:
            self.say(self.w.t("tui.hint_none"), "yellow")
            return
        from ..bots import analyse

        game = self.game.clone()
        seat, token, ms = self.viewer, self.token, self.hint_ms
        self.say(self.w.t("tui.hint_running"), "yellow")

        def work() -> None:
            results: list[dict] | str
            try:
                results = analyse(game, seat, iterations=0, ms=ms)
            except Exception as exc:  # pragma: no cover - shown, not raised
                results = str(exc)
            try:
                self.app.call_from_thread(self._hint_done, token, results)
            except RuntimeError:
                pass

        self.run_worker(work, thread=True, group="hint", exit_on_error=False)

    def _chances(self, r: dict) -> str:
        """A hint's chance to win the hand, and the match where the edition plays one."""
        hand = round(100 * r["win_chance"])
        if r.get("match_chance") is None:
            return self.w.t("tui.win", p=hand)
        return self.w.t("tui.win_match", p=hand, m=round(100 * r["match_chance"]))

    def _hint_done(self, token: int, results) -> None:
        if token != self.token:
            return
        w = self.w
        if isinstance(results, str):
            self.say(results, "yellow")
            return
        pile = self.observation()["discard_pile"]
        items = [
            f"{w.action(r['action'], pile[-1] if pile else None)} ({self._chances(r)})"
            for r in results[:3]
            if r["win_chance"] is not None
        ]
        self.say(w.t("tui.hint", items=" · ".join(items) or w.action(results[0]["action"])), "yellow")


# ------------------------------------------------------------------------- apps
class MilleBornesApp(App):
    """``millebornes play``: the setup screen (unless a session is given), then the table."""

    CSS = CSS
    TITLE = "Mille Bornes"
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        session: PlaySession | None = None,
        lang: str = "en",
        pace: float = 1.0,
        seed: int | None = None,
        save_path=None,
        setup: dict | None = None,
        hint_ms: int = HINT_MS,
        unfinished: PlaySession | None = None,
    ):
        super().__init__()
        self.session = session
        self.lang = lang
        self.pace = pace
        self.seed = seed
        self.save_path = save_path
        self.setup = setup or {}
        self.hint_ms = hint_ms
        self.saved_to: Path | None = None
        self.unfinished = unfinished
        """The unfinished match at ``save_path`` that a new one would replace: asked about first."""
        self.kept = False
        """The player quit at that question, keeping the saved match."""

    def on_mount(self) -> None:
        if self.unfinished is not None and self.save_path is not None:
            ask = localized(UnfinishedScreen, self.lang)(self.unfinished, Path(self.save_path), self.lang)
            self.push_screen(ask, callback=self.answered)
        else:
            self.begin()

    def answered(self, choice: str | None) -> None:
        """The unfinished match goes on, is replaced by the new one, or stays as it is while the app quits."""
        saved, self.unfinished = self.unfinished, None
        if choice == RESUME:
            self.session = saved
            self.start()
        elif choice == REPLACE:
            self.begin()
        else:
            self.kept = True
            self.session = None  # nothing was played: nothing is saved over it
            self.exit(None)

    def begin(self) -> None:
        """The new match: the table given, or the setup screen first."""
        if self.session is not None:
            self.start()
        else:
            self.push_screen(localized(SetupScreen, self.lang)(self.lang, **self.setup), callback=self.configured)

    def configured(self, config: dict | None) -> None:
        if config is None:  # never: the setup screen is left by Enter, or by quitting the app
            return
        self.session = PlaySession.new(
            config["ruleset"],
            players=config["players"],
            teams=config["teams"],
            bots=config["bots"],
            seed=self.seed,
            save_path=self.save_path,
        )
        self.start()

    def start(self) -> None:
        self.push_screen(localized(GameScreen, self.lang)(self.session, self.lang, self.pace, self.hint_ms))

    @property
    def table(self) -> GameScreen | None:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen):
                return screen
        return None

    async def action_quit(self) -> None:
        if self.session is not None:
            self.saved_to = self.session.save()
        self.exit(self.saved_to)


class ReplayScreen(Reviewing, Screen):
    """Step through a record: every tableau, every hand (it is a replay), the move in words; with a review,
    the verdict on each reviewed move (:mod:`.reviewing`)."""

    BINDINGS = [
        Binding("right", "step(1)", "tui.key.next"),
        Binding("space", "step(1)", show=False),
        Binding("n", "step(1)", show=False),
        Binding("left", "step(-1)", "tui.key.back"),
        Binding("b", "step(-1)", show=False),
        Binding("pagedown", "step(10)", show=False, priority=True),
        Binding("pageup", "step(-10)", show=False, priority=True),
        Binding("home", "jump(0)", show=False, priority=True),
        Binding("end", "jump(-1)", show=False, priority=True),
        Binding("r", "review", "tui.key.review"),
        Binding("question_mark", "rules", "tui.key.rules"),
        Binding("m", "mistake(1)", "tui.key.mistake"),
        Binding("M", "mistake(-1)", show=False),
        Binding("v", "summary", "tui.key.summary"),
        Binding("a", "hands", "tui.key.hands", show=False),
        Binding("q", "app.quit", "tui.key.quit"),
    ]

    def __init__(
        self,
        record: dict,
        lang: str = "en",
        step: int = 0,
        review: dict | None = None,
        budget: int = DEFAULT_WORLDS,
        workers: int | None = None,
    ):
        super().__init__()
        from ..notation import replay

        self.replay = replay
        self.record = record
        self.lang = lang
        self.total = len(record["actions"])
        self.step = max(0, min(step, self.total))
        self.game = replay(record, upto=self.step)
        self.log_lines: list[str] = []
        self.all_hands: bool | None = None
        """Every hand, or the hand of the seat to act only; None: every hand where the terminal has room."""
        self.review_budget, self.review_workers = budget, workers
        if review is not None:
            self.set_review(review)

    def action_rules(self) -> None:
        """How to play this table's edition, over the table (the game waits behind it)."""
        self.app.push_screen(localized(RulesScreen, self.lang)(self.game.ruleset, self.lang, self.game.players))

    @property
    def w(self) -> Words:
        return Words(self.lang, self.game.players, self.game.teams, None)

    def compose(self) -> ComposeResult:
        yield from table_widgets(self.game.nsides)

    def on_mount(self) -> None:
        self.note(
            self.w.t("tui.replay_start")
            if self.step == 0
            else self.w.t("tui.replay_back", i=self.step, action=self.describe(self.step - 1))
        )
        self.draw()

    def note(self, line: str | None, badge: Text | None = None) -> None:
        if line:
            self.log_lines.append(line + (f" · {badge.plain}" if badge else ""))
            self.query_one("#log", RichLog).write(Text.assemble(line, *((" · ", badge) if badge else ())))

    def describe(self, i: int) -> str:
        action = self.record["actions"][i]
        g = self.replay(self.record, upto=i)
        top = g.discard_pile[-1] if g.discard_pile else None
        who = g.to_act
        assert who is not None  # action i of the record was someone's
        return self.w.t("tui.move", who=self.w.seat(who), action=self.w.action(action, top))

    def draw(self) -> None:
        g, w = self.game, self.w
        obs = g.observation(g.to_act if g.to_act is not None else 0)
        top = obs["discard_pile"][-1] if obs["discard_pile"] else None
        self.query_one("#status", Static).update(
            w.t(
                "tui.replay_status",
                i=self.step,
                n=self.total,
                edition=w.edition(obs["ruleset"]),
                hand=obs["hand_number"] + 1,
                stock=obs["stock_size"],
                discard=w.card(top) if top else w.t("pile.empty"),
            )
        )
        turn_side = None if g.turn is None else g.side_of(g.turn)
        for view in self.query(TableauView):
            view.show(obs, w, turn_side, "")
        hands = self.query_one(HandView)
        hands.words = w
        mover = g.to_act if g.to_act is not None else 0
        seats = range(g.players) if self.every_hand() else [mover]
        more = "" if len(seats) == g.players else f"   ({w.t('tui.hands_more')})"
        hands.show(
            [(f"{w.seat(s)}{' ▶' if s == g.to_act else ''}{more}", g.observation(s)["hand"], None, None) for s in seats]
        )
        self.query_one(PromptView).update(Text("\n").join(self.review_lines()))
        log_to_end(self)

    def action_step(self, n: int) -> None:
        self.review_message = None
        target = max(0, min(self.total, self.step + n))
        if target > self.step:
            for i in range(self.step, target):
                who = self.game.to_act
                events = self.game.act(self.record["actions"][i], who)
                assert who is not None  # act refuses a finished match
                lines = [self.w.event(e) for e in events]
                self.note(
                    f"{i + 1}. " + " · ".join(s for s in lines if s)
                    if any(lines)
                    else f"{i + 1}. "
                    + self.w.t("tui.move", who=self.w.seat(who), action=self.w.action(self.record["actions"][i])),
                    self.review_badge(i),
                )
            self.step = target
        elif target < self.step:
            self.step = target
            self.game = self.replay(self.record, upto=target)
            self.note(
                self.w.t("tui.replay_start")
                if target == 0
                else self.w.t("tui.replay_back", i=target, action=self.describe(target - 1))
            )
        self.draw()

    def every_hand(self) -> bool:
        """Whether every hand shows: by choice (key a), else where the terminal has the rows for them beside
        the status, the tableaux, the prompt and a few lines of log."""
        if self.all_hands is not None:
            return self.all_hands
        g = self.game
        rows = 2 + 5 * ((g.nsides + 1) // 2) + 2 * g.players + 1 + 2 + 4 + 1
        return rows <= self.app.size.height

    def action_hands(self) -> None:
        self.all_hands = not self.every_hand()
        self.draw()

    def on_resize(self) -> None:
        self.draw()

    def action_jump(self, where: int) -> None:
        self.action_step((self.total if where < 0 else 0) - self.step)


class ReplayApp(App):
    """``millebornes replay FILE``."""

    CSS = CSS
    TITLE = "Mille Bornes replay"
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        record: dict,
        lang: str = "en",
        step: int = 0,
        review: dict | None = None,
        budget: int = DEFAULT_WORLDS,
        workers: int | None = None,
    ):
        super().__init__()
        self.record, self.lang, self.step = record, lang, step
        self.options = {"review": review, "budget": budget, "workers": workers}
        if review is None and (workers or os.cpu_count() or 1) > 1:
            prepare_processes()

    def on_mount(self) -> None:
        self.push_screen(localized(ReplayScreen, self.lang)(self.record, self.lang, self.step, **self.options))
