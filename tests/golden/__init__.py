"""Golden records: whole matches of every edition with the events and scores the engine gave them (make.py
writes them, tests/engine/test_golden.py replays them)."""
