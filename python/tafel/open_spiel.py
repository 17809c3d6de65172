"""tafel.open_spiel: tafel's games as OpenSpiel python games.

    import pyspiel
    import tafel.open_spiel                      # registers the games
    game = pyspiel.load_game("python_tafel_cardcassonne", {"players": 3})
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(random.choices(actions, probs)[0])
        else:
            state.apply_action(random.choice(state.legal_actions()))
    print(state.returns())

One game per tafel game, "python_tafel_<name>" (carcassonne, cardcassonne,
catan_cards), its parameters those of the game string (players, ...), as
OpenSpiel's python_games define theirs (kuhn_poker.py): a GameType and a
GameInfo, a pyspiel.Game subclass, a pyspiel.State subclass implementing
current_player, _legal_actions, _apply_action, _action_to_string,
chance_outcomes, is_terminal, returns, and an observer (make_py_observer)
whose tensor the engine writes: the observation tensor, or with
perfect_recall the information-state tensor and information-state string,
of the player's seat or (private_info NONE) the spectator's
(TafelObserver).

- A player's action is an index of the game's fixed action space
  (num_distinct_actions = tafel_game_action_space_size); a chance outcome is
  the engine's action integer (max_chance_outcomes = the engine's bound).
- Returns at the end only: +1 to each winner, -1 to the others, 0 to all
  when every seat wins.  Two players: zero-sum; more: general-sum.
- max_game_length is a generous bound, not a proof (the longest of 40
  random games: Carcassonne 261, Cardcassonne 299, the Catan card game 2816
  at max_turns=400).

pyspiel and numpy are needed; without them importing this module raises an
ImportError saying what to install.
"""
try:
    import numpy as np
    import pyspiel
except ImportError as missing:  # pragma: no cover - depends on the machine
    raise ImportError(
        "tafel.open_spiel needs open_spiel and numpy (%s): pip install "
        "open_spiel" % missing) from missing

import re

from ._lib import CHANCE, TERMINAL
from .game import Game, games
from .rng import Rng

PREFIX = "python_tafel_"

# name: max_game_length for the game's parameters (see the docstring)
_LENGTH = {
    "carcassonne": lambda params: 1500,
    "cardcassonne": lambda params: 1500,
    "catan_cards": lambda params: 25 * int(params.get("max_turns", 400)),
}


def _parameters(info):
    """OpenSpiel's parameter_specification from a game's help lines
    ("players=2..5 (default 2)  number of players"): typed defaults."""
    spec = {}
    for line in info.parameters:
        found = re.match(r"(\w+)=(\S+) \(default ([^)]*)\)", line)
        if not found:
            continue
        name, values, default = found.groups()
        if values == "true|false":
            spec[name] = default == "true"
        elif re.fullmatch(r"-?\d+", default):
            spec[name] = int(default)
        else:
            spec[name] = default
    return spec


def game_string(name, params):
    """The tafel game string of OpenSpiel parameters."""
    parts = []
    for key in sorted(params):
        value = params[key]
        if isinstance(value, bool):
            value = "true" if value else "false"
        parts.append("%s=%s" % (key, value))
    return "%s(%s)" % (name, ",".join(parts)) if parts else name


def _game_type(info, tafel_game):
    players = [n for n in range(1, 6) if _loads("%s(players=%d)" % (info.name, n))]
    two_only = players == [2]
    return pyspiel.GameType(
        short_name=PREFIX + info.name,
        long_name="tafel: " + info.summary,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION
                     if tafel_game.hidden_information
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=(pyspiel.GameType.Utility.ZERO_SUM if two_only
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(players or [tafel_game.num_players]),
        min_num_players=min(players or [tafel_game.num_players]),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(info))


_TYPE_KEYS = ("short_name", "long_name", "dynamics", "chance_mode", "information",
              "utility", "reward_model", "max_num_players", "min_num_players",
              "provides_information_state_string", "provides_information_state_tensor",
              "provides_observation_string", "provides_observation_tensor",
              "parameter_specification")


def _type_at(game_type, players):
    """The registered type as a game of so many players has it: two players
    win and lose against each other (+1 and -1, or 0 both), so the game is
    zero-sum there, whatever it is with more (OpenSpiel's two-player
    algorithms, CFR and alpha-beta among them, ask for it)."""
    zero = pyspiel.GameType.Utility.ZERO_SUM
    if players != 2 or game_type.utility == zero:
        return game_type
    fields = {key: getattr(game_type, key) for key in _TYPE_KEYS}
    fields["utility"] = zero
    return pyspiel.GameType(**fields)


def _loads(text):
    try:
        Game(text)
        return True
    except Exception:  # noqa: BLE001 - any refusal means no
        return False


def _game_info(name, tafel_game, params):
    players = tafel_game.num_players
    return pyspiel.GameInfo(
        num_distinct_actions=tafel_game.action_space_size,
        max_chance_outcomes=tafel_game.num_distinct_actions,
        num_players=players,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0 if players == 2 else None,
        max_game_length=_LENGTH.get(name, lambda p: 10000)(params))


class TafelGame(pyspiel.Game):
    """A tafel game as OpenSpiel sees it (one subclass per tafel game)."""

    tafel_name = None  # set per subclass
    tafel_type = None

    def __init__(self, params=None):
        params = dict(self.tafel_type.parameter_specification, **(params or {}))
        self.tafel_game = Game(game_string(self.tafel_name, params))
        if not self.tafel_game.action_space_size:
            raise ValueError("%s has no action space in this libtafel yet"
                             % self.tafel_name)
        super().__init__(_type_at(self.tafel_type, self.tafel_game.num_players),
                         _game_info(self.tafel_name, self.tafel_game, params),
                         params)

    def new_initial_state(self):
        return TafelState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """An observer for iig_obs_type (OpenSpiel's IIGObservationType;
        None: the default observation, a player's, without perfect recall):
        TafelObserver says which tensor and string each type is."""
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return TafelObserver(self.tafel_game, iig_obs_type, params)


class TafelState(pyspiel.State):
    """A tafel.State inside an OpenSpiel state (it keeps the history)."""

    def __init__(self, game):
        super().__init__(game)
        self.tafel_state = game.tafel_game.new_state()

    def current_player(self):
        seat = self.tafel_state.current_player()
        if seat == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        if seat == CHANCE:
            return pyspiel.PlayerId.CHANCE
        return seat

    def _legal_actions(self, player):
        state = self.tafel_state
        if state.current_player() == CHANCE:
            return [action for action, _ in state.chance_outcomes()]
        if player != state.current_player():
            return []
        mask = state.legal_actions_mask()
        return [int(i) for i in np.flatnonzero(mask)]

    def chance_outcomes(self):
        if self.tafel_state.current_player() != CHANCE:
            raise ValueError("chance_outcomes called on a non-chance state.")
        return self.tafel_state.chance_outcomes()

    def _apply_action(self, action):
        state = self.tafel_state
        if state.current_player() == CHANCE:
            state.apply(int(action))
        else:
            state.apply(state.index_action(int(action)))

    def _action_to_string(self, player, action):
        state = self.tafel_state
        if player == pyspiel.PlayerId.CHANCE or state.current_player() == CHANCE:
            return state.action_to_text(int(action))
        return state.action_to_text(state.index_action(int(action)))

    def is_terminal(self):
        return self.tafel_state.is_terminal()

    def returns(self):
        state = self.tafel_state
        players = state.num_players
        if not state.is_terminal():
            return [0.0] * players
        winners = state.winners()
        if len(winners) == players:
            return [0.0] * players
        return [1.0 if seat in winners else -1.0 for seat in range(players)]

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state player_id cannot tell from this one: a clone with all it
        cannot see dealt anew (tafel_state_resample), seeded from
        probability_sampler (OpenSpiel's: a callable giving a float in
        [0, 1)).  Information-set search (OpenSpiel's IS-MCTS) searches such
        states instead of the true one, whose hidden cards it must not see.
        The clone's history() stays this state's: what was dealt is no
        longer what those chance actions say."""
        if not 0 <= player_id < self.tafel_state.num_players:
            raise ValueError("resample_from_infostate: no player %r" % (player_id,))
        clone = self.clone()
        seed = int(probability_sampler() * 2**63) & (2**63 - 1)
        clone.tafel_state.resample(player_id, Rng(seed))
        return clone

    def __str__(self):
        return self.tafel_state.render(-1)


class TafelObserver:
    """OpenSpiel's PyObserver: .tensor (flat float32), .dict (the tensor's
    named parts), set_from(state, player), string_from(state, player).

    What it observes, from OpenSpiel's IIGObservationType:
    - perfect_recall=True: the information-state tensor (all the seat has
      seen) and string (tafel's information-state string); False: the
      observation tensor (what the seat sees now) and the seat's JSON view.
    - private_info=SINGLE_PLAYER (with public_info): the player's seat,
      its own hidden cards and the public information.  private_info=NONE
      with public_info: the spectator's (seat -1: only what is public,
      whichever player is named).
    - Refused, with a ValueError saying why: private_info=ALL_PLAYERS (no
      tafel tensor holds every seat's hidden cards), and public_info=False
      (a tafel tensor always holds the public information; with
      private_info=NONE there would be nothing to observe).
    - params: None or {}; tafel's observer takes no parameters, and any
      key is refused by name.
    """

    def __init__(self, tafel_game, iig_obs_type, params=None):
        if params is not None and not isinstance(params, dict):
            raise TypeError("observation params: a dict, not %r" % (params,))
        if params:
            raise ValueError(
                "unknown observation parameters %s: tafel's observer takes none "
                "(which tensor is iig_obs_type's: perfect_recall, private_info)"
                % ", ".join(repr(key) for key in sorted(params)))
        private = iig_obs_type.private_info
        kinds = pyspiel.PrivateInfoType
        if private == kinds.ALL_PLAYERS:
            raise ValueError(
                "private_info=ALL_PLAYERS: tafel has no tensor of every seat's hidden "
                "cards; observe each player (SINGLE_PLAYER), or read state.tafel_state")
        if private not in (kinds.NONE, kinds.SINGLE_PLAYER):
            raise ValueError("private_info %r: NONE or SINGLE_PLAYER" % (private,))
        if not iig_obs_type.public_info:
            raise ValueError(
                "public_info=False: a tafel tensor always holds the public information"
                + (" (and private_info=NONE would leave nothing to observe)"
                   if private == kinds.NONE else ""))
        self.iig_obs_type = iig_obs_type
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.spectator = private == kinds.NONE
        kind = 1 if self.perfect_recall else 0
        size = tafel_game._tensors[kind][1]
        self.tensor = np.zeros(size, np.float32)
        self.dict = {name: self.tensor[part] for name, part in
                     tafel_game.tensor_parts(kind).items()}

    def _seat(self, player):
        return -1 if self.spectator else player

    def set_from(self, state, player):
        seat = self._seat(player)
        if self.perfect_recall:
            state.tafel_state.information_state_tensor(seat, out=self.tensor)
        else:
            state.tafel_state.observation_tensor(seat, out=self.tensor)

    def string_from(self, state, player):
        seat = self._seat(player)
        if self.perfect_recall:
            return state.tafel_state.information_state_string(seat)
        return state.tafel_state.view_json(seat)


def _register():
    registered = {}
    for info in games():
        tafel_game = Game(info.name)
        if not tafel_game.action_space_size:
            continue  # no fixed action space in this libtafel yet
        game_type = _game_type(info, tafel_game)
        cls = type("Tafel_" + info.name, (TafelGame,),
                   {"tafel_name": info.name, "tafel_type": game_type})
        pyspiel.register_game(game_type, cls)
        registered[PREFIX + info.name] = cls
    return registered


# short name -> the pyspiel.Game subclass, for the games registered
REGISTERED = _register()
