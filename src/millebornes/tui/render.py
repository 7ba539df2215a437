"""Rich text for the table: tableaux, hands, the status line and the score breakdown.

Everything here draws from one seat's observation (public tableaux, that seat's hand), never from
the game itself, so nothing hidden can reach the screen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.table import Table
from rich.text import Text

from ..cards import CARD_IDS, GROUP
from ..observation import Observation
from .words import Words

BAR_FULL, BAR_EMPTY = "█", "░"


def bar(distance: int, target: int, width: int) -> str:
    width = max(4, width)
    filled = min(width, round(width * distance / target)) if target else 0
    return BAR_FULL * filled + BAR_EMPTY * (width - filled)


def tableau_text(
    obs: Observation, side: int, w: Words, width: int, turn_side: int | None, kinds_line: str = ""
) -> Text:
    """Four short lines: title with score, distance bar, battle and speed tops, safeties."""
    t = obs["tableaux"][side]
    title = Text()
    title.append("▶ " if side == turn_side else "  ", style="bold yellow")
    title.append(w.side_title(side), style="bold")
    if w.viewer is not None and side == w.viewer % w.nsides:
        title.append(f" ({w.t('tui.you')})", style="bold cyan")
    if kinds_line:
        title.append(f" {kinds_line}", style="dim")
    title.append(" · " + w.n("tui.points", obs["match_scores"][side]))
    text = Text()
    text.append_text(title)
    text.append("\n")
    label = f" {w.num(t['distance'])}/{w.num(obs['target'])}"
    twos = f" 200×{t['two_hundreds']}" if t["two_hundreds"] else ""
    text.append(bar(t["distance"], obs["target"], width - len(label) - len(twos) - 1), style="green")
    text.append(label)
    text.append(twos, style="dim")
    text.append("\n")
    battle = t["battle"][-1] if t["battle"] else None
    speed = t["speed"][-1] if t["speed"] else None
    text.append(w.label(w.t("table.battle")) + " ")
    text.append(w.card(battle) if battle else w.t("tui.none"), style=_style(battle))
    text.append("  " + w.label(w.t("table.speed")) + " ")
    text.append(w.card(speed) if speed else w.t("tui.none"), style=_style(speed))
    text.append("\n")
    text.append(w.label(w.t("table.safeties")) + " ")
    if not t["safeties"]:
        text.append(w.t("tui.none"))
    for i, card in enumerate(t["safeties"]):
        if i:
            text.append(", ")
        text.append(w.card(card), style="bold magenta")
        if card in t["coups_fourres"]:
            text.append(" [CF]", style="bold red")
    return text


def _style(card: str | None) -> str:
    if card is None:
        return "dim"
    group = GROUP[CARD_IDS.index(card)]
    return "bold red" if group == "hazard" else "green" if group == "remedy" else ""


def hand_text(
    cards: list[str], w: Words, width: int, playable: set[str] | None = None, selected: int | None = None
) -> Text:
    """'1 Roll  2 75 miles ...' packed into lines of ``width`` without ever splitting a card."""
    text = Text()
    col = 0
    for i, card in enumerate(cards):
        label = f"{i + 1} {w.card(card)}"
        need = len(label) + (2 if col else 0)
        if col and col + need > width:
            text.append("\n")
            col = 0
        elif col:
            text.append("  ")
        style = "reverse bold" if i == selected else ("bold" if playable is None or card in playable else "dim")
        text.append(f"{i + 1}", style="bold cyan" if i != selected else style)
        text.append(f" {w.card(card)}", style=style)
        col += need if col else len(label)
    return text


def breakdown_table(result: Mapping[str, Any], match_scores: list[int], w: Words) -> Table:
    """The hand's points per side, item by item, as the edition counts them."""
    table = Table(box=None, padding=(0, 1), show_edge=False)
    table.add_column("")
    for side in range(len(result["points"])):
        table.add_column(w.side_title(side), justify="right")
    keys: list[str] = []
    for b in result["breakdown"]:
        for k in b:
            if k not in keys:
                keys.append(k)
    for k in keys:
        table.add_row(w.item(k), *(w.num(b.get(k, 0)) for b in result["breakdown"]))
    table.add_row(Text(w.t("over.total"), style="bold"), *(Text(w.num(p), style="bold") for p in result["points"]))
    table.add_row(w.t("over.match"), *(w.num(p) for p in match_scores))
    return table
