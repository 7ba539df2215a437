"""The turn facts of a state frame, without a server (web/tables/turn.py)."""

from millebornes.web.tables.turn import Turn


def test_a_decision_counts_from_its_step_and_the_clock_runs_out_at_its_end():
    turn = Turn(at=100.0)
    turn.step(3, at=101.0)
    assert turn.facts(1, at=103.04) == {"seat": 1, "for": 2.0, "left": None, "paused": None}
    assert not turn.run_out(1e9)
    turn.ends = 110.0
    assert turn.facts(1, at=104.0)["left"] == 6.0 and not turn.run_out(109.9) and turn.run_out(110.0)
    turn.step(3, at=105.0)  # the same step scheduled again: the same decision, its clock to be started again
    assert turn.since == 101.0 and turn.ends is None
    turn.step(4, at=106.0)
    assert turn.facts(0, at=120.0) == {"seat": 0, "for": 14.0, "left": None, "paused": None}


def test_a_clock_held_while_the_score_is_read_shows_its_whole_time_until_it_starts():
    turn = Turn(at=0.0)
    turn.step(7, at=10.0)
    turn.ends, turn.starts = 160.0, 130.0  # 120 s to read the score, then a 30 s clock
    assert turn.facts(1, at=12.0) == {"seat": 1, "for": 2.0, "left": 30.0, "paused": 118.0}
    assert not turn.run_out(159.9)
    assert turn.facts(1, at=140.0) == {"seat": 1, "for": 130.0, "left": 20.0, "paused": None}  # running since 130
    turn.step(8, at=150.0)
    assert turn.starts is None and turn.ends is None
