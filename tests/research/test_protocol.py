"""The bot protocol: the server for built-in bots, ExternalBot on the host side, the example bots,
and the JSON Schemas in docs/ checked against real observations and messages."""

from __future__ import annotations

import io
import json
import random
import re
import sys
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import millebornes as mb
from millebornes import protocol as P
from millebornes.bots import make_bot
from millebornes.cli import app
from millebornes.protocol import MAX_LINE, PROTOCOL, BotError, ExternalBot, serve
from tests.schemas import load, validate

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
EXAMPLE = ROOT / "examples" / "external_bot.py"
GARBAGE = ROOT / "examples" / "garbage_bot.py"
CLI_RANDOM = [sys.executable, "-m", "millebornes.cli", "bot", "random"]


OBS_SCHEMA = load("observation.schema.json")
MSG_SCHEMA = load("protocol.schema.json")


def obs_errors(obs: dict) -> list[str]:
    return validate(obs, OBS_SCHEMA, OBS_SCHEMA)


def msg_errors(message: dict) -> list[str]:
    return validate(message, MSG_SCHEMA, MSG_SCHEMA)


# ------------------------------------------------------------------------------------- helpers
def play(game: mb.Game, bots: dict, check=None) -> int:
    """Play the match out, each seat's bot seeing its observation only; returns the decisions."""
    n = 0
    while not game.is_over:
        seat = game.to_act
        legal = game.legal_actions()
        obs = game.observation(seat)
        if check:
            check(obs)
        action = bots[seat].choose(obs, legal)
        assert action in legal, (seat, action, legal)
        game.act(action)
        n += 1
    return n


def serve_lines(lines: list, bot="random") -> list[dict]:
    """Send lines (dicts become JSON) to serve() and parse every reply line."""
    text = "".join((json.dumps(x) if isinstance(x, (dict, list)) else x) + "\n" for x in lines)
    out = io.StringIO()
    assert serve(bot, io.StringIO(text), out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def decide(rid, game: mb.Game | None = None, **changes) -> dict:
    game = game or mb.new_game("classic", seed=1)
    request = {
        "type": "decide",
        "id": rid,
        "observation": game.observation(game.to_act),
        "legal_actions": game.legal_actions(),
    }
    request.update(changes)
    return {k: v for k, v in request.items() if v is not ...}


@pytest.fixture(params=["selector", "threads"])
def pipes(request, monkeypatch) -> str:
    """Both ways the host talks to a bot process: a selector (POSIX), and threads (Windows, whose select() takes
    sockets only), the latter tried here on any system."""
    if request.param == "threads":
        monkeypatch.setattr(P, "_SELECTABLE_PIPES", False)
        monkeypatch.setattr(P.selectors, "DefaultSelector", None)  # any use of a selector fails the test
    return request.param


# ---------------------------------------------------------------------------------- handshake
def test_a_closed_bots_reader_thread_never_reads_the_next_bots_pipe(monkeypatch):
    """Where threads read the answers, a reader still running after its bot closed holds a descriptor of its own:
    preempted just before a read, it must not find the number reused by the next bot's pipe and take its hello."""
    monkeypatch.setattr(P, "_SELECTABLE_PIPES", False)
    real_read = P.os.read

    def preempted_read(fd: int, size: int) -> bytes:
        if threading.current_thread().name == "bot-answers":
            time.sleep(0.2)
        return real_read(fd, size)

    monkeypatch.setattr(P.os, "read", preempted_read)
    for _ in range(4):
        bot = ExternalBot([sys.executable, str(GARBAGE), "error"], hello_timeout=5)
        assert bot.name == "garbage-error"
        bot.close()
    for reader in [t for t in threading.enumerate() if t.name == "bot-answers"]:
        reader.join(5)  # each ends at its bot's end of output; the next test counts threads
        assert not reader.is_alive()


def test_handshake_names_the_bot_and_bye_ends_the_process_cleanly():
    threads = threading.active_count()
    bot = ExternalBot([sys.executable, "-m", "millebornes.protocol", "heuristic"], seed=4)
    assert bot.name == "heuristic"
    assert bot.version == mb.__version__
    g = mb.new_game("classic", seed=2)
    assert bot.choose(g.observation(0), g.legal_actions()) in g.legal_actions()
    bot.close()
    assert bot.returncode == 0  # it exited on bye, it was not killed
    assert threading.active_count() == threads  # no thread left behind
    bot.close()  # twice is fine
    with pytest.raises(BotError, match="bot 'heuristic' is closed"):
        bot.choose(g.observation(0), g.legal_actions())


def test_served_hello_and_replies_follow_the_message_schema():
    g = mb.new_game("parker", seed=3)
    replies = serve_lines(
        [{"type": "hello", "protocol": PROTOCOL, "seed": 9}, decide(1, g), "{", {"type": "bye"}, decide(2, g)]
    )
    assert [r["type"] for r in replies] == ["hello", "action", "error"]  # nothing after bye
    assert replies[0] == {"type": "hello", "protocol": PROTOCOL, "name": "random", "version": mb.__version__}
    assert replies[1]["id"] == 1 and replies[1]["action"] in g.legal_actions()
    for message in replies + [{"type": "hello", "protocol": PROTOCOL, "seed": 9}, decide(1, g), {"type": "bye"}]:
        assert msg_errors(message) == [], message
    assert msg_errors({"type": "action", "id": "1", "action": "draw"})  # the schema can fail
    assert msg_errors({"type": "decide", "id": 1, "observation": {}, "legal_actions": ["draw"]})


# ------------------------------------------------------------------------- the message types
HOST_TYPES = {"hello": P.HostHello, "decide": P.Decide, "bye": P.Bye}
BOT_TYPES = {"hello": P.BotHello, "action": P.ActionReply, "error": P.ErrorReply}


def _declared(kind) -> set[str]:
    return set(kind.__required_keys__ | kind.__optional_keys__)


def test_the_message_types_declare_the_members_of_the_schema():
    defs = MSG_SCHEMA["$defs"]
    named = {"host_hello": P.HostHello, "decide": P.Decide, "bye": P.Bye}
    named |= {"bot_hello": P.BotHello, "action": P.ActionReply, "error": P.ErrorReply}
    for name, kind in named.items():
        assert _declared(kind) == set(defs[name]["properties"]), name
        assert set(kind.__required_keys__) == set(defs[name]["required"]), name


def test_a_real_exchange_sends_exactly_the_declared_keys(monkeypatch):
    """Every line the host writes and the served bot answers, read off the pipes of a real session."""
    sent, received = [], []
    write, read_line = P._write, ExternalBot._read_line

    def spy_write(stdin, data, deadline):
        sent.append(json.loads(data))
        return write(stdin, data, deadline)

    def spy_read_line(self, timeout, what):
        line = read_line(self, timeout, what)
        received.append(json.loads(line))
        return line

    monkeypatch.setattr(P, "_write", spy_write)
    monkeypatch.setattr(ExternalBot, "_read_line", spy_read_line)
    g = mb.new_game("classic", seed=4)
    with ExternalBot([sys.executable, "-m", "millebornes.protocol", "random"], seed=2) as bot:
        for _ in range(3):
            g.act(bot.choose(g.observation(g.to_act), g.legal_actions()))
    received += serve_lines(["not JSON", {"type": "decide", "id": 7}])  # the server's error replies
    assert [m["type"] for m in sent] == ["hello", "decide", "decide", "decide", "bye"]
    assert [m["type"] for m in received] == ["hello", "action", "action", "action", "error", "error"]
    for message in sent:
        assert set(message) == _declared(HOST_TYPES[message["type"]]), message
    for message in received:
        assert set(message) == _declared(BOT_TYPES[message["type"]]), message


# ------------------------------------------------------------------------------- whole games
def test_a_whole_match_through_the_cli_bot_is_legal_and_uses_the_hosts_seed():
    with ExternalBot(CLI_RANDOM, seed=5) as external:
        assert external.name == "random"
        g = mb.new_game("classic", players=2, seed=11)
        n = play(g, {0: external, 1: make_bot("random", 6)})
    assert g.is_over and g.winners and max(g.match_scores) >= 5000
    assert external.returncode == 0
    # the served bot was seeded by the hello: the in-process random bot with seed 5 plays the same match
    again = mb.new_game("classic", players=2, seed=11)
    assert play(again, {0: make_bot("random", 5), 1: make_bot("random", 6)}) == n
    assert again.history == g.history


def test_the_example_external_bot_plays_full_matches_against_an_in_process_bot(pipes):
    with ExternalBot([sys.executable, str(EXAMPLE)], seed=1) as example:
        assert example.name == "example-external"
        g = mb.new_game("classic", players=2, seed=21)
        play(g, {0: make_bot("heuristic", 1), 1: example})
        assert g.is_over and g.winners
        # the same process in another match: 4 players in teams, two seats of one team
        g4 = mb.new_game("dujardin", players=4, teams=True, seed=22)
        heuristic = make_bot("heuristic", 2)
        play(g4, {0: example, 1: heuristic, 2: example, 3: heuristic})
        assert g4.is_over and g4.winners
    assert example.returncode == 0


# a bot that answers with the first legal action
TELLS_TIME = (
    "import json, sys\n"
    "for line in sys.stdin:\n"
    "    m = json.loads(line)\n"
    "    if m['type'] == 'hello':\n"
    "        print(json.dumps({'type': 'hello', 'protocol': 'millebornes-bot/1', 'name': 't'}), flush=True)\n"
    "    elif m['type'] == 'decide':\n"
    "        print(json.dumps({'type': 'action', 'id': m['id'], 'action': m['legal_actions'][0]}), flush=True)\n"
    "    else:\n"
    "        break\n"
)


def test_a_decide_tells_the_bot_its_seconds_left(monkeypatch):
    """The host's own timeout by default, to a tenth rounded down; a host keeping a margin back tells less than it
    waits."""
    sent = []
    write = P._write

    def spy(stdin, data, deadline):
        sent.append(json.loads(data))
        return write(stdin, data, deadline)

    monkeypatch.setattr(P, "_write", spy)
    g = mb.new_game("classic", seed=3)
    with ExternalBot([sys.executable, "-c", TELLS_TIME], timeout=7.25) as bot:
        assert isinstance(bot.pid, int)
        for wait, told in ((None, None), (3, 2.06), (4, None)):
            bot.choose(g.observation(g.to_act), g.legal_actions(), timeout=wait, seconds_left=told)
    assert bot.pid is None  # closed
    assert [m["seconds_left"] for m in sent if m["type"] == "decide"] == [7.2, 2.0, 4.0]
    for message in sent:
        assert msg_errors(message) == [], message


def test_the_example_bot_does_not_import_millebornes():
    source = EXAMPLE.read_text(encoding="utf-8")
    assert not re.search(r"^\s*(import|from)\s+millebornes", source, re.M)
    imports = set(re.findall(r"^(?:import|from)\s+(\w+)", source, re.M))
    assert imports <= set(sys.stdlib_module_names), imports


def test_the_example_bot_answers_bad_requests_with_errors():
    import subprocess

    lines = [
        "hello?",
        json.dumps([1]),
        json.dumps({"type": "decide", "id": 3, "observation": {}, "legal_actions": []}),
        json.dumps({"type": "decide", "id": 4, "observation": {}, "legal_actions": ["draw"]}),
        json.dumps({"type": "bye"}),
    ]
    done = subprocess.run(
        [sys.executable, str(EXAMPLE)], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["type"] for r in replies] == ["error", "error", "error", "action"]
    assert replies[2]["id"] == 3 and replies[3] == {"type": "action", "id": 4, "action": "draw"}


# ------------------------------------------------------------------------- malformed requests
def test_malformed_requests_get_error_replies_and_the_server_keeps_going():
    g = mb.new_game("classic", seed=1)
    legal = g.legal_actions()
    bad = [
        ("not json at all", None, "not valid JSON"),
        ([1, 2, 3], None, "JSON object, not an array"),
        ("42", None, "JSON object, not a number"),
        ({"id": 5}, 5, 'no "type"'),
        ({"type": "fly", "id": 6}, 6, "unknown request type 'fly'"),
        ({"type": 7}, None, "unknown request type 7"),
        (decide(..., g), None, '"id" of a decide request is missing'),
        (decide("8", g), None, '"id" of a decide request must be an integer, not a string'),
        (decide(True, g), None, "must be an integer, not a boolean"),
        (decide(9, g, observation=...), 9, '"observation" is missing'),
        (decide(10, g, observation=[1]), 10, '"observation" must be an object, not an array'),
        (decide(11, g, legal_actions=...), 11, '"legal_actions" is missing'),
        (decide(12, g, legal_actions="draw"), 12, "must be an array, not a string"),
        (decide(13, g, legal_actions=[]), 13, '"legal_actions" is empty'),
        (decide(14, g, legal_actions=["draw", 3]), 14, "strings only, not a number"),
        ({"type": "hello", "protocol": "millebornes-bot/99"}, None, "speaks millebornes-bot/1, not"),
        ({"type": "hello", "protocol": PROTOCOL, "seed": "x"}, None, '"seed" must be an integer'),
        ("x" * (MAX_LINE + 5), None, f"longer than {MAX_LINE} characters"),
    ]
    lines = []
    for request, _, _ in bad:
        lines += [request, "   ", decide(100, g)]  # blank lines are ignored; a good request follows each bad one
    replies = serve_lines(lines)
    assert len(replies) == 2 * len(bad)
    for (request, rid, words), error, action in zip(bad, replies[::2], replies[1::2]):
        assert error["type"] == "error" and error["id"] == rid, (request, error)
        assert words in error["message"], (words, error["message"])
        assert msg_errors(error) == []
        assert action["type"] == "action" and action["id"] == 100 and action["action"] in legal


def test_a_bot_that_fails_or_chooses_badly_gets_an_error_reply_not_a_crash():
    g = mb.new_game("classic", seed=1)

    class Clumsy:
        name = "clumsy"

        def __init__(self):
            self.calls = 0

        def choose(self, observation, legal):
            self.calls += 1
            if self.calls == 1:
                return observation["no such key"]
            if self.calls == 2:
                return "fly"
            return legal[-1]

    clumsy = Clumsy()
    replies = serve_lines([decide(1, g), decide(2, g), decide(3, g)], bot=clumsy)
    assert replies[0]["type"] == "error" and "KeyError" in replies[0]["message"] and replies[0]["id"] == 1
    assert replies[1]["type"] == "error" and "'fly'" in replies[1]["message"]
    assert replies[2] == {"type": "action", "id": 3, "action": g.legal_actions()[-1]}


def test_the_end_of_input_ends_the_server_with_status_zero():
    assert serve("random", io.StringIO(""), io.StringIO()) == 0
    out = io.StringIO()
    assert serve("random", io.StringIO('{"type": "hello", "protocol": "millebornes-bot/1"}'), out) == 0
    assert json.loads(out.getvalue())["type"] == "hello"  # a last line without a newline is still read


def test_the_served_process_survives_bytes_that_are_not_utf8():
    import subprocess

    data = b"\xff\xfe\x00 not text\n" + json.dumps({"type": "hello", "protocol": PROTOCOL}).encode() + b"\n"
    data += b'{"type": "bye"}\n'
    done = subprocess.run(
        [sys.executable, "-m", "millebornes.protocol", "random"], input=data, capture_output=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert [r["type"] for r in replies] == ["error", "hello"]


def test_the_cli_refuses_an_unknown_bot():
    result = CliRunner().invoke(app, ["bot", "grandmaster"])
    assert result.exit_code != 0
    assert "no bot 'grandmaster'" in result.output


# ---------------------------------------------------------------------------- broken bots
GARBAGE_CASES = [
    ("illegal", "answered 'fly' which is not a legal action"),
    ("json", "answered request 1 with something that is not JSON: 'vroom vroom'"),
    ("id", "answered request 1 with the id 1001"),
    ("error", "answered request 1 with an error: 'I do not feel like playing'"),
    ("exit", "exited with status 3; the end of its error output:\ngarbage bot: giving up on purpose"),
    ("silent", "did not answer request 1 within 0.5 s"),
    ("long", f"answered request 1 with a line longer than {MAX_LINE} bytes"),
]


@pytest.mark.parametrize("mode, words", GARBAGE_CASES)
def test_a_garbage_bot_raises_bot_error_with_a_clear_message(mode, words, pipes):
    bot = ExternalBot([sys.executable, str(GARBAGE), mode], timeout=0.5)
    assert bot.name == f"garbage-{mode}"
    g = mb.new_game("classic", seed=1)
    with pytest.raises(BotError) as caught:
        bot.choose(g.observation(0), g.legal_actions())
    assert isinstance(caught.value, RuntimeError)
    assert str(caught.value).startswith(f"bot 'garbage-{mode}' ")
    assert words in str(caught.value)
    assert bot.returncode is not None  # the process is gone, not left running
    with pytest.raises(BotError, match="stopped after an earlier error"):
        bot.choose(g.observation(0), g.legal_actions())


def test_a_bot_that_exits_before_the_hello_or_cannot_start_raises_bot_error():
    with pytest.raises(
        BotError,
        match=r"closed its output before answering the hello: the process exited "
        r"with status 2; the end of its error output:\nno thanks",
    ):
        ExternalBot([sys.executable, "-c", "import sys; sys.stderr.write('no thanks'); sys.exit(2)"])
    with pytest.raises(BotError, match="answered the hello with a message of type 'action'"):
        ExternalBot([sys.executable, str(GARBAGE), "nohello"])
    with pytest.raises(BotError, match="could not start bot command"):
        ExternalBot("./there-is-no-such-bot --fast")


def test_a_bot_that_stops_reading_is_failed_when_the_request_cannot_be_written(pipes):
    """A request larger than the pipe holds, to a bot that never reads again: the write gives up at the timeout and
    the bot's process is killed, whichever way the host writes (on Windows a blocked write would otherwise hold the
    pipe, and the host with it, until the bot exits)."""
    script = (
        "import json, sys, time\n"
        "m = json.loads(sys.stdin.readline())\n"
        "print(json.dumps({'type': 'hello', 'protocol': m['protocol'], 'name': 'deaf'}), flush=True)\n"
        "time.sleep(60)\n"
    )
    bot = ExternalBot([sys.executable, "-c", script], timeout=1.0)
    g = mb.new_game("classic", seed=1)
    observation = dict(g.observation(0), padding="x" * (4 << 20))  # ExternalBot sends any JSON it is given
    start = time.monotonic()
    with pytest.raises(BotError, match="'deaf' did not read request 1: the process is still running"):
        bot.choose(observation, g.legal_actions())
    assert time.monotonic() - start < 10
    assert bot.returncode is not None


def test_answers_may_end_lines_with_crlf_as_windows_text_output_does(pipes):
    """The hello and an action end with CRLF and are read; a line that is not JSON is quoted without its CR."""
    script = (
        "import json, sys\n"
        "def send(text):\n"
        "    sys.stdout.buffer.write(text.encode() + b'\\r\\n')\n"
        "    sys.stdout.buffer.flush()\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        "        send(json.dumps({'type': 'hello', 'protocol': m['protocol'], 'name': 'crlf'}))\n"
        "    elif m['id'] == 1:\n"
        "        send(json.dumps({'type': 'action', 'id': 1, 'action': m['legal_actions'][0]}))\n"
        "    else:\n"
        "        send('vroom')\n"
    )
    bot = ExternalBot([sys.executable, "-c", script])
    assert bot.name == "crlf"
    g = mb.new_game("classic", seed=2)
    assert bot.choose(g.observation(0), g.legal_actions()) == g.legal_actions()[0]
    with pytest.raises(BotError) as caught:
        bot.choose(g.observation(0), g.legal_actions())
    assert str(caught.value).endswith("answered request 2 with something that is not JSON: 'vroom'")


def test_a_bot_that_exits_in_the_middle_of_a_match_raises_bot_error():
    script = (
        "import json, sys\n"
        "for n, line in enumerate(sys.stdin):\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'hello', 'protocol': m['protocol'], 'name': 'quitter'}), flush=True)\n"
        "    elif n > 3:\n"
        "        sys.exit(0)\n"
        "    else:\n"
        "        print(json.dumps({'type': 'action', 'id': m['id'], 'action': m['legal_actions'][0]}),"
        " flush=True)\n"
    )
    bot = ExternalBot([sys.executable, "-c", script])
    g = mb.new_game("family", seed=3)
    with pytest.raises(
        BotError, match="'quitter' closed its output before answering request 4: the process exited with status 0"
    ):
        play(g, {0: bot, 1: bot})


# ----------------------------------------------------------------------- observation schema
def test_the_schema_lists_exactly_the_keys_of_an_observation():
    obs = mb.new_game("classic", seed=1).observation(0)
    assert set(OBS_SCHEMA["required"]) == set(OBS_SCHEMA["properties"]) == set(obs)
    assert OBS_SCHEMA["additionalProperties"] is False
    assert OBS_SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    defs = OBS_SCHEMA["$defs"]
    assert set(defs["options"]["properties"]) == set(obs["options"])
    assert set(defs["scoring"]["properties"]) == set(obs["options"]["scoring"])
    assert set(defs["tableau"]["properties"]) == set(obs["tableaux"][0])
    assert defs["card"]["enum"] == list(mb.CARD_IDS)


def test_the_schema_refuses_observations_that_are_wrong():
    obs = mb.new_game("classic", seed=1).observation(0)
    assert obs_errors(obs) == []
    broken = [
        dict(obs, hand=obs["hand"] + ["joker"]),
        dict(obs, seat="0"),
        dict(obs, secret_stock=[]),
        {k: v for k, v in obs.items() if k != "tableaux"},
        dict(obs, tableaux=[dict(obs["tableaux"][0], distance=30)] + obs["tableaux"][1:]),
        dict(obs, legal_actions=["play stop"]),
        dict(obs, decision="think"),
        dict(obs, options=dict(obs["options"], match_target="5000")),
        dict(obs, pending_attack={"attacker": 1, "hazard": "roll", "side": 0}),
    ]
    for wrong in broken:
        assert obs_errors(wrong), wrong


@pytest.mark.parametrize(
    "rules, players, teams, games",
    [
        ("classic", 2, None, 1),
        ("classic", 4, True, 1),
        ("parker", 2, None, 1),
        ("parker", 3, None, 1),
        ("dujardin", 2, None, 4),
        ("dujardin", 4, True, 2),
        ("family", 2, None, 4),
        ("family", 5, None, 2),
    ],
)
def test_every_observation_of_whole_games_validates_against_the_schema(rules, players, teams, games):
    decisions = 0
    for i in range(games):
        g = mb.new_game(rules, players=players, teams=teams, seed=100 + i)
        rng = random.Random(i)
        while not g.is_over:
            # every seat's view, at every decision of a one-race game; every third decision of a match
            if g.ruleset.match_target is None or decisions % 3 == 0:
                for seat in range(players):
                    errors = obs_errors(g.observation(seat))
                    assert errors == [], (seat, g.history[-3:], errors[:5])
            g.act(rng.choice(g.legal_actions()))
            decisions += 1
        for seat in range(players):
            final = g.observation(seat)
            assert final["is_over"] and obs_errors(final) == []
    assert decisions > 50


@pytest.mark.parametrize(
    "rules, kind",
    [
        ("classic", "draw"),
        ("classic", "coup-fourre"),
        ("classic", "extension"),
        ("parker", "coup-fourre"),
        ("family", "coup-fourre"),
    ],
)
def test_observations_during_every_kind_of_decision_validate(rules, kind):
    """Random games stop at the first decision of this kind; every seat's view of it validates."""
    for seed in range(200):
        g = mb.new_game(rules, players=2, seed=seed)
        rng = random.Random(seed)
        while not g.is_over and g.decision != kind:
            g.act(rng.choice(g.legal_actions()))
        if g.decision == kind:
            break
    assert g.decision == kind
    for seat in range(2):
        obs = g.observation(seat)
        assert obs["decision"] == kind and obs_errors(obs) == []
        assert (obs["pending_attack"] is not None) == (kind == "coup-fourre")
    assert g.observation(g.to_act)["legal_actions"] == g.legal_actions()


def test_the_example_exchange_in_the_docs_is_what_the_server_answers():
    text = (DOCS / "protocol.md").read_text(encoding="utf-8")
    block = text.split("## A full example exchange", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    sent = [line[2:] for line in block.splitlines() if line.startswith("> ")]
    shown = [json.loads(line[2:]) for line in block.splitlines() if line.startswith("< ")]
    out = io.StringIO()
    assert serve("heuristic", io.StringIO("\n".join(sent) + "\n"), out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == len(shown)
    for answer, doc in zip(answers, shown):
        assert msg_errors(doc) == [], doc
        if doc["type"] == "action":  # which legal action the heuristic picks may change as it improves
            request = json.loads(sent[1])
            assert answer["type"] == "action" and answer["id"] == doc["id"]
            assert answer["action"] in request["legal_actions"] and doc["action"] in request["legal_actions"]
            assert obs_errors(request["observation"]) == []
        else:
            assert answer == dict(doc, version=mb.__version__) if doc["type"] == "hello" else answer == doc
