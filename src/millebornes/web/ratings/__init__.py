"""Ratings, profiles and leaderboards: a finished rated match rated once, each finished table's counts per seat.

:mod:`.skill` (the ratings' arithmetic: openskill, the bots' anchors, the display scale); :mod:`.repo` (the
ratings' rows, rating a match); :mod:`.stats_repo` (per-seat game counts); :mod:`.service` (what a profile and a
leaderboard show, read from the database); :mod:`.routes` (their two routes).
"""
