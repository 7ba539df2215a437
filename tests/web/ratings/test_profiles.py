"""Profiles and leaderboards (docs/web-api.md, "Profiles and leaderboards"): each seat's counts from the engine's replay,
kept once when the match finishes (or when a profile first needs them), a profile's totals, ratings, graph and
games with their privacy, and the leaderboards' activity and provisional rules, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest

import millebornes as mb  # noqa: E402
from millebornes.web.ratings.stats_repo import Counts, count  # noqa: E402
from tests.util import game_with, stacked_deck

pytest.importorskip("fastapi")

from tests.conftest import Hasty, token_of  # noqa: E402
from tests.web.ratings.test_ratings import account, account_id  # noqa: E402

HUMAN, MEDIUM = {"kind": "human"}, {"kind": "bot", "level": "medium"}
RACE = ("play roll", "play 100", "play 75", "play 50", "play 25")
ONE_HAND = {"match_target": 100}
"""A classic match that ends with its first hand."""
RACER = {0: ["roll", "extra-tank", "100", "100", "100", "100"], 1: ["out-of-gas"]}
"""Seat 0 rolls, answers seat 1's Out of Gas with a coup fourré and races alone: seat 1 never rolls."""
RACER_STOCK = ["100"] * 8 + ["75"] * 10 + ["50"] * 10


class Script:
    """A chooser that plays ``RACE`` for whoever is to move, calls coup fourré, and extends or stops at the short
    target; seat 1's only play is its Out of Gas on seat 0 (seat 0 never attacks)."""

    def __init__(self, extend: bool = True):
        self.extend = extend

    def choice(self, actions: list[str]) -> str:
        for wanted in ("coup-fourre", "extend" if self.extend else "end-hand", "draw", *RACE, "play out-of-gas 0"):
            if wanted in actions:
                return wanted
        return next(a for a in actions if a.startswith("discard"))


def drive(game: mb.Game, chooser: Script) -> mb.Game:
    """Play the first hand with ``chooser`` for every seat."""
    while game.hand_number == 0 and not game.is_over:
        game.act(chooser.choice(game.legal_actions()))
    return game


def scored(game: mb.Game, item: str) -> list[int]:
    """The engine's own points for ``item`` in the first hand, per side."""
    return [b.get(item, 0) for b in game.hand_results[0]["breakdown"]]


# ---------------------------------------------------------------- the counts, from games built to make them
def test_a_coup_fourre_a_safe_trip_a_shutout_and_an_extension_made_are_counted():
    game = drive(game_with("classic", 2, hands=RACER, stock=RACER_STOCK, **ONE_HAND), Script(extend=True))
    result = game.hand_results[0]
    assert (result["completed"], result["extender"], result["distance"]) == (0, 0, [1000, 0])
    for item in ("coups_fourres", "safe_trip", "shutout", "extension"):  # the engine scored each for side 0
        assert scored(game, item)[0] > 0 and scored(game, item)[1] == 0, item
    assert count(game.record(), game.winners) == [
        Counts(won=True, coups_fourres=1, safe_trips=1, shutouts=1, extensions_taken=1, extensions_made=1, hands=1),
        Counts(won=False, hands=1),
    ]


def test_a_trip_stopped_at_the_short_target_is_a_trip_without_an_extension():
    game = drive(game_with("classic", 2, hands=RACER, stock=RACER_STOCK, **ONE_HAND), Script(extend=False))
    assert (game.hand_results[0]["completed"], game.hand_results[0]["extender"]) == (0, None)
    assert count(game.record(), game.winners)[0] == Counts(won=True, coups_fourres=1, safe_trips=1, shutouts=1, hands=1)


def test_an_extension_that_fails_is_taken_not_made():
    game = game_with("classic", 2, hands={0: ["roll"] + ["100"] * 5}, stock=["100", "end-of-limit", "100"], **ONE_HAND)
    drive(game, Script(extend=True))
    result = game.hand_results[0]
    assert (result["completed"], result["extender"]) == (None, 0) and scored(game, "extension") == [0, 200]
    assert game.winners == [0]  # its 700 miles still beat the 200 the failed extension gave the other side
    assert count(game.record(), game.winners)[0] == Counts(won=True, extensions_taken=1, hands=1)


def test_a_trip_with_a_200_is_not_safe_and_a_distance_opponent_is_no_shutout():
    game = game_with(
        "classic",
        2,
        hands={0: ["roll", "200", "100", "100", "100", "100"], 1: ["roll", "25"]},
        stock=["100", "end-of-limit", "gasoline"],
        **ONE_HAND,
    )

    class TwoHundred(Script):
        def choice(self, actions: list[str]) -> str:
            return "play 200" if "play 200" in actions else super().choice(actions)

    drive(game, TwoHundred(extend=False))
    result = game.hand_results[0]
    assert result["completed"] == 0 and result["distance"][1] == 25
    assert scored(game, "safe_trip") == [0, 0] and scored(game, "shutout") == [0, 0]
    assert count(game.record(), game.winners)[0] == Counts(won=True, hands=1)


def test_team_mates_share_their_sides_trips_and_each_keeps_its_own_coups_fourres():
    game = mb.new_game("classic", players=4, seed=11)
    while not game.is_over and game.hand_number < 2:
        actions = game.legal_actions()
        game.act("coup-fourre" if "coup-fourre" in actions else actions[0])
    counted = count(game.record(), game.winners)
    for a, b in ((0, 2), (1, 3)):
        shared = ("safe_trips", "shutouts", "extensions_taken", "extensions_made", "hands", "won")
        assert [getattr(counted[a], f) for f in shared] == [getattr(counted[b], f) for f in shared]
    events_cf = sum(1 for r in game.hand_results for b in r["breakdown"] if b.get("coups_fourres"))
    assert sum(c.coups_fourres for c in counted) >= events_cf


# ---------------------------------------------------------------- through the server
def stats_rows(web, table_id: str) -> list:
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from millebornes.web.ratings.stats_repo import SeatStatsRow

    with Session(web.app.state.db.engine) as s:
        return list(
            s.scalars(select(SeatStatsRow).where(SeatStatsRow.table_id == table_id).order_by(SeatStatsRow.seat))
        )


def scripted_match(web, names: tuple[str, str], public: bool = False) -> tuple[dict, dict, dict]:
    """The coup fourré, safe trip, shutout and extension game, played through the server by two accounts (made
    now, each claiming its seat); the create answer and the two accounts."""
    deck = stacked_deck(mb.ruleset("classic", **ONE_HAND), 2, RACER, RACER_STOCK)
    table = web.create(
        ruleset="classic", options=ONE_HAND, seats=[HUMAN, HUMAN], deck=deck, cf_timeout=30, public=public, seed=1
    )
    ann, bob = web.join(table, 0, "Ann"), web.join(table, 1, "Bob")
    made = tuple(
        account(web, name, [{"table": table["id"], "seat": seat, "token": token_of(table, seat)}])
        for seat, name in enumerate(names)
    )
    web.play_random([ann, bob], Script(extend=True))
    assert ann.state["status"] == "finished"
    return table, made[0], made[1]


def test_a_finished_game_is_counted_once_and_shown_on_both_players_profiles(web):
    web.start()
    table, ann, bob = scripted_match(web, ("ann_p", "bob_p"), public=True)
    rows = stats_rows(web, table["id"])  # written at the finish, before any profile asked
    assert [
        (r.seat, r.won, r.coups_fourres, r.safe_trips, r.shutouts, r.extensions_taken, r.extensions_made) for r in rows
    ] == [
        (0, True, 1, 1, 1, 1, 1),
        (1, False, 0, 0, 0, 0, 0),
    ]
    from millebornes.web.ratings.stats_repo import SeatStats

    assert SeatStats(web.app.state.db).settle(table["id"]) is False  # once

    me = web.client.get("/api/players/ANN_P").json()  # any case, by anybody
    assert me["username"] == "ann_p" and me["own"] is False and me["since"].endswith("Z")
    assert me["totals"] == {
        "games": 1,
        "won": 1,
        "coups_fourres": 1,
        "safe_trips": 1,
        "shutouts": 1,
        "extensions_taken": 1,
        "extensions_made": 1,
        "hands": 1,
    }
    [game] = me["games"]
    assert (game["table"], game["edition"], game["mine"], game["side"], game["result"], game["rated"]) == (
        table["id"],
        "classic",
        [0],
        0,
        "won",
        False,
    )
    assert [(s["seat"], s["nickname"], s["username"]) for s in game["seats"]] == [
        (0, "Ann", "ann_p"),
        (1, "Bob", "bob_p"),
    ]
    assert (game["replay"], game["review"]) == (f"/replay/{table['id']}", f"/replay/{table['id']}#review-panel")
    assert game["winners"] == [0] and game["scores"][0] > game["scores"][1] and me["next"] is None
    other = web.client.get("/api/players/bob_p").json()
    assert other["totals"] == {**dict.fromkeys(me["totals"], 0), "games": 1, "hands": 1}
    assert other["games"][0]["result"] == "lost"
    assert "token" not in str(me) and "token_hash" not in str(other)


def test_a_game_finished_before_the_counts_is_counted_when_a_profile_needs_it(web):
    from sqlalchemy import delete
    from sqlalchemy.orm import Session

    from millebornes.web.ratings.stats_repo import SeatStatsRow

    web.start()
    table, ann, _ = scripted_match(web, ("old_ann", "old_bob"), public=True)
    with Session(web.app.state.db.engine) as s, s.begin():
        s.execute(delete(SeatStatsRow))  # as a table finished before this version has none
    assert stats_rows(web, table["id"]) == []
    shown = web.client.get("/api/players/old_ann").json()
    assert shown["totals"]["coups_fourres"] == 1 and shown["uncounted"] == 0
    assert len(stats_rows(web, table["id"])) == 2


def test_a_private_game_is_listed_to_its_account_only_and_counted_for_everyone(web):
    web.start()
    private, ann, _ = scripted_match(web, ("priv_ann", "priv_bob"))
    web.stop()
    web.start()  # a new client: the accounts' sign-ins are kept, but this one is nobody's
    stranger = web.client.get("/api/players/priv_ann").json()
    assert stranger["games"] == [] and stranger["own"] is False
    assert stranger["totals"]["games"] == 1  # the numbers count it: no game is shown
    from fastapi.testclient import TestClient

    with TestClient(web.app) as c:
        c.post("/api/account/signin", json={"username": "priv_ann", "password": "correct horse battery"})
        own = c.get("/api/players/priv_ann").json()
        assert own["own"] is True and [g["table"] for g in own["games"]] == [private["id"]]
        assert own["games"][0]["public"] is False
        assert c.get("/api/players/priv_bob").json()["games"] == []  # signed in as someone else: a stranger


def test_a_rated_match_shows_on_the_profile_with_its_graph_and_hides_a_private_tables_id(web):
    web.start()
    table = web.create(ruleset="dujardin", seats=[HUMAN, MEDIUM], rated=True, seed=3)
    player = web.join(table, 0, "Ann")
    made = account(web, "rated_ann", [{"table": table["id"], "seat": 0, "token": token_of(table, 0)}])
    web.play_random([player], Hasty(3))
    stranger = web.client.get("/api/players/rated_ann").json()
    rating = stranger["ratings"]["dujardin"]
    assert rating["matches"] == 1 and rating["provisional"] is True
    [point] = stranger["graph"]["dujardin"]
    assert (point["before"], point["rating"], point["provisional"], point["table"]) == (
        1500,
        rating["rating"],
        True,
        None,
    )
    own = made["client"].get("/api/players/rated_ann").json()
    assert own["graph"]["dujardin"][0]["table"] == table["id"]
    [game] = own["games"]
    assert game["rated"] is True and game["rating"] == {"before": 1500, "after": rating["rating"]}
    assert [s["kind"] for s in game["seats"]] == ["human", "bot"] and game["seats"][1]["level"] == "medium"


def test_the_games_are_paged_newest_first_with_a_cursor(web):
    web.start()
    tables = []
    for seed in (21, 22, 23):
        table = web.create(ruleset="dujardin", seats=[HUMAN, MEDIUM], seed=seed, public=True)
        player = web.join(table, 0, "Ann")
        if not tables:
            made = account(web, "pager", [{"table": table["id"], "seat": 0, "token": token_of(table, 0)}])
        else:
            r = made["client"].get("/api/account").json()
            claim = made["client"].post(
                "/api/account/claim",
                json={"seats": [{"table": table["id"], "seat": 0, "token": token_of(table, 0)}]},
                headers={"X-CSRF-Token": r["csrf"]},
            )
            assert claim.status_code == 200, claim.text
        web.play_random([player], Hasty(seed))
        tables.append(table["id"])
    seen, url = [], "/api/players/pager?limit=2"
    while url:
        page = web.client.get(url).json()
        assert len(page["games"]) <= 2
        seen += [g["table"] for g in page["games"]]
        url = page["next"] and f"/api/players/pager?limit=2&before={page['next']}"
    assert seen == tables[::-1]
    assert web.client.get("/api/players/pager").json()["totals"]["games"] == 3


@pytest.mark.parametrize(
    "url, status, field",
    [
        ("/api/players/nobody_here", 404, None),
        ("/api/players/no%20such%20name", 404, None),
        ("/api/players/" + "x" * 300, 404, None),
        ("/api/players/bad_input?limit=0", 422, "limit"),
        ("/api/players/bad_input?limit=51", 422, "limit"),
        ("/api/players/bad_input?limit=two", 422, "limit"),
        ("/api/players/bad_input?before=not-a-cursor", 422, "before"),
        ("/api/players/bad_input?before=" + "A" * 300, 422, "before"),
        ("/api/leaderboard/chess", 404, None),
        ("/api/leaderboard/classic?limit=0", 422, "limit"),
        ("/api/leaderboard/classic?limit=101", 422, "limit"),
    ],
)
def test_bad_input_is_refused(web, url, status, field):
    web.start()
    account(web, "bad_input", [])
    r = web.client.get(url)
    assert r.status_code == status, r.text
    if field:
        assert r.json()["field"] == field


def test_a_deleted_account_has_no_profile(web):
    web.start()
    made = account(web, "gone_soon", [])
    csrf = made["client"].get("/api/account").json()["csrf"]
    r = made["client"].request(
        "DELETE", "/api/account", json={"password": "correct horse battery"}, headers={"X-CSRF-Token": csrf}
    )
    assert r.status_code == 200, r.text
    assert web.client.get("/api/players/gone_soon").status_code == 404


# ---------------------------------------------------------------- leaderboards
def rate(web, username: str, family: str, display: int, matches: int, sigma: float, days_ago: float) -> None:
    """Give the account ``username`` a rating in ``family`` as if its last rated match was ``days_ago``."""
    from sqlalchemy.orm import Session

    from millebornes.web.db.base import now
    from millebornes.web.ratings.repo import RatingRow
    from millebornes.web.ratings.skill import mu_of

    row = RatingRow(
        account_id=account_id(web, username),
        family=family,
        mu=mu_of(display),
        sigma=sigma,
        matches=matches,
        updated=now() - timedelta(days=days_ago),
    )
    with Session(web.app.state.db.engine) as s, s.begin():
        s.add(row)


def test_the_leaderboard_lists_active_settled_players_best_first_with_the_bots(web):
    from millebornes.web.ratings.skill import bot_anchors

    web.start()
    for name in ("top", "second", "tied", "idle", "fresh", "unsure", "parker_only"):
        account(web, name, [])
    rate(web, "top", "classic", 1720, 30, 2.0, 1)
    rate(web, "second", "classic", 1600, 12, 3.0, 29)
    rate(web, "tied", "classic", 1600, 15, 3.0, 2)
    rate(web, "idle", "classic", 1900, 40, 2.0, 31)  # no rated match for 31 days: off the board
    rate(web, "fresh", "classic", 1800, 9, 3.0, 1)  # provisional: fewer than 10 matches
    rate(web, "unsure", "classic", 1800, 20, 5.0, 1)  # provisional: sigma 5
    rate(web, "parker_only", "parker", 1650, 20, 2.0, 1)
    board = web.client.get("/api/leaderboard/classic").json()
    assert board["family"] == "classic" and board["active_days"] == 30
    assert [(p["rank"], p["username"], p["rating"], p["games"]) for p in board["players"]] == [
        (1, "top", 1720, 30),
        (2, "second", 1600, 12),
        (2, "tied", 1600, 15),
    ]
    assert {b["level"]: b["rating"] for b in board["bots"]} == bot_anchors("classic")
    assert [p["username"] for p in web.client.get("/api/leaderboard/parker").json()["players"]] == ["parker_only"]
    assert [p["username"] for p in web.client.get("/api/leaderboard/classic?limit=1").json()["players"]] == ["top"]
    assert web.client.get("/api/leaderboard/family").json()["players"] == []


# ---------------------------------------------------------------- PostgreSQL
@pytest.mark.postgres
def test_profiles_and_leaderboards_on_postgresql(web, fresh_postgres):
    web.start(url=fresh_postgres())
    assert web.app.state.db.engine.dialect.name == "postgresql"
    table, ann, _ = scripted_match(web, ("pg_ann", "pg_bob"))
    shown = ann["client"].get("/api/players/pg_ann").json()
    assert shown["totals"]["safe_trips"] == 1 and [g["table"] for g in shown["games"]] == [table["id"]]
    assert web.client.get("/api/players/pg_ann").json()["games"] == []
    rate(web, "pg_ann", "classic", 1650, 11, 2.0, 1)
    assert [p["username"] for p in web.client.get("/api/leaderboard/classic").json()["players"]] == ["pg_ann"]
