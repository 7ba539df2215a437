"""The site's pages and their files: :mod:`.routes` (the HTML pages, read once and served with their assets under
this process's build), :mod:`.assets` (the pages' scripts, styles and pictures held in memory, named by a hash of
them, the build id), :mod:`.static` (``/static/<build>/...``, cached for good), :mod:`.shelf` (the builds this
process answers for: its own and those the others recorded), :mod:`.repo` (the builds kept in the database) and
what the pages read about the game itself (:mod:`.reference`)."""
