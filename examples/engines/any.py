"""All five kinds in one engine for the Boardhost bot bridge: hands each position to the sample
engine of its family (congo.py, draughts.py, mancala.py)."""
import congo
import draughts
import mancala
from protocol import run

FAMILY = {"congo": congo, "russian-draughts": draughts, "kalah": mancala, "oware": mancala, "congkak": mancala}


def choose(kind, position, legal, time_ms):
    return FAMILY[kind].choose(kind, position, legal, time_ms)


if __name__ == "__main__":
    run(choose, "boardhost-samples")
