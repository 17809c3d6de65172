"""A fake of the pieces of pyspiel a python game uses, driving the game's
methods as OpenSpiel's C++ side does for python games (tests only)."""
import copy

FAKE = True


class SpielError(Exception):
    pass


class PlayerId:
    CHANCE, SIMULTANEOUS, INVALID, TERMINAL = -1, -2, -3, -4


class PrivateInfoType:
    NONE, SINGLE_PLAYER, ALL_PLAYERS = 0, 1, 2


class GameType:
    class Dynamics:
        SEQUENTIAL, SIMULTANEOUS, MEAN_FIELD = "sequential", "simultaneous", "mfg"

    class ChanceMode:
        DETERMINISTIC = "deterministic"
        EXPLICIT_STOCHASTIC = "explicit_stochastic"
        SAMPLED_STOCHASTIC = "sampled_stochastic"

    class Information:
        ONE_SHOT, PERFECT_INFORMATION, IMPERFECT_INFORMATION = (
            "one_shot", "perfect", "imperfect")

    class Utility:
        ZERO_SUM, CONSTANT_SUM, GENERAL_SUM, IDENTICAL = (
            "zero_sum", "constant_sum", "general_sum", "identical")

    class RewardModel:
        REWARDS, TERMINAL = "rewards", "terminal"

    _KEYS = ("short_name", "long_name", "dynamics", "chance_mode",
             "information", "utility", "reward_model", "max_num_players",
             "min_num_players", "provides_information_state_string",
             "provides_information_state_tensor", "provides_observation_string",
             "provides_observation_tensor", "parameter_specification",
             "default_loadable", "provides_factored_observation_string")

    def __init__(self, **kwargs):
        unknown = set(kwargs) - set(self._KEYS)
        if unknown:
            raise TypeError("GameType: unknown keywords %s" % sorted(unknown))
        self.parameter_specification = {}
        self.__dict__.update(kwargs)


class GameInfo:
    def __init__(self, *, num_distinct_actions, max_chance_outcomes,
                 num_players, min_utility, max_utility, utility_sum=None,
                 max_game_length):
        self.num_distinct_actions = num_distinct_actions
        self.max_chance_outcomes = max_chance_outcomes
        self.num_players = num_players
        self.min_utility, self.max_utility = min_utility, max_utility
        self.utility_sum = utility_sum
        self.max_game_length = max_game_length


class IIGObservationType:
    def __init__(self, public_info=True, perfect_recall=False,
                 private_info=PrivateInfoType.SINGLE_PLAYER):
        self.public_info, self.perfect_recall = public_info, perfect_recall
        self.private_info = private_info


class Game:
    def __init__(self, game_type, game_info, params):
        if not isinstance(game_type, GameType) or not isinstance(game_info, GameInfo):
            raise TypeError("Game(GameType, GameInfo, params)")
        unknown = set(params) - set(game_type.parameter_specification)
        if unknown:
            raise SpielError("unknown parameters %s" % sorted(unknown))
        self._type, self._info, self._params = game_type, game_info, dict(params)

    def get_type(self):
        return self._type

    def get_parameters(self):
        return dict(self._params)

    def num_distinct_actions(self):
        return self._info.num_distinct_actions

    def max_chance_outcomes(self):
        return self._info.max_chance_outcomes

    def num_players(self):
        return self._info.num_players

    def min_utility(self):
        return self._info.min_utility

    def max_utility(self):
        return self._info.max_utility

    def utility_sum(self):
        return self._info.utility_sum

    def max_game_length(self):
        return self._info.max_game_length

    def observation_tensor_shape(self):
        return list(self.make_py_observer().tensor.shape)

    def information_state_tensor_shape(self):
        observer = self.make_py_observer(IIGObservationType(perfect_recall=True))
        return list(observer.tensor.shape)


class State:
    def __init__(self, game):
        self._game = game
        self._history = []

    def get_game(self):
        return self._game

    def is_chance_node(self):
        return self.current_player() == PlayerId.CHANCE

    def is_player_node(self):
        return self.current_player() >= 0

    def legal_actions(self, player=None):
        if self.is_terminal():
            return []
        if player is None:
            player = self.current_player()
        return list(self._legal_actions(player))

    def legal_actions_mask(self, player=None):
        size = (self._game.max_chance_outcomes() if self.is_chance_node()
                else self._game.num_distinct_actions())
        mask = [0] * size
        for action in self.legal_actions(player):
            mask[action] = 1
        return mask

    def apply_action(self, action):
        if action not in self.legal_actions():
            raise SpielError("illegal action %d" % action)
        if self.is_chance_node():
            total = sum(p for _, p in self.chance_outcomes())
            if abs(total - 1) > 1e-9:
                raise SpielError("chance outcomes sum to %r" % total)
        self._history.append(action)
        self._apply_action(action)

    def history(self):
        return list(self._history)

    def move_number(self):
        return len(self._history)

    def action_to_string(self, player, action):
        return self._action_to_string(player, action)

    def clone(self):
        return copy.deepcopy(self)

    def _observer(self, perfect_recall):
        return self._game.make_py_observer(
            IIGObservationType(perfect_recall=perfect_recall))

    def _seat(self, player):
        return self.current_player() if player is None else player

    def observation_tensor(self, player=None):
        observer = self._observer(False)
        observer.set_from(self, self._seat(player))
        return observer.tensor.tolist()

    def information_state_tensor(self, player=None):
        observer = self._observer(True)
        observer.set_from(self, self._seat(player))
        return observer.tensor.tolist()

    def observation_string(self, player=None):
        return self._observer(False).string_from(self, self._seat(player))

    def information_state_string(self, player=None):
        return self._observer(True).string_from(self, self._seat(player))


_REGISTRY = {}


def register_game(game_type, cls):
    _REGISTRY[game_type.short_name] = (game_type, cls)


def registered_names():
    return sorted(_REGISTRY)


def load_game(name, params=None):
    if name not in _REGISTRY:
        raise SpielError("unknown game %s" % name)
    return _REGISTRY[name][1](params or {})
