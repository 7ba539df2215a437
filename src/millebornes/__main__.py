"""``python -m millebornes ...`` is the ``millebornes`` command."""

from .cli import main

main(prog_name="millebornes")
