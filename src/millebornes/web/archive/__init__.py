"""The public archive: a finished table's record as a file, the finished public tables as paged NDJSON and as one
file a month (:mod:`.routes`).
"""
