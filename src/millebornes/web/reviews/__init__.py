"""The game review of a finished table and its puzzles.

:mod:`.service` (a review worked out in the reviews' pool, counted, kept in the database); :mod:`.routes` (its
two routes); :mod:`.puzzle_routes` (the shipped puzzles and a reviewed table's own mistakes).
"""
