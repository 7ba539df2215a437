"""The bot protocol: a bot in any language plays through JSON lines on stdin and stdout.

The host (a tournament, an app) starts the bot as a process and writes one JSON object per line;
the bot answers one JSON object per line.  ``docs/protocol.md`` is the full description; in short::

    host -> bot  {"type": "hello", "protocol": "millebornes-bot/1", "seed": 7}
    bot -> host  {"type": "hello", "protocol": "millebornes-bot/1", "name": "heuristic", "version": "1.0.0"}
    host -> bot  {"type": "decide", "id": 1, "observation": {...}, "legal_actions": ["play 75"], "seconds_left": 9.5}
    bot -> host  {"type": "action", "id": 1, "action": "play 75"}
    host -> bot  {"type": "bye"}                       (the bot exits with status 0)

A request the bot cannot use gets ``{"type": "error", "id": <id or null>, "message": "..."}`` and
the bot goes on reading.  The messages as this module writes them are typed: :class:`HostHello`,
:class:`Decide` and :class:`Bye` from the host, :class:`BotHello`, :class:`ActionReply` and
:class:`ErrorReply` from the bot.

:func:`serve` is the bot side for the built-in bots (``millebornes bot NAME``), and
:class:`ExternalBot` is the host side: it looks like any other bot (``.name``, ``.choose``) but
asks a process.

>>> import io
>>> requests = io.StringIO(
...     '{"type": "hello", "protocol": "millebornes-bot/1", "seed": 3}\\n'
...     'this is not JSON\\n'
...     '{"type": "decide", "id": 1, "observation": {}, "legal_actions": ["draw"]}\\n'
...     '{"type": "bye"}\\n')
>>> answers = io.StringIO()
>>> serve("random", requests, answers)
0
>>> print(answers.getvalue(), end="")  # doctest: +ELLIPSIS
{"type": "hello", "protocol": "millebornes-bot/1", "name": "random", "version": "..."}
{"type": "error", "id": null, "message": "the request is not valid JSON: ..."}
{"type": "action", "id": 1, "action": "draw"}
"""

from __future__ import annotations

import json
import math
import os
import queue
import selectors
import shlex
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from typing import IO, Any, Literal, NoReturn, TextIO, TypedDict, TypeGuard, cast

from .bots import Bot
from .observation import Observation

PROTOCOL = "millebornes-bot/1"
"""The protocol and its version, as both hellos carry it."""
MAX_LINE = 1 << 20
"""The longest line either side accepts (characters for the server, bytes for the host)."""

STDERR_TAIL = 2000
"""How many characters of a failed bot's error output go into its BotError message."""

_SELECTABLE_PIPES = os.name != "nt"
"""Whether a process's pipes can wait in a selector: not on Windows, whose select() takes sockets only; there a
thread reads the bot's answers and each request is written by a thread of its own (see :class:`ExternalBot`)."""


# ---------------------------------------------------------------------------------------- messages
# docs/protocol.schema.json describes the same messages; tests/research/test_protocol.py checks they agree
class HostHello(TypedDict):
    """host -> bot, the first message of a session: the seed makes the bot's randomness the host's."""

    type: Literal["hello"]
    """Always ``"hello"``."""
    protocol: str
    """The protocol and version the host speaks."""
    seed: int
    """The seed of the bot's randomness, so a match can be played again the same."""


class _DecideRequest(TypedDict):
    type: Literal["decide"]
    """Always ``"decide"``."""
    id: int
    """The request's number, which the answer repeats."""
    observation: Observation
    """What the seat to act may see."""
    legal_actions: list[str]
    """What it may do: the answer must be one of them."""


class Decide(_DecideRequest, total=False):
    """host -> bot: choose one of ``legal_actions`` for the seat of ``observation``."""

    seconds_left: float
    """The seconds the host still waits for this answer (a bot may spend less on a short one); old bots ignore it."""


class Bye(TypedDict):
    """host -> bot: the session is over, the bot exits with status 0."""

    type: Literal["bye"]
    """Always ``"bye"``."""


class _BotHelloName(TypedDict):
    type: Literal["hello"]
    protocol: str
    name: str


# total=False rather than NotRequired: postponed annotations would hide NotRequired from __optional_keys__
class BotHello(_BotHelloName, total=False):
    """bot -> host, the answer to the host's hello: the name shown in tournament tables."""

    version: str
    """The bot's version, if it gives one."""


class ActionReply(TypedDict):
    """bot -> host, the answer to a decide request: one of its legal actions, copied exactly."""

    type: Literal["action"]
    """Always ``"action"``."""
    id: int
    """The number of the request answered."""
    action: str
    """The action chosen."""


class ErrorReply(TypedDict):
    """bot -> host: a request the bot could not use; ``id`` is None when the request had no usable one."""

    type: Literal["error"]
    """Always ``"error"``."""
    id: int | None
    """The number of the request refused, or None."""
    message: str
    """Why, in a line."""


HostMessage = HostHello | Decide | Bye
"""A message the host sends."""
BotMessage = BotHello | ActionReply | ErrorReply
"""A message the bot sends."""


class BotError(RuntimeError):
    """An external bot broke the protocol: it died, timed out, or answered something unusable."""


class RequestError(ValueError):
    """A request the server cannot answer; the message goes back in an error reply."""

    def __init__(self, message: str, id: int | None = None):
        super().__init__(message)
        self.id = id
        """The number of the request refused, or None when it had no usable one."""


# --------------------------------------------------------------------------------------- bot side
BotSource = str | Callable[[int], Bot] | Bot
"""What :func:`serve` plays: a bot spec, a function ``seed -> bot``, or a bot."""


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


class _Server:
    """The state of one served session: the bot (rebuilt on each hello seed when it comes from a spec)."""

    def __init__(self, bot: BotSource, seed: int):
        self.factory: Callable[[int], Bot] | None
        self.bot: Bot
        if isinstance(bot, str):
            from .bots import make_bot

            spec = bot
            self.factory = lambda s: make_bot(spec, s)
            self.bot = self.factory(seed)
        elif callable(bot) and not hasattr(bot, "choose"):
            self.factory = bot
            self.bot = bot(seed)
        else:
            self.factory = None
            self.bot = cast(Bot, bot)  # it has a choose

    def handle(self, line: str) -> tuple[BotMessage | None, bool]:
        """(the reply or None, whether to stop)."""
        try:
            request = json.loads(line)
        except ValueError as exc:
            raise RequestError(f"the request is not valid JSON: {exc}") from None
        if not isinstance(request, dict):
            raise RequestError(f"a request is a JSON object, not {_json_type(request)}")
        kind = request.get("type")
        if kind == "decide":
            return self.decide(request), False
        if kind == "hello":
            return self.hello(request), False
        if kind == "bye":
            return None, True
        rid = request.get("id") if _is_int(request.get("id")) else None
        if "type" not in request:
            raise RequestError('the request has no "type": say "hello", "decide" or "bye"', rid)
        raise RequestError(f'unknown request type {kind!r}: the types are "hello", "decide" and "bye"', rid)

    def hello(self, request: dict[str, Any]) -> BotHello:
        protocol = request.get("protocol", PROTOCOL)
        if protocol != PROTOCOL:
            raise RequestError(f"this bot speaks {PROTOCOL}, not {protocol!r}")
        if "seed" in request:
            seed = request["seed"]
            if not _is_int(seed):
                raise RequestError(f'"seed" must be an integer, not {_json_type(seed)}')
            if self.factory:
                self.bot = self.factory(seed)
        from . import __version__

        return {
            "type": "hello",
            "protocol": PROTOCOL,
            "name": str(getattr(self.bot, "name", "bot")),
            "version": __version__,
        }

    def decide(self, request: dict[str, Any]) -> ActionReply:
        rid = request.get("id")
        if not _is_int(rid):
            what = "is missing" if "id" not in request else f"must be an integer, not {_json_type(rid)}"
            raise RequestError(f'"id" of a decide request {what}')
        obs = request.get("observation")
        if not isinstance(obs, dict):
            what = "is missing" if "observation" not in request else f"must be an object, not {_json_type(obs)}"
            raise RequestError(f'"observation" {what}', rid)
        legal = request.get("legal_actions")
        if not isinstance(legal, list):
            what = "is missing" if "legal_actions" not in request else f"must be an array, not {_json_type(legal)}"
            raise RequestError(f'"legal_actions" {what}', rid)
        if not legal:
            raise RequestError('"legal_actions" is empty: there is nothing to choose', rid)
        for item in legal:
            if not isinstance(item, str):
                raise RequestError(f'"legal_actions" must hold strings only, not {_json_type(item)}', rid)
        try:
            action = self.bot.choose(cast(Observation, obs), list(legal))  # the host's word for its shape
        except Exception as exc:  # a bot must not take the server down with it
            raise RequestError(
                f"the bot could not decide from this request: {type(exc).__name__}: {exc}", rid
            ) from None
        if action not in legal:
            raise RequestError(f"the bot chose {action!r}, which is not among the legal actions", rid)
        return {"type": "action", "id": rid, "action": action}


def _read_line(stream: TextIO) -> tuple[str | None, bool]:
    """(one line or None at the end of input, whether it was too long and skipped)."""
    line = stream.readline(MAX_LINE + 1)
    if not line:
        return None, False
    if len(line) > MAX_LINE and not line.endswith("\n"):
        while True:  # skip the rest of the oversized line
            more = stream.readline(MAX_LINE)
            if not more or more.endswith("\n"):
                break
        return line, True
    return line, False


def serve(bot: BotSource, stdin: TextIO | None = None, stdout: TextIO | None = None, seed: int = 0) -> int:
    """Answer protocol requests from ``stdin`` on ``stdout`` until ``bye`` or the end of input.

    ``bot`` is a bot object (``.name``, ``.choose``), a spec for :func:`millebornes.bots.make_bot`
    (then every hello carrying a seed rebuilds the bot with that seed, so the host decides the
    randomness), or a function ``seed -> bot``.  ``seed`` is used until a hello brings one.
    Bad requests get error replies; the server never stops on them.  Returns the exit status, 0.
    """
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    server = _Server(bot, seed)

    def send(message: BotMessage) -> None:
        stdout.write(json.dumps(message) + "\n")
        stdout.flush()

    while True:
        line, too_long = _read_line(stdin)
        if line is None:
            return 0
        if too_long:
            send(
                {
                    "type": "error",
                    "id": None,
                    "message": f"the request line is longer than {MAX_LINE} characters and was skipped",
                }
            )
            continue
        if not line.strip():
            continue
        try:
            reply, stop = server.handle(line)
        except RequestError as exc:
            send({"type": "error", "id": exc.id, "message": str(exc)})
            continue
        if stop:
            return 0
        if reply is not None:
            send(reply)


def serve_stdio(bot: BotSource, seed: int = 0) -> int:
    """:func:`serve` on the process's own stdin/stdout, read and written as UTF-8.

    Anything the bot code itself prints goes to stderr, so stdout carries protocol lines only.
    """
    import io

    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace", newline="\n")
    out = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="\n", write_through=True)
    saved = sys.stdout
    sys.stdout = sys.stderr
    try:
        return serve(bot, stdin, out, seed=seed)
    except (BrokenPipeError, KeyboardInterrupt):
        return 1  # the host went away
    finally:
        sys.stdout = saved
        try:
            out.detach()
            stdin.detach()
        except (ValueError, OSError):
            pass


# -------------------------------------------------------------------------------------- host side
class ExternalBot:
    """A bot played by another process through the protocol; use it like any built-in bot.

    ``command`` is a command line (split with :func:`shlex.split`; on Windows passed whole to the system,
    which splits it as Windows programs do, backslashes in paths kept) or an argument list.  The
    process is started and greeted at once; ``name`` is the name it gives in its hello.  Each
    ``choose`` waits at most ``timeout`` seconds for the answer (the hello at most
    ``hello_timeout``, as starting an interpreter takes time).  Anything going wrong raises
    :class:`BotError`, stops the process, and every later ``choose`` raises too.

    ``stderr="capture"`` (the default) keeps the bot's error output in a temporary file and puts
    its end into BotError messages; ``stderr="inherit"`` passes it through.  No thread is used:
    answers are read with a selector, so an ExternalBot is safe inside worker processes.  Windows
    cannot select pipes: there a thread reads the answers and another writes each request (Windows
    starts worker processes afresh, never by fork, so the threads are safe there).  A line may end
    with CRLF, as a Windows program's text output does.
    ``close()`` (or ``with ExternalBot(...) as bot:``) says bye and ends the process.
    """

    def __init__(
        self,
        command: str | list[str],
        seed: int = 0,
        timeout: float = 10.0,
        *,
        hello_timeout: float = 30.0,
        stderr: str = "capture",
        cwd: str | None = None,
    ):
        if stderr not in ("capture", "inherit"):
            raise ValueError(f"stderr must be 'capture' or 'inherit', not {stderr!r}")
        argv: str | list[str]
        if isinstance(command, str):
            argv = command.strip() if os.name == "nt" else shlex.split(command)
        else:
            argv = [str(a) for a in command]
            command = shlex.join(argv)
        if not argv:
            raise ValueError("the bot command is empty")
        self.command = command
        """The command line that started the process."""
        self.name = self.command
        """The name the bot gave in its hello (the command until then)."""
        self.version: str | None = None
        """The version the bot gave in its hello, or None."""
        self.seed = seed
        """The seed sent in the hello."""
        self.timeout = timeout
        """The seconds each ``choose`` waits for the answer."""
        self._next_id = 0
        self._buffer = b""
        self._failure: str | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self.returncode: int | None = None
        """The process's exit status once closed (negative: killed by a signal), else None."""
        self._selector: selectors.BaseSelector | None = None
        self._chunks: queue.Queue[bytes] | None = None
        self._errfile = tempfile.TemporaryFile() if stderr == "capture" else None
        try:
            self._proc = proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._errfile if self._errfile is not None else None,
                cwd=cwd,
                bufsize=0,
            )
        except OSError as exc:
            self._close_files()
            raise BotError(f"could not start bot command {self.command!r}: {exc}") from None
        assert proc.stdin is not None and proc.stdout is not None  # both are pipes
        self._stdin: IO[bytes] = proc.stdin
        self._stdout: IO[bytes] = proc.stdout
        if _SELECTABLE_PIPES:
            os.set_blocking(self._stdin.fileno(), False)
            self._selector = selectors.DefaultSelector()
            self._selector.register(self._stdout, selectors.EVENT_READ)
        else:
            self._chunks = queue.Queue()
            threading.Thread(
                target=_pump, args=(os.dup(self._stdout.fileno()), self._chunks), name="bot-answers", daemon=True
            ).start()
        self._handshake(hello_timeout)

    # -- the public face ------------------------------------------------------------------
    def choose(
        self,
        observation: Observation,
        legal: list[str],
        *,
        timeout: float | None = None,
        seconds_left: float | None = None,
    ) -> str:
        """The process's answer to a decide request; BotError when it breaks the protocol.

        ``timeout``: the seconds this answer is waited for (default :attr:`timeout`); ``seconds_left``: the seconds
        the request tells the bot it has (default the wait, to a tenth and rounded down), which a host that keeps a
        margin back for itself (the online bridge, for the network) makes shorter than the wait."""
        wait = self.timeout if timeout is None else timeout
        told = wait if seconds_left is None else seconds_left
        if self._failure is not None:
            raise BotError(f"bot {self.name!r} was stopped after an earlier error: {self._failure}")
        if self._proc is None:
            raise BotError(f"bot {self.name!r} is closed")
        if not legal:
            raise ValueError("choose needs at least one legal action")
        self._next_id += 1
        rid = self._next_id
        request: Decide = {
            "type": "decide",
            "id": rid,
            "observation": observation,
            "legal_actions": list(legal),
            "seconds_left": max(0.0, math.floor(told * 10) / 10),
        }
        self._send(request, f"request {rid}")
        reply = self._receive(wait, f"request {rid}")
        kind = reply.get("type")
        if kind == "error":
            self._fail(f"answered request {rid} with an error: {reply.get('message')!r}")
        if kind != "action":
            self._fail(f"answered request {rid} with a message of type {kind!r} instead of an action")
        if not _is_int(reply.get("id")) or reply["id"] != rid:
            self._fail(f"answered request {rid} with the id {reply.get('id')!r}")
        action = reply.get("action")
        if not isinstance(action, str):
            self._fail(f"answered request {rid} with an action that is not a string: {action!r}")
        if action not in legal:
            self._fail(
                f"answered {action!r} which is not a legal action (request {rid}; legal: "
                f"{', '.join(legal[:8])}{', ...' if len(legal) > 8 else ''})"
            )
        return action

    @property
    def pid(self) -> int | None:
        """The process's id while it runs, else None."""
        return None if self._proc is None else self._proc.pid

    def close(self, grace: float = 1.0) -> None:
        """Say bye, give the process ``grace`` seconds to exit, then kill it; safe to call twice."""
        proc = self._proc
        if proc is not None:
            self._proc = None
            try:
                said_bye = False
                if proc.poll() is None and grace > 0:
                    said_bye = _write(self._stdin, b'{"type":"bye"}\n', time.monotonic() + min(grace, 0.5))
                if not said_bye and not _SELECTABLE_PIPES and proc.poll() is None:
                    proc.kill()  # a request may still be blocked writing into the pipe; closing it would wait for that
                try:
                    self._stdin.close()
                except OSError:
                    pass
                try:
                    proc.wait(timeout=grace)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
                self.returncode = proc.returncode
            finally:
                if self._selector is not None:
                    self._selector.close()
                    self._selector = None
                self._stdout.close()
        self._close_files()

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self) -> str:
        return f"ExternalBot({self.command!r}, name={self.name!r})"

    # -- the machinery --------------------------------------------------------------------
    def _handshake(self, timeout: float) -> None:
        self._send({"type": "hello", "protocol": PROTOCOL, "seed": self.seed}, "the hello")
        reply = self._receive(timeout, "the hello")
        if reply.get("type") == "error":
            self._fail(f"refused the hello: {reply.get('message')!r}")
        if reply.get("type") != "hello":
            self._fail(f"answered the hello with a message of type {reply.get('type')!r}")
        if reply.get("protocol") != PROTOCOL:
            self._fail(f"speaks protocol {reply.get('protocol')!r}, not {PROTOCOL!r}")
        name = reply.get("name")
        if isinstance(name, str) and name.strip():
            self.name = name.strip()
        version = reply.get("version")
        self.version = None if version is None else str(version)

    def _send(self, message: HostMessage, what: str) -> None:
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")
        if self._proc is None or not _write(self._stdin, data, time.monotonic() + self.timeout):
            self._fail(f"did not read {what}: {self._exit_words()}")

    def _receive(self, timeout: float, what: str) -> dict[str, Any]:
        """The next reply, parsed: any JSON object (the callers check its members)."""
        line = self._read_line(timeout, what)
        try:
            reply = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            self._fail(f"answered {what} with something that is not JSON: {_clip(line)!r}")
        if not isinstance(reply, dict):
            self._fail(f"answered {what} with JSON that is not an object: {_clip(line)!r}")
        return reply

    def _read_line(self, timeout: float, what: str) -> bytes:
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" in self._buffer:
                line, _, self._buffer = self._buffer.partition(b"\n")
                if line.strip():
                    return line.removesuffix(b"\r")
            if len(self._buffer) > MAX_LINE:
                self._fail(f"answered {what} with a line longer than {MAX_LINE} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                self._fail(f"did not answer {what} within {timeout:g} s")
            chunk = self._next_chunk(left)
            if chunk is None:
                continue
            if not chunk:
                self._fail(f"closed its output before answering {what}: {self._exit_words()}")
            self._buffer += chunk

    def _next_chunk(self, timeout: float) -> bytes | None:
        """The bot's next output (empty at its end), or None if it wrote nothing within ``timeout`` seconds."""
        if self._chunks is not None:
            try:
                return self._chunks.get(timeout=timeout)
            except queue.Empty:
                return None
        selector = self._selector
        assert selector is not None  # open while the process runs, and the caller checked it does
        if not selector.select(timeout):
            return None
        return os.read(self._stdout.fileno(), 65536)

    def _exit_words(self) -> str:
        proc = self._proc
        code = None
        if proc is not None:
            try:
                code = proc.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                code = None
        words = "the process is still running" if code is None else f"the process exited with status {code}"
        tail = self._stderr_tail()
        return words + (f"; the end of its error output:\n{tail}" if tail else "")

    def _stderr_tail(self) -> str:
        f = self._errfile
        if f is None:
            return ""
        try:
            f.flush()
            size = f.seek(0, os.SEEK_END)
            f.seek(max(0, size - STDERR_TAIL))
            return f.read().decode("utf-8", "replace").strip()
        except (OSError, ValueError):
            return ""

    def _fail(self, words: str) -> NoReturn:
        """Stop the process and raise BotError; the end of its error output is added when there is one."""
        self._failure = words
        message = f"bot {self.name!r} {words}"
        if "error output" not in words:
            tail = self._stderr_tail()
            if tail:
                message += f"\nthe end of its error output:\n{tail}"
        self.close(grace=0)  # a bot that broke the protocol gets no bye
        raise BotError(message)

    def _close_files(self) -> None:
        if self._errfile is not None:
            try:
                self._errfile.close()
            except OSError:
                pass
            self._errfile = None


def _write(stdin: IO[bytes], data: bytes, deadline: float) -> bool:
    """Write to the process's stdin without blocking past the deadline (a bot that stops reading
    fills the pipe); False if that failed."""
    if not _SELECTABLE_PIPES:
        return _write_in_thread(stdin, data, deadline)
    try:
        fd = stdin.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_WRITE)
            view = memoryview(data)
            while view:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                if sel.select(left):
                    try:
                        view = view[os.write(fd, view) :]
                    except BlockingIOError:
                        continue
    except (OSError, ValueError):
        return False
    return True


def _write_in_thread(stdin: IO[bytes], data: bytes, deadline: float) -> bool:
    """:func:`_write` where pipes cannot be selected: a thread writes, blocking, while the caller waits until the
    deadline. A write still blocked then fails the bot, whose process is killed, which ends the write.

    The thread writes through a duplicate of the pipe's descriptor that it closes itself: a thread still
    writing after the bot was closed must not find the number reused by the next bot's pipe."""
    written: list[bool] = []
    try:
        fd = os.dup(stdin.fileno())
    except (OSError, ValueError):
        return False

    def write() -> None:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            written.append(True)
        except OSError:
            written.append(False)
        finally:
            os.close(fd)

    writer = threading.Thread(target=write, name="bot-request", daemon=True)
    writer.start()
    writer.join(max(0.0, deadline - time.monotonic()))
    return written == [True]


def _pump(fd: int, chunks: queue.Queue[bytes]) -> None:
    """Pass the bot's output on as it comes, then an empty chunk at its end; ``fd`` is this thread's own
    duplicate of the pipe's descriptor, closed here (see :func:`_write_in_thread` for why)."""
    try:
        while chunk := os.read(fd, 65536):
            chunks.put(chunk)
    except OSError:
        pass
    finally:
        os.close(fd)
    chunks.put(b"")


def _clip(data: bytes, size: int = 200) -> str:
    text = data.decode("utf-8", "replace")
    return text if len(text) <= size else text[:size] + "..."


def main(argv: list[str] | None = None) -> int:
    """``python -m millebornes.protocol NAME [--seed S]``: serve a built-in bot (as ``millebornes bot``)."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m millebornes.protocol", description="Serve a built-in bot over the JSON-lines bot protocol."
    )
    parser.add_argument("name", help="a bot spec: random, heuristic, ismcts, easy ... expert, 'ismcts:ms=50'")
    parser.add_argument("--seed", "-s", type=int, default=0, help="the seed until a hello brings one")
    args = parser.parse_args(argv)
    from .bots import make_bot

    try:
        make_bot(args.name, args.seed)
    except ValueError as exc:
        parser.error(str(exc))
    return serve_stdio(args.name, args.seed)


if __name__ == "__main__":
    sys.exit(main())
