"""The guided first match on the web (POST /api/tutorial): a private table of the learner and the tutor where only
the lesson's move is taken, the lesson told in the learner's frames, the tutor playing its script, and the hand's score the last lesson and the
end of the match."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from millebornes.tutorial import LEARNER, LESSONS, SCRIPT  # noqa: E402


def test_the_guided_match_over_the_socket(web):
    web.start()
    r = web.client.post("/api/tutorial")
    assert r.status_code == 201
    made = r.json()
    facts = web.client.get(f"/api/tables/{made['id']}").json()
    assert facts["ruleset"] == "parker" and facts["public"] is False and facts["spectators"] is False
    token = made["url"].split("token=")[1]
    ann = web.connect(made["id"])
    ann.send({"type": "join", "seat": 0, "token": token, "nickname": "Ann"})
    ann.expect("welcome")
    ann.expect("state")
    learner = [(action, lesson) for seat, action, lesson in SCRIPT if seat == LEARNER]
    for k, (action, lesson) in enumerate(learner):
        while not ann.state["observation"]["legal_actions"]:
            ann.expect("state", timeout=30)
        assert ann.state["lesson"] == {"key": lesson, "n": k + 1, "total": len(LESSONS) + 1}
        if k == 1:  # legal, but not the lesson's: refused, nothing changes
            seq = ann.state["seq"]
            ann.act("play 200")
            error = ann.expect("error")
            assert error["code"] == "lesson" and error["reason"] == "not_this" and error["action"] == "play 200"
            ann.act("play repairs")  # the rules refuse it: the engine's reason
            error = ann.expect("error")
            assert error["code"] == "illegal" and error["reason"]
            assert ann.state["seq"] == seq
        seq = ann.state["seq"]
        ann.act(action)
        ann.state_after(seq, timeout=30)
    while ann.state["observation"]["hand_results"] == []:
        ann.expect("state", timeout=30)
    lesson = ann.state["lesson"]
    assert lesson["key"] == "score" and lesson["n"] == lesson["total"] == len(LESSONS) + 1
    result = ann.state["observation"]["hand_results"][0]
    assert result["distance"][LEARNER] == 700 and result["breakdown"][LEARNER]["coups_fourres"] == 300
    assert lesson["scored"] == [
        {"item": item, "points": points} for item, points in result["breakdown"][LEARNER].items() if points
    ]
    assert lesson["goal"] == 5000
    # the hand was the match: it is over, no second hand is dealt, and the table is finished
    obs = ann.state["observation"]
    assert obs["is_over"] and obs["hand_number"] == 0 and obs["to_act"] is None and not obs["legal_actions"]
    assert web.client.get(f"/api/tables/{made['id']}").json()["status"] == "finished"
    ann.act("play 25")
    assert ann.expect("error")["code"] == "finished"


def test_other_tables_have_no_lesson(web):
    web.start()
    t = web.create(seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    ann = web.join(t, 0, "Ann")
    assert "lesson" not in ann.state
