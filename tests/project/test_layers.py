"""The package's layers go one way (cards -> rules -> events -> state machine -> records -> bots -> apps) and no
module imports one that imports it back, not even for type checking or inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

import millebornes

ROOT = Path(millebornes.__file__).parent

# lowest first; a module may import its own layer or those before it
LAYERS = [
    ("cards", {"millebornes.cards"}),
    ("rules and actions", {"millebornes.rules", "millebornes.actions"}),
    ("events, observations and records", {"millebornes.events", "millebornes.observation", "millebornes.record"}),
    ("observations", {"millebornes.observe"}),
    ("state machine", {"millebornes.state"}),
    ("records and worlds", {"millebornes.notation", "millebornes.determinize", "millebornes"}),
    ("the guided first match", {"millebornes.tutorial"}),
    ("bots", {"millebornes.bots"}),
    ("game review", {"millebornes.reasons", "millebornes.review"}),
    ("puzzles", {"millebornes.puzzles"}),
    ("message catalog", {"millebornes.i18n"}),
    (
        "apps",
        {
            "millebornes.tournament",
            "millebornes.executors",
            "millebornes.protocol",
            "millebornes.selfplay",
            "millebornes.cli",
            "millebornes.online",
            "millebornes.documentation",
            "millebornes.__main__",
            "millebornes.tui",
            "millebornes.web",
            "millebornes.env",
        },
    ),
]


def module_names() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Every package module the file names in an import, wherever the import stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                found.add(sub if sub in known else module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m in known and m != name}


def layer(name: str) -> int:
    for rank, (_, members) in enumerate(LAYERS):
        if any(name == m or (m != "millebornes" and name.startswith(m + ".")) for m in members):
            return rank
    raise AssertionError(f"{name} has no layer in tests/project/test_layers.py: give it one")


def graph() -> dict[str, set[str]]:
    known = module_names()
    return {name: imports(name, path, known) for name, path in known.items()}


def test_every_import_points_down_or_sideways():
    wrong = [
        f"{a} ({LAYERS[layer(a)][0]}) imports {b} ({LAYERS[layer(b)][0]})"
        for a, deps in graph().items()
        for b in deps
        if layer(b) > layer(a)
    ]
    assert not wrong, "\n".join(wrong)


def test_no_import_circle():
    edges = graph()
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    circles = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        path = path + [node]
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                circles.append(" -> ".join(path[path.index(nxt) :] + [nxt]))
            elif nxt not in state:
                visit(nxt, path)
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node, [])
    assert not circles, "\n".join(circles)


def test_the_checker_sees_a_circle():
    """The graph above is read from the sources, so the old circle (state <-> observe) would show."""
    edges = graph()
    assert "millebornes.observe" in edges["millebornes.state"]
    assert "millebornes.state" not in edges["millebornes.observe"]
    assert layer("millebornes.web.app") > layer("millebornes.bots.neural") > layer("millebornes.state")
