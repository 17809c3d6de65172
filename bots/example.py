#!/usr/bin/env python3
"""A tafel bot in Python, speaking the external bot protocol (version 1).

tafel runs this program and talks to it in JSON lines: one object per line
on standard input, one answer per line on standard output (docs/protocol.md,
"Bots in any language").  It is a template: it plays a random legal action,
drawn from the seed tafel gives each game, so a match replays exactly.
Replace choose() with something clever.

    tafel sim cardcassonne --players "ext:python3 bots/example.py",random --games 20
    tafel play catan_cards --players human,"ext:python3 bots/example.py,ms=2000"

Only standard output carries the protocol: write logs to standard error.
"""
import json
import random
import sys

NAME, VERSION = "example", "1.0"


def choose(view, legal, rng):
    """The action to play: one of the texts in legal.

    view is what this seat may see (the same JSON the web page gets); legal
    lists the legal actions in tafel's notation, such as "place 1 0 90" or
    "play 3 B".  A clever bot reads view; this one draws at random.
    """
    return rng.choice(legal)


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()  # tafel waits for the whole line


def main():
    rng = random.Random(0)
    seat = None
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            send({"type": "hello", "name": NAME, "version": VERSION, "protocol": 1})
        elif kind == "new_game":
            seat = message["seat"]
            rng = random.Random(int(message["seed"]))  # a decimal string
        elif kind == "turn":
            send({"type": "action", "action": choose(message["view"], message["legal"], rng)})
        elif kind == "seen":
            pass  # what the seat saw happen; "deal 1 ?" hides another player's card
        elif kind == "game_over":
            pass  # scores, winners, and "forfeit" when a player lost by misbehaving
        elif kind == "quit":
            break


if __name__ == "__main__":
    main()
