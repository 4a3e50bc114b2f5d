"""A sample Russian draughts engine for the Boardhost bot bridge: takes the capture that takes the
most pieces (captures are written `c3:e5:g7`, one `:` per piece taken), else a random move.
It knows no rules: the legal moves come from the bridge.
"""
import random

from protocol import run


def choose(kind, position, legal, time_ms):
    most = max(move.count(":") for move in legal)
    return random.choice([move for move in legal if move.count(":") == most])


if __name__ == "__main__":
    run(choose, "draughts-captures-first")
