"""The online bridge: ``millebornes bot PROGRAM --server URL`` plays any program that speaks the stdio bot protocol
(docs/protocol.md) as a bot account of a millebornes server, over its ``/ws/bot``, as lichess-bot does for UCI
engines. One module per job: :mod:`.config` (the TOML file, the options, the token), :mod:`.challenges` (which
challenges it takes), :mod:`.engines` (the program's processes), :mod:`.client` (the connection and reconnections),
:mod:`.bridge` (what each message does), :mod:`.logs`."""

from .client import run
from .config import Config, ConfigError, build, read_file, read_token

__all__ = ["Config", "ConfigError", "build", "read_file", "read_token", "run"]
