"""What one server process counts for Prometheus, served on a port of its own (``serve --metrics-port``).

The public app never serves ``/metrics``: :func:`serve` starts prometheus_client's small HTTP server on
another port, in a thread, so the operator's scraper reaches it and the players (behind the proxy) do not.
Off unless asked for; the counting itself is always on (a few increments a move).

``millebornes serve`` is one process (uvicorn runs no worker processes of its own; the thinking processes
count nothing), so the plain in-process registry is right and prometheus_client's multiprocess mode is not
needed: several serving processes each have their own port, and the scraper adds them up.

The hooks (:func:`moved`, :func:`move_took`, :func:`refused`, :func:`thinking`, :func:`reviewed`) are called
from the room, the socket, the thinking pool and the reviewer; what is merely *there* (sockets, rooms, reviews
running) is read from the app's objects when a scrape asks, by :class:`Live`.
"""

from __future__ import annotations

import logging
import time
from concurrent.futures import Future

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    disable_created_metrics,
    start_http_server,
)
from prometheus_client.core import GaugeMetricFamily

from ..documentation import address

disable_created_metrics()  # a *_created series beside every counter says only when the process started
REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)
GCCollector(registry=REGISTRY)

SIGNIN_OUTCOMES = ("password", "passkey", "wrong", "waiting", "disabled")
MOVES = Counter(
    "millebornes_moves",
    "Actions this process wrote to the database, by who decided them "
    "(person: a player at the table; bot: a bot, a stand-in or a window's answer)",
    ["mover"],
    registry=REGISTRY,
)
MOVE_SECONDS = Histogram(
    "millebornes_move_seconds",
    "From a move submitted (a player's frame read, a bot's "
    "choice made) to its frames queued for every socket: the table's lock, the save and "
    "the frames",
    ["mover"],
    registry=REGISTRY,
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
REFUSALS = Counter(
    "millebornes_refusals",
    f"Error frames sent on table sockets, by code ({address('web.md')})",
    ["code"],
    registry=REGISTRY,
)
HTTP = Counter("millebornes_http_responses", "HTTP responses of the app, by status code", ["status"], registry=REGISTRY)
LOGGED_ERRORS = Counter(
    "millebornes_logged_errors",
    "Log records at ERROR or worse (failures the server caught and logged, uvicorn's included), by logger",
    ["logger"],
    registry=REGISTRY,
)
THINKING = Gauge(
    "millebornes_thinking_in_flight",
    "Work handed to a thinking pool and not done yet (waiting for a worker or being worked out), by pool",
    ["pool"],
    registry=REGISTRY,
)
THINK_SECONDS = Histogram(
    "millebornes_thinking_seconds",
    "From work handed to a thinking pool to its answer (the wait for a worker included), by pool",
    ["pool"],
    registry=REGISTRY,
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)
REVIEWS = Counter(
    "millebornes_reviews",
    "Game reviews this process started, finished and saved, or saw fail",
    ["outcome"],
    registry=REGISTRY,
)
SIGNINS = Counter(
    "millebornes_signins",
    "Sign-in attempts by outcome: a password or passkey that opened a sign-in, a wrong password, one refused while its "
    "guesser waits, a disabled account",
    ["outcome"],
    registry=REGISTRY,
)
for _outcome in SIGNIN_OUTCOMES:
    SIGNINS.labels(_outcome)
for _pool in ("bots", "hints", "reviews"):
    THINKING.labels(_pool)
for _outcome in ("started", "done", "failed"):
    REVIEWS.labels(_outcome)
for _mover in ("person", "bot"):
    MOVES.labels(_mover)


def moved(mover: str) -> None:
    """One action written by this process."""
    MOVES.labels(mover).inc()


def move_took(mover: str, since: float) -> None:
    """A submitted move is saved and told: ``since`` is its ``time.perf_counter()`` at submission."""
    MOVE_SECONDS.labels(mover).observe(time.perf_counter() - since)


def refused(code: str) -> None:
    REFUSALS.labels(code).inc()


def responded(status: int) -> None:
    HTTP.labels(str(status)).inc()


def reviewed(outcome: str) -> None:
    REVIEWS.labels(outcome).inc()


def signed_in(outcome: str) -> None:
    """One sign-in attempt's outcome, one of ``SIGNIN_OUTCOMES``."""
    SIGNINS.labels(outcome).inc()


def thinking(pool: str, future: Future) -> None:
    """Count ``future`` in its pool's work in flight until it is done, then its time."""
    start = time.perf_counter()
    gauge = THINKING.labels(pool)
    gauge.inc()

    def done(_: Future) -> None:
        gauge.dec()
        THINK_SECONDS.labels(pool).observe(time.perf_counter() - start)

    future.add_done_callback(done)


class ErrorCounter(logging.Handler):
    """A logging handler that counts the records it sees (set at level ERROR in the logging config)."""

    def emit(self, record: logging.LogRecord) -> None:
        LOGGED_ERRORS.labels(record.name).inc()


class Live:
    """Gauges read from the apps this process serves when a scrape asks: sockets by role, rooms in memory,
    reviews being worked out here.  The scrape runs in the metrics server's thread; it only takes lengths and
    copies of the apps' dicts (each a single step under the GIL) and reads attributes, and changes nothing."""

    def __init__(self) -> None:
        self.apps: list = []

    def collect(self):
        sockets = GaugeMetricFamily(
            "millebornes_sockets", "Table WebSockets open, by role (joining: before its join or watch)", labels=["role"]
        )
        rooms = GaugeMetricFamily("millebornes_rooms", "Tables held in memory (rooms)")
        running = GaugeMetricFamily("millebornes_reviews_running", "Game reviews being worked out here")
        roles = {"player": 0, "spectator": 0, "joining": 0}
        n_rooms = n_reviews = 0
        for app in tuple(self.apps):
            state = app.state
            for client in tuple(state.sockets.open):
                roles["joining" if client.room is None else "spectator" if client.seat is None else "player"] += 1
            hall = getattr(state, "hall", None)
            n_rooms += len(hall.rooms) if hall is not None else 0
            reviewer = getattr(state, "reviewer", None)
            n_reviews += len(reviewer.jobs) if reviewer is not None else 0
        for role, n in roles.items():
            sockets.add_metric([role], n)
        rooms.add_metric([], n_rooms)
        running.add_metric([], n_reviews)
        return [sockets, rooms, running]


LIVE = Live()
REGISTRY.register(LIVE)


def watch(app) -> None:
    """Count ``app``'s sockets, rooms and reviews (its lifespan has started them)."""
    LIVE.apps.append(app)


def unwatch(app) -> None:
    if app in LIVE.apps:
        LIVE.apps.remove(app)


def serve(port: int, host: str):
    """Serve ``/metrics`` (any path, in fact) on ``host:port`` in a thread; returns the server, to ``shutdown()``.
    Raises OSError when the port cannot be had."""
    server, _ = start_http_server(port, host, registry=REGISTRY)
    return server
