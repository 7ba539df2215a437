"""The site's pages (:mod:`.routes`: plain HTML files from ``web/static``, whose scripts ask the API and the sockets
for everything else) and what they read about the game itself (:mod:`.reference`)."""
