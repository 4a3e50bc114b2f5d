"""A sample Congo engine for the Boardhost bot bridge: takes the most valuable piece it can (the
lion wins the game), else a random move. It reads the board from the position string (FEN-like:
rank 7 first, `g m e l c z p` black, upper case white, digits for empty squares, then `w` or `b`);
the legal moves (`a2-a3`) come from the bridge.
"""
import random

from protocol import run

VALUE = {"l": 100, "e": 6, "c": 5, "z": 4, "g": 3, "m": 2, "p": 1, "s": 2}


def board(position):
    squares = {}
    for r, rank in enumerate(position.split()[0].split("/")):
        f = 0
        for ch in rank:
            if ch.isdigit():
                f += int(ch)
            else:
                squares["abcdefg"[f] + str(7 - r)] = ch
                f += 1
    return squares


def choose(kind, position, legal, time_ms):
    squares = board(position)
    white = position.split()[-1] == "w"

    def gain(move):
        target = squares.get(move.split("-")[-1][:2])
        if target is None or target.isupper() == white:
            return 0
        return VALUE.get(target.lower(), 1)

    best = max(gain(m) for m in legal)
    return random.choice([m for m in legal if gain(m) == best])


if __name__ == "__main__":
    run(choose, "congo-captures-first")
