#!/usr/bin/env bash
# The bot-strength tables of the bots issue, measured with the tournament command (2 workers).
# Usage: bench/bot_strength.sh [quick]   (quick: a quarter of the games, for a first look)
set -euo pipefail
cd "$(dirname "$0")/.."
mb=".venv/bin/millebornes"
q=1; [ "${1:-}" = quick ] && q=4
run() { echo; echo "\$ millebornes tournament $*"; "$mb" tournament --workers 2 --quiet "$@"; }

run --bots heuristic,random --ruleset classic --players 2 --games $((400 / q)) --seed 1
run --bots hard,heuristic --ruleset classic --players 2 --games $((400 / q)) --hands --seed 2
run --bots hard,heuristic --ruleset dujardin --players 2 --games $((200 / q)) --hands --seed 3
run --bots hard,heuristic --ruleset classic --players 4 --games $((100 / q)) --hands --seed 4
run --bots heuristic,random --ruleset dujardin --players 2 --games $((200 / q)) --seed 5
run --bots heuristic,random --ruleset classic --players 4 --games $((100 / q)) --seed 6
run --bots expert,hard --ruleset classic --players 2 --games $((${EXPERT_HANDS:-100} / q)) --hands --seed 7
run --bots expert,heuristic --ruleset classic --players 2 --games $((${EXPERT_HANDS:-100} / q)) --hands --seed 7
