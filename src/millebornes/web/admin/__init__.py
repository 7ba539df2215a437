"""The operator's tools (``millebornes admin``, docs/operators.md): what a public server's operator does by hand.

:mod:`.repo` (an account disabled or enabled, the sign-ups by address, a table deleted with everything of it);
:mod:`.service` (each command's work and its one line, or its refusal in words).
"""
