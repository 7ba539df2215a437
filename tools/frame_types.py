"""Write the browser's types of the server's frames from the Python ones, so the two cannot drift apart.

Every frame a table's WebSocket sends is a TypedDict in the server's outbound module; the page's scripts are plain
JavaScript checked by ``tsc`` (``make lint``), and read those frames through the TypeScript declarations this script
writes: one interface per TypedDict, and ``ServerFrame``, the union of them all.  A declaration file rather than
JSDoc typedefs in a ``.js``: the browser never loads it (only the type checker reads it, through the scripts'
``import("...")`` types), so nothing is served that does nothing.

    python tools/frame_types.py          # rewrite src/millebornes/web/static/js/types/frames.d.ts
    python tools/frame_types.py --check  # exit 1 when the file is not what this writes now

tests/web/tables/test_frame_types.py runs the same comparison.
"""

import ast
import inspect
import sys
import types
import typing
from collections.abc import Mapping, Sequence
from pathlib import Path

import typing_extensions

from millebornes.web.tables import outbound

TARGET = Path(__file__).resolve().parent.parent / "src/millebornes/web/static/js/types/frames.d.ts"
COMMAND = "python tools/frame_types.py"

_SCALARS = {int: "number", float: "number", str: "string", bool: "boolean", type(None): "null"}
_LISTS = (list, Sequence, tuple)
_MAPS = (dict, Mapping)


def _is_typeddict(obj: object) -> bool:
    return isinstance(obj, type) and typing_extensions.is_typeddict(obj)


def _ts(hint: object, wanted: list[type]) -> str:
    """The TypeScript type of one annotation; a TypedDict met on the way joins ``wanted`` (written after)."""
    if hint is typing.Any:
        return "unknown"
    if hint in _SCALARS:
        return _SCALARS[hint]  # type: ignore[index]
    if _is_typeddict(hint):
        if hint not in wanted:
            wanted.append(hint)  # type: ignore[arg-type]
        return hint.__name__  # type: ignore[union-attr]
    if hint in _LISTS:
        return "unknown[]"
    if hint in _MAPS:
        return "Record<string, unknown>"
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Literal:
        return " | ".join(_literal(a) for a in args)
    if origin in (typing.Union, types.UnionType):
        return " | ".join(_ts(a, wanted) for a in args)
    if origin in _LISTS:
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            return "[" + ", ".join(_ts(a, wanted) for a in args) + "]"
        item = _ts(args[0], wanted)
        return f"({item})[]" if " | " in item else f"{item}[]"
    if origin in _MAPS:
        if args[0] is not str:
            raise TypeError(f"a JSON object's keys are strings, not {args[0]!r}")
        return f"Record<string, {_ts(args[1], wanted)}>"
    raise TypeError(f"no TypeScript type for {hint!r}: teach tools/frame_types.py")


def _literal(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | int | float):
        return repr(value) if not isinstance(value, str) else '"' + value.replace('"', '\\"') + '"'
    raise TypeError(f"no TypeScript literal for {value!r}")


def _docs(cls: type) -> tuple[str, dict[str, str]]:
    """A TypedDict's docstring, and each field's (the string just under it in the source)."""
    tree = ast.parse(inspect.getsource(cls))
    body = tree.body[0].body  # type: ignore[attr-defined]
    fields: dict[str, str] = {}
    for node, after in zip(body, [*body[1:], None]):
        said = after.value.value if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant) else None
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and isinstance(said, str):
            fields[node.target.id] = said
    return inspect.cleandoc(cls.__doc__ or "") if "__doc__" in vars(cls) else "", fields


def _comment(text: str, indent: str) -> list[str]:
    if not text:
        return []
    lines = inspect.cleandoc(text).replace("*/", "* /").splitlines()
    return [f"{indent}/**", *(f"{indent} * {line}".rstrip() for line in lines), f"{indent} */"]


def _interface(cls: type, wanted: list[type]) -> list[str]:
    hints = typing_extensions.get_type_hints(cls, include_extras=False)
    optional = getattr(cls, "__optional_keys__", frozenset())
    doc, field_docs = _docs(cls)
    out = [*_comment(doc, ""), f"export interface {cls.__name__} {{"]
    for name in cls.__annotations__:
        out += _comment(field_docs.get(name, ""), "  ")
        out.append(f"  {name}{'?' if name in optional else ''}: {_ts(hints[name], wanted)};")
    return [*out, "}"]


def render() -> str:
    """The declaration file as this script writes it from the frames' module as it is now."""
    wanted = [obj for obj in vars(outbound).values() if _is_typeddict(obj) and obj.__module__ == outbound.__name__]
    frames = [_ts(frame, wanted) for frame in typing.get_args(outbound.ServerFrame)]
    blocks = []
    for cls in wanted:  # grows while it is read: a TypedDict from elsewhere, met in a field, is written too
        blocks.append("\n".join(_interface(cls, wanted)))
    union = "export type ServerFrame =\n" + "\n".join(f"  | {name}" for name in frames) + ";"
    head = (
        f"// Generated by {COMMAND} from {outbound.__name__} (the server's frames): do not edit.\n"
        f"// Run `{COMMAND}` after changing a frame there; tests/web/tables/test_frame_types.py fails until then.\n"
    )
    return head + "\n" + "\n\n".join([*blocks, union]) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if not TARGET.exists() or TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET} is stale: run {COMMAND}", file=sys.stderr)
            return 1
        return 0
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
