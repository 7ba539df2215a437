"""The browser app: `millebornes serve` (docs/web.md).

This package stays import-light on purpose: the bot worker processes import
:mod:`millebornes.web.thinking` only, never FastAPI.  The app itself is
``millebornes.web.app.create_app(Settings(...))``.
"""
