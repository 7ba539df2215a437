"""The tests are a package, as is each of their folders (an ``__init__.py`` in each): pytest then imports a test
module by its dotted path (``tests.web.tables.test_undo``), so two folders may hold files of one name, and the
helpers are imported as ``tests.util``, ``tests.serving``, ``tests.browsing``, ``tests.schemas``, ``tests.ladders``."""
