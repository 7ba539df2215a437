"""The Gymnasium ids of the environment, one per edition and table, registered when ``millebornes.env`` is imported.

The names follow Gymnasium's ``namespace/Name-vN``: ``millebornes/MilleBornes-v0`` is the default table
(classic, two players), and ``millebornes/<Edition>-<n>p-v0`` each table a preset allows, with the edition's
own choice of teams for that many players (``Classic-4p-v0`` is two teams of two); where the other choice is
allowed too, it has its own id with ``-teams`` or ``-solo`` (``Dujardin-4p-teams-v0``).  Keyword arguments of
``gymnasium.make`` reach :class:`~millebornes.env.single.MilleBornesGym` (``opponents``, ``seat``, ``reward``).

>>> ENV_IDS["millebornes/Classic-4p-v0"]
{'ruleset': 'classic', 'players': 4, 'teams': True}
>>> [i for i in ENV_IDS if i.startswith("millebornes/Dujardin-4p")]
['millebornes/Dujardin-4p-v0', 'millebornes/Dujardin-4p-teams-v0']

This module imports Gymnasium only inside :func:`register`, so the package imports without it.
"""

from __future__ import annotations

from typing import Any

from ..rules import RULESETS

DEFAULT_ID = "millebornes/MilleBornes-v0"
"""The id of the default table: classic, two players."""
ENTRY_POINT = "millebornes.env.single:MilleBornesGym"
"""The class Gymnasium builds for every id."""
VECTOR_ENTRY_POINT = "millebornes.env.vector:MilleBornesVectorEnv"
"""The class ``gymnasium.make_vec`` builds for every id with ``vectorization_mode="vector_entry_point"``."""


def _ids() -> dict[str, dict[str, Any]]:
    ids: dict[str, dict[str, Any]] = {DEFAULT_ID: {"ruleset": "classic", "players": 2}}
    for name, rules in RULESETS.items():
        for n in sorted(set(rules.solo_players) | set(rules.team_players)):
            usual = rules.default_teams(n)
            ids[f"millebornes/{name.capitalize()}-{n}p-v0"] = {"ruleset": name, "players": n, "teams": usual}
            if rules.allows(n, not usual):
                other = "solo" if usual else "teams"
                ids[f"millebornes/{name.capitalize()}-{n}p-{other}-v0"] = {
                    "ruleset": name,
                    "players": n,
                    "teams": not usual,
                }
    return ids


ENV_IDS = _ids()
"""Every registered id and the table it sets (the arguments it gives the environment)."""


def register() -> None:
    """Register every id of ``ENV_IDS`` with Gymnasium (once; Gymnasium must be installed)."""
    import gymnasium

    for env_id, kwargs in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=ENTRY_POINT, vector_entry_point=VECTOR_ENTRY_POINT, kwargs=kwargs)
