"""``python -m millebornes.cli``: the command without the word for a missing extra (``python -m millebornes``
gives it)."""

from . import main

main()
