"""A sample Kalah / Oware / Congkak engine for the Boardhost bot bridge: sows from the pit with the
most seeds (ties broken at random). It knows the position format, not the rules: the legal moves
(pit numbers 1, 2, …) come from the bridge.

Positions: the south row, then the north row (each `a,b,c,…`, pit 1 first), stores and the side to
move (`S` or `N`) last: `4,4,4,4,4,4/0/4,4,4,4,4,4/0 S` (kalah), `4,4,4,4,4,4/4,4,4,4,4,4 stores 0-0 S`.
"""
import random

from protocol import run


def choose(kind, position, legal, time_ms):
    rows = [part for part in position.split()[0].split("/") if "," in part]
    side = position.split()[-1]
    pits = [int(n) for n in rows[0 if side == "S" else 1].split(",")]
    seeds = lambda move: pits[int(move) - 1] if move.isdigit() and int(move) <= len(pits) else 0
    most = max(seeds(m) for m in legal)
    return random.choice([m for m in legal if seeds(m) == most])


if __name__ == "__main__":
    run(choose, "mancala-most-seeds")
