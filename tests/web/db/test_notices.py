"""The words of the notices between server processes: an upgrade runs two versions side by side, so they never change."""

from datetime import datetime

from millebornes.web.db import notices
from millebornes.web.db.notices import Kind


def test_a_notice_is_its_table_kind_origin_and_arguments_in_words():
    assert notices.encode("t1", Kind.PRESENCE, "p9", *notices.presence_args(2, True)) == "t1 presence p9 2 1"
    assert notices.encode(notices.NO_TABLE, Kind.ALIVE, "p9") == "- alive p9"
    heard = notices.decode("t1 said p9 3 nice")
    assert heard == notices.Notice("t1", "said", "p9", ["3", "nice"])
    assert notices.said_of(heard.args) == (3, "nice")
    assert notices.presence_of(notices.decode("t1 presence p9 2 0").args) == (2, False)


def test_an_action_notice_carries_its_row_with_the_action_words_last():
    clock = datetime(2026, 1, 2, 3, 4, 5)
    args = notices.action_args(6, 1, "play 25 0", clock)
    payload = notices.encode("t1", Kind.ACTION, "p9", *args)
    assert payload == "t1 action p9 7 1 2026-01-02T03:04:05 play 25 0"
    assert notices.action_row(notices.decode(payload).args) == (7, 1, "play 25 0", clock)
    assert notices.action_row(notices.action_args(0, 0, "draw", None)) == (1, 0, "draw", None)


def test_the_kinds_are_the_words_sent_before():
    assert [k.value for k in Kind] == [
        "action",
        "seats",
        "presence",
        "who",
        "said",
        "rematch",
        "expired",
        "alive",
        "undo",
        "challenge",
        "forfeit",
    ]
    assert notices.undo_of(notices.decode(notices.encode("t1", Kind.UNDO, "p9", *notices.undo_args(12, 0))).args) == (
        12,
        0,
    )
