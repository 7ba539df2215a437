"""The web app: HTTP routes, the table WebSocket and the checks every client frame goes through.

``create_app(settings)`` builds the FastAPI app of docs/web.md.  Its lifespan opens the database,
replays every unfinished table (a restart resumes each exactly where it was, bots and countdowns
included) and at the end stops the rooms' tasks and the thinking processes.

A client frame passes, in order: the size limit, the schema (pydantic models with no extra
fields), the rate limit, then the room's own checks (the seat's turn, the state it acted on, the
engine).  Anything refused becomes an ``error`` frame and changes nothing.  Frames go out through
a queue per socket, so a slow reader never holds a room's lock.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import unicodedata
from collections import deque
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Annotated, Literal, Union

from fastapi import FastAPI, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, TypeAdapter, ValidationError

from .. import cards as C
from ..actions import IllegalAction
from ..bots import LEVELS
from ..rules import RULESETS, ruleset as get_ruleset
from ..state import new_game
from .room import Hall, Refused, Room, game_of, public_events, table_facts
from .settings import Limits, Settings
from .store import FINISHED, WAITING, SavedSeat, SavedTable, Store, hash_token, new_table_id, new_token, now
from .thinking import Thinker

log = logging.getLogger("millebornes.web")

STATIC = Path(__file__).parent / "static"
PAGES = {"home": "index.html", "table": "table.html", "replay": "replay.html"}
MAX_BODY = 64 * 1024

SUMMARY_FR = {
    "classic": "Le jeu américain (Parker) tel que le texte de l'encyclopédie le joue : les attaques s'empilent, "
               "on peut reprendre la défausse du dessus, tout adversaire du camp attaquant peut faire coup fourré",
    "parker": "Le jeu classique selon les règles imprimées Parker Brothers / Winning Moves : pas d'attaque sur une "
              "attaque, pas de reprise de la défausse, coup fourré par le camp attaqué seulement",
    "dujardin": "Le dépliant Dujardin 1954-2014 : une course à 1000 bornes exactement, seule la distance compte, "
                "une parade seule fait repartir la voiture",
    "family": "Les règles familiales françaises : une course à 1000 bornes exactement avec un compte de points "
              "simple, un feu vert après chaque réparation",
}


# ---------------------------------------------------------------- client frames
class _Frame(BaseModel):
    model_config = ConfigDict(extra="forbid")


class JoinFrame(_Frame):
    type: Literal["join"]
    seat: StrictInt
    token: Annotated[StrictStr, Field(max_length=128)]
    nickname: StrictStr | None = None


class ActFrame(_Frame):
    type: Literal["act"]
    action: Annotated[StrictStr, Field(min_length=1, max_length=40)]
    seq: StrictInt


class HintFrame(_Frame):
    type: Literal["hint"]


class PingFrame(_Frame):
    type: Literal["ping"]


CLIENT_FRAME = TypeAdapter(Annotated[Union[JoinFrame, ActFrame, HintFrame, PingFrame], Field(discriminator="type")])


def _words(exc: ValidationError) -> str:
    """A pydantic error in one line that names the field."""
    parts = []
    for e in exc.errors()[:3]:
        if e["type"] == "json_invalid":
            return "not a JSON object"
        if e["type"] == "union_tag_invalid":
            return "unknown frame type (join, act, hint or ping)"
        if e["type"] == "union_tag_not_found":
            return "a frame needs a \"type\""
        loc = ".".join(str(x) for x in e["loc"])
        parts.append(f"{loc}: {e['msg']}" if loc else e["msg"])
    return "; ".join(parts)


_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F)}


def clean_nickname(raw: str | None) -> str | None:
    """Stored as given once trimmed: 1-24 characters, no control or direction-changing characters.
    The pages show it with textContent, so nothing else needs escaping."""
    if raw is None:
        return None
    name = raw.strip()
    if not 1 <= len(name) <= 24:
        raise Refused("malformed", "nickname: 1 to 24 characters")
    if any(unicodedata.category(c) in ("Cc", "Zl", "Zp", "Cs") or c in _BIDI for c in name):
        raise Refused("malformed", "nickname: no control characters")
    return name


# ---------------------------------------------------------------- one socket
class Client:
    """One WebSocket of one browser: its seat once joined, its outgoing queue, its rate window."""

    def __init__(self, ws: WebSocket, limits: Limits):
        self.ws = ws
        self.limits = limits
        self.seat: int | None = None
        self.room: Room | None = None
        self.out: asyncio.Queue = asyncio.Queue()
        self.times: deque[float] = deque()
        self.closing = False
        self.hint_task: asyncio.Task | None = None

    def send(self, frame: dict) -> None:
        if self.closing:
            return
        if self.out.qsize() > 1000:
            log.warning("a client does not read its frames; closing it")
            self.close(1008)
            return
        self.out.put_nowait(frame)

    def error(self, code: str, message: str, action: str | None = None) -> None:
        frame = {"type": "error", "code": code, "message": message}
        if action is not None:
            frame["action"] = action
        self.send(frame)

    def close(self, code: int) -> None:
        if not self.closing:
            self.closing = True
            self.out.put_nowait(code)

    async def pump(self) -> None:
        """Send queued frames in order; an int in the queue closes the socket with that code."""
        try:
            while True:
                item = await self.out.get()
                if isinstance(item, int):
                    await self.ws.close(item)
                    return
                await self.ws.send_text(json.dumps(item, separators=(",", ":"), ensure_ascii=False))
        except Exception as exc:  # the socket went away; the reader sees it too
            log.debug("a socket stopped taking frames: %r", exc)

    async def receive(self) -> str | bytes | None:
        """The next frame's text (bytes for a binary frame), or None once the socket is gone."""
        msg = await self.ws.receive()
        if msg["type"] == "websocket.disconnect":
            return None
        text = msg.get("text")
        return text if text is not None else (msg.get("bytes") or b"")

    def read(self, data: str | bytes):
        """Size, schema, rate, in that order; a refused frame gets its error and None."""
        loop_time = asyncio.get_running_loop().time()
        self.times.append(loop_time)
        while self.times and self.times[0] <= loop_time - 1.0:
            self.times.popleft()
        size = len(data) if isinstance(data, bytes) or len(data) > self.limits.frame_bytes else len(data.encode())
        if size > self.limits.frame_bytes:
            self.error("too-large", f"a frame is at most {self.limits.frame_bytes} bytes")
            return None
        if isinstance(data, bytes):
            self.error("malformed", "frames are JSON text, not binary")
            return None
        try:
            frame = CLIENT_FRAME.validate_json(data)
        except ValidationError as exc:
            self.error("malformed", _words(exc))
            return None
        if len(self.times) > self.limits.frames_per_second:
            self.error("rate", f"more than {self.limits.frames_per_second} frames in a second")
            return None
        return frame


# ---------------------------------------------------------------- create a table
class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot"]
    level: Literal[tuple(LEVELS)] | None = None  # type: ignore[valid-type]


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ruleset: StrictStr
    options: dict = Field(default_factory=dict)
    players: StrictInt
    teams: StrictBool | None = None
    seats: Annotated[list[SeatSpec], Field(min_length=1, max_length=8)]
    cf_timeout: Annotated[float, Field(gt=0)] = 10.0
    deck: Annotated[list[StrictStr], Field(max_length=120)] | None = None
    seed: Annotated[StrictInt, Field(ge=0, lt=2**63)] | None = None


class Unprocessable(Exception):
    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message


def unprocessable(field: str, message: str) -> JSONResponse:
    return JSONResponse({"detail": f"{field}: {message}", "field": field}, status_code=422)


def check_table(body: CreateTable, settings: Settings) -> tuple:
    """The engine judges the edition, options, players, teams and deck; each refusal names its field."""
    if not settings.test_mode:
        for name in ("deck", "seed"):
            if getattr(body, name) is not None:
                raise Unprocessable(name, "a stacked deck or a chosen seed needs the server's --test-mode")
    if body.ruleset not in RULESETS:
        raise Unprocessable("ruleset", f"no edition {body.ruleset!r}; editions are: {', '.join(RULESETS)}")
    try:
        rules = get_ruleset(body.ruleset, **body.options)
    except (ValueError, TypeError) as exc:
        raise Unprocessable("options", str(exc)) from None
    seed = body.seed if body.seed is not None else secrets.randbelow(2**63)
    try:
        game = new_game(rules, players=body.players, teams=body.teams, seed=seed)
    except ValueError as exc:
        raise Unprocessable("players", str(exc)) from None
    if body.deck is not None:
        try:
            new_game(rules, players=body.players, teams=body.teams, seed=seed, deck=body.deck)
        except (ValueError, IllegalAction) as exc:
            raise Unprocessable("deck", str(exc)) from None
    if len(body.seats) != body.players:
        raise Unprocessable("seats", f"one seat per player: {body.players} seats, not {len(body.seats)}")
    if not any(s.kind == "human" for s in body.seats):
        raise Unprocessable("seats", "at least one seat is a human's")
    for i, s in enumerate(body.seats):
        if s.kind == "human" and s.level is not None:
            raise Unprocessable("seats", f"seat {i} is a human's: it has no level")
    if body.cf_timeout > settings.limits.cf_timeout_max:
        raise Unprocessable("cf_timeout", f"at most {settings.limits.cf_timeout_max:g} seconds")
    return game, seed


def editions() -> list[dict]:
    out = []
    for name, r in RULESETS.items():
        counts = sorted(set(r.solo_players) | set(r.team_players))
        out.append({"name": name, "summary": {"en": r.title, "fr": SUMMARY_FR.get(name, r.title)},
                    "players": counts, "teams": {str(n): r.default_teams(n) for n in counts},
                    "solo_players": list(r.solo_players), "team_players": list(r.team_players)})
    return out


def open_state(game) -> dict:
    """A replay's view: the public state with every hand shown (finished tables only)."""
    state = game.observation(0)
    for key in ("format", "seat", "side", "hand", "known_cards"):
        state.pop(key)
    state["hands"] = [game.hand(s) for s in range(game.players)]
    state["legal_actions"] = game.legal_actions()
    return state


# ---------------------------------------------------------------- the app
def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    limits = settings.limits

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        store = Store(settings.database_url, settings.sqlite_sync)
        thinker = Thinker(settings.workers)
        hall = Hall(store, settings, thinker)
        await hall.start()
        app.state.store, app.state.hall = store, hall
        try:
            yield
        finally:
            hall.close()
            thinker.close()
            store.close()

    app = FastAPI(title="millebornes", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.settings = settings

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError):
        e = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        loc = [str(x) for x in e.get("loc", ()) if x not in ("body", "query", "path")]
        field = loc[0] if loc else "body"
        return unprocessable(field, f"{'.'.join(loc[1:]) + ': ' if loc[1:] else ''}{e.get('msg')}")

    @app.middleware("http")
    async def _guard(request: Request, call_next):
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            return JSONResponse({"detail": f"a request body is at most {MAX_BODY} bytes"}, status_code=413)
        response = await call_next(request)
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response

    def page(name: str):
        path = STATIC / PAGES[name]
        if not path.is_file():
            return JSONResponse({"detail": f"{PAGES[name]} is missing from the package"}, status_code=404)
        return FileResponse(path, media_type="text/html")

    @app.get("/", include_in_schema=False)
    async def home():
        return page("home")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str):
        return page("table")

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str):
        return page("replay")

    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/healthz")
    async def healthz():
        return {"ok": True}

    @app.get("/api/cards")
    async def cards_list():
        return {"cards": [{"id": C.CARD_IDS[k], "group": C.GROUP[k], "en": C.NAMES_EN[k], "fr": C.NAMES_FR[k],
                           "value": C.VALUE[k]} for k in range(C.NUM_KINDS)]}

    @app.get("/api/editions")
    async def editions_list():
        return {"editions": editions(), "levels": list(LEVELS)}

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable):
        try:
            game, seed = check_table(body, settings)
        except Unprocessable as exc:
            return unprocessable(exc.field, exc.message)
        tokens, seats = {}, []
        for i, spec in enumerate(body.seats):
            if spec.kind == "human":
                tokens[i] = new_token()
                seats.append(SavedSeat(i, "human", token_hash=hash_token(tokens[i])))
            else:
                seats.append(SavedSeat(i, "bot", level=spec.level or "medium", joined=True))
        saved = SavedTable(id=new_table_id(), ruleset=body.ruleset, options=body.options, players=game.players,
                           teams=game.teams, seed=seed, deck=body.deck, cf_timeout=body.cf_timeout,
                           status=WAITING, created=now(), seats=seats)
        saved = await asyncio.to_thread(app.state.store.create, saved)
        app.state.hall.add(saved)
        out = []
        for s in seats:
            if s.kind == "human":
                out.append({"seat": s.seat, "kind": "human", "url": f"/t/{saved.id}#seat={s.seat}&token={tokens[s.seat]}"})
            else:
                out.append({"seat": s.seat, "kind": "bot", "level": s.level})
        return {"id": saved.id, "seats": out}

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str):
        room = app.state.hall.rooms.get(table_id)
        if room is not None:
            return room.facts()
        saved = await asyncio.to_thread(app.state.store.get, table_id)
        if saved is None:
            return JSONResponse({"detail": f"no table {table_id}"}, status_code=404)
        return table_facts(saved, game_of(saved), {})

    @app.get("/api/history")
    async def history(limit: int = 50):
        if not 1 <= limit <= limits.history_max:
            return unprocessable("limit", f"from 1 to {limits.history_max}")
        saved = await asyncio.to_thread(app.state.store.history, limit)
        return {"tables": [table_facts(t, game_of(t), {}) for t in saved]}

    @app.get("/api/tables/{table_id}/replay")
    async def replay_step(table_id: str, step: Annotated[int, Query(ge=0)] = 0):
        saved = await asyncio.to_thread(app.state.store.get, table_id, True)
        if saved is None or saved.status != FINISHED:
            return JSONResponse({"detail": f"no finished table {table_id}"}, status_code=404)
        total = len(saved.actions)
        if step > total:
            return unprocessable("step", f"this match has {total} steps")
        game = game_of(saved, max(0, step - 1))
        seat = action = None
        events: list[dict] = []
        if step:
            seat, action = saved.actions[step - 1]
            events = public_events(seat, action, game.act(action, seat))
        return {"step": step, "total": total, "action": action, "seat": seat, "events": events,
                "state": open_state(game)}

    @app.websocket("/ws/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str):
        await ws.accept()
        client = Client(ws, limits)
        pump = asyncio.create_task(client.pump())
        try:
            await converse(client, table_id)
        except Exception:
            log.exception("table %s: a connection failed", table_id)
            client.close(1011)
        finally:
            if client.room is not None:
                client.room.leave(client)
            if client.hint_task is not None:
                client.hint_task.cancel()
            if client.closing:
                with suppress(Exception):
                    await asyncio.wait_for(pump, 5)
            pump.cancel()

    async def converse(client: Client, table_id: str) -> None:
        hall: Hall = app.state.hall
        room = await hall.room(table_id)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limits.join_seconds
        while client.room is None:
            try:
                data = await asyncio.wait_for(client.receive(), max(0.0, deadline - loop.time()))
            except asyncio.TimeoutError:
                client.error("auth", f"send join within {limits.join_seconds:g} seconds")
                client.close(4401)
                return
            if data is None:
                return
            frame = client.read(data)
            if frame is None:
                continue
            if not isinstance(frame, JoinFrame):
                client.error("auth", "the first frame must be join")
                client.close(4401)
                return
            if room is None or not room.authenticate(frame.seat, frame.token):
                client.error("auth", "this link does not open that seat")
                client.close(4401)
                return
            try:
                await room.join(client, frame.seat, clean_nickname(frame.nickname))
            except Refused as r:
                client.error(r.code, r.message)
                continue
            client.room = room
        while not client.closing:
            data = await client.receive()
            if data is None:
                return
            frame = client.read(data)
            if frame is not None:
                await dispatch(client, room, frame)

    async def dispatch(client: Client, room: Room, frame) -> None:
        if isinstance(frame, PingFrame):
            client.send({"type": "pong"})
        elif isinstance(frame, ActFrame):
            try:
                await room.submit(client.seat, frame.action, frame.seq)
            except Refused as r:
                client.error(r.code, r.message, frame.action)
        elif isinstance(frame, HintFrame):
            if client.hint_task is not None and not client.hint_task.done():
                client.error("rate", "a hint is already being worked out")
                return
            try:
                room.check_turn(client.seat, None)
            except Refused as r:
                client.error(r.code, r.message)
                return
            client.hint_task = asyncio.create_task(send_hint(client, room))
        else:
            client.error("malformed", "already joined")

    async def send_hint(client: Client, room: Room) -> None:
        try:
            client.send(await room.hint(client.seat))
        except Refused as r:
            client.error(r.code, r.message)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: hint failed", room.id)
            client.error("server", "the hint could not be worked out")

    return app
