#!/usr/bin/env python3
"""A bot that breaks the external bot protocol, one way per mode, for tests.

    misbehave.py MODE [sometimes]

It greets and plays random legal actions like a good bot until its first
turn of a game, and then misbehaves as MODE says.  With "sometimes" it
misbehaves only in the games whose seed is odd, so a match shows the
controller going on with a fresh process after each forfeit.  The modes:

  crash       exits with status 3            signal   kills itself (SIGSEGV)
  hang        never answers                  late     answers after its time
  garbage     answers a line that is not JSON
  wrongtype   answers JSON of another type   noaction answers {"type": "action"}
  illegal     answers an action that is not legal
  deaf        stops reading its input (sleeps) and never answers
  spam        writes a line while it is not its turn
  twice       answers its turn with two actions at once
  flood       writes a line of 200 KB with no end
  close       closes its output and stays
  orphan      starts a child that holds the pipes, then exits itself
  mute        never says hello (the controller refuses it at the start)
  badhello    greets with another protocol version
"""
import json
import os
import random
import signal
import subprocess
import sys
import time

mode = sys.argv[1]
sometimes = len(sys.argv) > 2 and sys.argv[2] == "sometimes"


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def misbehave(message):
    time_s = message["time_ms"] / 1000
    if mode == "crash":
        sys.exit(3)
    if mode == "signal":
        os.kill(os.getpid(), signal.SIGSEGV)
    if mode in ("hang", "deaf"):
        time.sleep(3600)
    if mode == "late":  # one answer, late
        time.sleep(time_s * 2)
        send({"type": "action", "action": message["legal"][0]})
        return True
    if mode == "garbage":
        print("e4 e5, your move", flush=True)
    if mode == "wrongtype":
        send({"type": "move", "action": message["legal"][0]})
    if mode == "noaction":
        send({"type": "action"})
    if mode == "illegal":
        send({"type": "action", "action": "pass 99 and win"})
    if mode == "flood":
        sys.stdout.write("x" * 200000)
        sys.stdout.flush()
        time.sleep(3600)
    if mode == "close":
        os.close(1)
        time.sleep(3600)
    if mode == "twice":  # one write: tafel has the second line with the first
        line = json.dumps({"type": "action", "action": message["legal"][0]}) + "\n"
        os.write(1, (line + line).encode())
        return True
    if mode == "orphan":
        subprocess.Popen(["sleep", "3600"])  # inherits stdin and stdout
        os._exit(0)


def main():
    rng = random.Random(0)
    bad_game = False
    if mode == "mute":
        time.sleep(3600)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            send({"type": "hello", "name": "misbehave-" + mode, "version": "1",
                  "protocol": 2 if mode == "badhello" else 1})
        elif kind == "new_game":
            seed = int(message["seed"])  # a decimal string, exact above 2^53
            rng = random.Random(seed)
            bad_game = not sometimes or seed % 2 == 1
        elif kind == "seen" and bad_game and mode == "spam":
            send({"type": "action", "action": "I was not asked"})
        elif kind == "turn":
            if bad_game and mode == "deaf":
                time.sleep(3600)
            if bad_game and misbehave(message):
                continue
            send({"type": "action", "action": rng.choice(message["legal"])})
        elif kind == "quit":
            break


if __name__ == "__main__":
    main()
