"""`millebornes serve` takes its defaults and ranges from web/settings.py, where each is written once (issue 53):
an option that sets a Settings or Limits field gives and shows that field's default, bounds its values by the
field's range or leaves the refusal to Settings (which names the option), and serve's signature repeats no number."""

from __future__ import annotations

import ast
import inspect

import pytest
import typer.main
from typer.testing import CliRunner

from millebornes.cli import app, server
from millebornes.web.settings import DEFAULT_DATABASE_URL, Limits, Range, Settings, default_of, range_of

CLI_ONLY = {"host", "port", "forwarded_allow_ips", "metrics_port", "metrics_host", "log_level", "log_json"}
"""The options that set no field: uvicorn's, the metrics' and the logs'."""
NEGATED = {"no_migrate": "migrate"}


def _params() -> dict:
    command = typer.main.get_command(app).commands["serve"]  # type: ignore[attr-defined]
    return {p.name: p for p in command.params if p.name != "help"}


def _field(option: str) -> tuple[type, str]:
    name = NEGATED.get(option, option)
    return (Settings if name in Settings.__dataclass_fields__ else Limits), name


def _bounds(param) -> tuple[float | None, float | None]:
    """The option's min and max, whether the Typer version keeps them on the parameter or on its click type."""
    holder = param if hasattr(param, "min") else param.type
    return getattr(holder, "min", None), getattr(holder, "max", None)


def _range(option: str) -> Range | None:
    return range_of(*_field(option))


SETTINGS = sorted(set(_params()) - CLI_ONLY)
RANGED = [option for option in SETTINGS if _range(option) is not None]


def test_every_option_sets_a_field_or_is_the_command_lines_own():
    assert len(SETTINGS) >= 22 and len(RANGED) >= 19
    for option in SETTINGS:
        owner, name = _field(option)
        assert name in owner.__dataclass_fields__, option


@pytest.mark.parametrize("option", SETTINGS)
def test_an_option_gives_its_fields_default(option):
    param, default = _params()[option], default_of(*_field(option))
    if option in NEGATED:
        assert param.default is (not default)
    elif option == "database_url":  # None: Settings.from_env reads $DATABASE_URL, then the default the help says
        assert param.default is None and default == DEFAULT_DATABASE_URL and f"default: {default}" in param.help
    else:
        assert param.default == default and type(param.default) is type(default), (param.default, default)


@pytest.mark.parametrize("option", SETTINGS)
def test_an_option_is_bounded_by_its_fields_range_or_by_settings(option):
    low, high = _bounds(_params()[option])
    within = _range(option)
    if low is not None or high is not None:  # refused by the command line, shown as "[0<=x<=64]" in the help
        assert within is not None and not within.low_open and not within.whole, option
        assert (low, high) == (within.low, within.high), option
    if within is not None and within.low is not None and within.high is not None and low is None:
        if f"({within.span()}" not in _params()[option].help:  # the help says the range when it is not shown
            assert option in ("expire_unjoined", "expire_idle", "evict_idle", "sweep_every"), option


def _outside(within: Range) -> list[float]:
    values: list[float] = []
    if within.low is not None:
        values.append(within.low if within.low_open else within.low - 1)
    if within.high is not None:
        values.append(within.high + 1)
    return values


@pytest.mark.parametrize("option", RANGED)
def test_a_value_out_of_range_is_refused_in_the_options_name(option):
    within = _range(option)
    assert within is not None
    flag = "--" + option.replace("_", "-")
    for value in _outside(within):
        result = CliRunner().invoke(app, ["serve", flag, str(value)], terminal_width=200, env={"DATABASE_URL": None})
        assert result.exit_code == 2, (flag, value, result.output)
        assert "Invalid value for" in result.output and flag in result.output, (flag, value, result.output)
        with pytest.raises(ValueError, match=f"^{option}: "):  # built directly, Settings refuses it too
            owner, _ = _field(option)
            if owner is Settings:
                Settings(**{option: value})
            else:
                Limits(**{option: value})


def test_the_help_shows_the_defaults():
    shown = " ".join(CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"}).output.split())
    for option in SETTINGS:
        default = _params()[option].default
        if default is not None and not isinstance(default, bool):
            assert f"[default: {default}]" in shown, option
    for said in ("(default 24 h)", "(default 7 days)", "(0 to 600)", "(0 to 5)", "(2 to 5000)", "(1 to 10000)"):
        assert said in shown, said
    assert shown.count("(1 to 100000)") == 3 and f"(default: {DEFAULT_DATABASE_URL})" in shown


def test_serves_signature_holds_no_number_of_the_settings():
    """The only numbers in serve's options are the command line's own: the port, and an hour's and a day's
    seconds that put --expire-unjoined's and --expire-idle's defaults in hours and days in the help."""
    tree = ast.parse(inspect.getsource(server))
    serve = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "serve")
    numbers = {
        n.value
        for default in serve.args.defaults + serve.args.kw_defaults
        if default is not None
        for n in ast.walk(default)
        if isinstance(n, ast.Constant) and type(n.value) in (int, float)
    }
    assert numbers == {8000, 3600, 86400}
