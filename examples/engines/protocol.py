"""The engine side of the Boardhost bot bridge's line protocol (docs/bridge.md), standard library only.

run(choose) answers the bridge until it says `quit`: `choose(kind, position, legal, time_ms)` gets
the position string, the legal moves (in the server's notation) and the milliseconds left (None
without a clock), and returns one of the legal moves.
"""
import sys


def run(choose, name="sample"):
    kind = position = None
    legal = []
    time_ms = None
    rejected = set()
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        command, args = words[0], words[1:]
        if command == "boardhost":
            reply("name " + name)
            reply("ready")
        elif command == "position":
            kind, position = args[0], " ".join(args[1:])
            legal, time_ms, rejected = [], None, set()
        elif command == "legal":
            legal = args
        elif command == "time":
            time_ms = int(args[0])
        elif command == "error":
            rejected.add(args[-1])  # `error illegal <move>`: do not answer it again
        elif command == "go":
            offered = [m for m in legal if m not in rejected] or legal
            reply("bestmove " + choose(kind, position, offered, time_ms))
        elif command == "quit":
            return


def reply(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()
