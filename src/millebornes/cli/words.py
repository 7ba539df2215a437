"""What the player-facing commands (play, levels, replay, review) say, in the player's language, and the files
they read, refused in words. The shared words come from :mod:`millebornes.i18n.words`."""

from __future__ import annotations

import json
import os
from typing import NoReturn

import typer

from ..i18n import LANGS, lang_of
from ..i18n import words as shared


def env_lang() -> str:
    """The language a player's environment asks for: LC_ALL, then LC_MESSAGES, then LANG (French or
    English, English otherwise)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return lang_of(value)
    return "en"


class Words(shared.Words):
    """What a command says to a player, from the message catalog, in the player's language."""

    def __init__(self, lang: str | None):
        super().__init__(lang or env_lang())

    def fail(self, key: str, **params) -> NoReturn:
        """Stop the command with the catalog's message (exit status 2, as for a bad option)."""
        self.stop(self.t(key, **params))

    def stop(self, message: str) -> NoReturn:
        typer.echo(self.t("cli.error", message=message), err=True)
        raise typer.Exit(2)

    def refused(self, path: str, record: dict, exc) -> NoReturn:
        """A record with an action the engine refuses (``exc.move``), its reason in words, seats and sides
        named as at the table."""
        from ..notation import replay as rebuild

        game = rebuild(record, upto=exc.move or 0)
        reason = shared.TableWords(self.lang, game.players, game.teams).because(exc)
        self.fail("cli.record_illegal", path=path, n=(exc.move or 0) + 1, reason=reason)


def lang_option(lang: str | None) -> str | None:
    """A command's --lang, refused in the environment's language unless it is one the catalog has."""
    if lang is not None and lang not in LANGS:
        Words(None).fail("cli.bad_lang")
    return lang


def tui_missing(exc: ImportError, words: Words) -> NoReturn:
    """The terminal game's commands without Textual: which package to install, in the player's words."""
    typer.echo(words.t("cli.needs_textual", module=exc.name, command="pip install 'textual==8.2.8'"), err=True)
    raise typer.Exit(1)


def read_json(words: Words, path: str, save: bool = False, not_json: str = "cli.not_record"):
    """A JSON file's content, or the command stopped with the reason in words."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError as exc:
        if save:
            words.fail("cli.no_save", path=path)
        words.fail("cli.cannot_read", path=path, error=exc.strerror)
    except OSError as exc:
        words.fail("cli.cannot_read", path=path, error=exc.strerror or str(exc))
    except ValueError:
        words.fail(not_json, path=path)


def load_record(words: Words, path: str, save: bool = False) -> dict:
    """A record (or save file) read and replayed, or the command stopped with the reason in words."""
    from ..actions import IllegalAction
    from ..notation import replay as rebuild

    record = read_json(words, path, save)
    try:
        rebuild(record)
    except IllegalAction as exc:
        words.refused(path, record, exc)
    except (ValueError, TypeError, KeyError, AttributeError):
        words.fail("cli.not_record", path=path)
    return record
