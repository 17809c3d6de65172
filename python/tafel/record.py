"""Record: a game that replays exactly, in the format `tafel replay` reads.

One JSON object per line:
  {"game": "carcassonne(players=2)", "players": ["random", "greedy"],
   "seed": 7, "actions": ["draw D", "place 1 0 90", ...]}
"game" and "actions" are required.  The engine's reader decides what a
valid record is (its messages become RecordError); keys this class does not
know (a newer writer's "forfeit") are kept, in order, and written back.
"""
import ctypes
import json

from . import _lib
from ._lib import lib
from .errors import RecordError, raise_if_failed
from .game import Game
from .state import State

_SEED_EXACT_MAX = 2**53  # a JSON number above this is not an exact integer
_KNOWN_KEYS = ("game", "players", "seed", "actions")


class Record:
    """A game string, player names, a seed and the action texts played."""

    def __init__(self, game, seed=0, players=None, actions=None, extra=None):
        if isinstance(game, Game):
            game = game.game_string
        self.game = game
        self.seed = seed
        self.players = list(players) if players else []
        self.actions = list(actions) if actions else []
        self.extra = dict(extra) if extra else {}

    # -- writing ------------------------------------------------------------

    def push(self, state, action):
        """Append action as played in state (call it before applying)."""
        self.actions.append(state.action_to_text(action))

    def set_result(self, state):
        """Write the result of the finished game state into the record:
        "scores" (by seat) and "winners", as tafel sim's records carry them
        (the C side: tafel_record_set_result); `tafel replay` checks them."""
        if not state.is_terminal():
            raise RecordError("record result: the game is not over")
        self.extra["scores"] = [int(x) if float(x).is_integer() else x
                                for x in state.scores()]
        self.extra["winners"] = list(state.winners())

    @property
    def result(self):
        """(scores, winners) the record carries, or None (an older record)."""
        if "scores" not in self.extra:
            return None
        return list(self.extra["scores"]), list(self.extra["winners"])

    def to_dict(self):
        """The JSON object: known keys first, then the kept unknown ones."""
        seed = self.seed if self.seed <= _SEED_EXACT_MAX else str(self.seed)
        data = {"game": self.game, "players": list(self.players),
                "seed": seed, "actions": list(self.actions)}
        for key, value in self.extra.items():
            data.setdefault(key, value)
        return data

    def to_json(self):
        """One line of JSON."""
        return json.dumps(self.to_dict(), ensure_ascii=False,
                          separators=(",", ":"))

    # -- reading ------------------------------------------------------------

    @classmethod
    def from_json(cls, text):
        """Read one record; RecordError with the engine's message if bad."""
        _check_with_engine(text)
        data = json.loads(text)
        seed = data.get("seed", 0)
        return cls(data["game"], seed=int(seed),
                   players=data.get("players") or [],
                   actions=data["actions"],
                   extra={key: value for key, value in data.items()
                          if key not in _KNOWN_KEYS})

    @classmethod
    def load(cls, path):
        """The first record of a JSON-lines file (as `tafel replay` reads)."""
        records = read_records(path, limit=1)
        if not records:
            raise RecordError("record: %s holds no record" % path)
        return records[0]

    def save(self, path):
        write_records(path, [self])

    # -- playing ------------------------------------------------------------

    def replay(self):
        """(Game, State) after every action, replayed by the engine.

        RecordError names the first action that cannot be read or is
        illegal ("action 14 'place 3 0 90': the tile does not fit there").
        """
        record = _engine_record(self.to_json())
        try:
            game = ctypes.c_void_p()
            state = ctypes.c_void_p()
            error = _lib.ErrorStruct()
            rc = lib.tafel_record_replay(record, ctypes.byref(game),
                                         ctypes.byref(state),
                                         ctypes.byref(error))
            raise_if_failed(rc, error)
        finally:
            lib.tafel_record_free(record)
        game = Game._from_pointer(game.value)
        return game, State(game, state.value, None)  # history not known

    def states(self):
        """(state before, action text) for each action, then the final state
        as (state, None): a replay step by step, in Python."""
        state = Game(self.game).new_state()
        for text in self.actions:
            yield state.copy(), text
            state.apply(text)
        yield state, None

    def __eq__(self, other):
        return isinstance(other, Record) and other.to_dict() == self.to_dict()

    def __repr__(self):
        return "<tafel.Record %s seed %d, %d actions>" % (
            self.game, self.seed, len(self.actions))


def _engine_record(text):
    pointer = ctypes.c_void_p()
    error = _lib.ErrorStruct()
    rc = lib.tafel_record_from_json(text.encode(), ctypes.byref(pointer),
                                    ctypes.byref(error))
    raise_if_failed(rc, error)
    return pointer.value


def _check_with_engine(text):
    lib.tafel_record_free(_engine_record(text))


def read_records(path, limit=None):
    """The records of a JSON-lines file (blank lines skipped)."""
    records = []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                records.append(Record.from_json(line))
                if limit is not None and len(records) >= limit:
                    break
    return records


def write_records(path, records):
    """Write records as JSON lines."""
    with open(path, "w", encoding="utf-8") as out:
        for record in records:
            out.write(record.to_json() + "\n")
