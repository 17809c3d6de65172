"""The ctypes declarations of libtafel.so: one argtypes/restype per function.

The library is found through the TAFEL_LIB environment variable, else next
to this package (tafel/libtafel.so), else in the source tree's build/
directory (what scripts/build.sh makes).
"""
import ctypes
import ctypes.util
import os

from ctypes import (POINTER, Structure, c_char, c_char_p, c_double, c_int,
                    c_int32, c_size_t, c_uint32, c_uint64, c_void_p)

CHANCE = -1
TERMINAL = -2
MAX_PLAYERS = 5
ACTION_TEXT_MAX = 64
RENDER_COLOR, RENDER_WHOLE, RENDER_KEY, RENDER_WORDS = 1, 2, 4, 8
REQUEST, REQUEST_SPENT = 1, 2  # TAFEL_REQUEST, TAFEL_REQUEST_SPENT
OBSERVATION, INFORMATION_STATE = 0, 1  # TAFEL_OBSERVATION, ..._INFORMATION_STATE
TENSOR_MAX_RANK = 4

# The order of TAFEL_STATUS_MAP in tafel.h: the codes are their indexes.
STATUS_NAMES = ("OK", "EINVAL", "EGAME", "EPARAM", "EILLEGAL", "EPARSE",
                "ERECORD", "EBOT", "ENOMEM", "EIO", "ESTATE")


class ErrorStruct(Structure):
    """struct tafel_error: where fallible calls explain themselves."""
    _fields_ = [("code", c_int), ("message", c_char * 256)]


action_p = POINTER(c_int32)
rng_p = POINTER(c_uint64)
# Opaque objects are plain void pointers; c_void_p keeps them as ints.
game_t = state_t = record_t = bot_t = c_void_p


# struct tafel_evaluator: a leaf evaluator's function and how it is called.
EVALUATE = ctypes.CFUNCTYPE(c_int, c_void_p, POINTER(c_void_p), c_int, c_void_p, c_void_p,
                            POINTER(ErrorStruct))


class Evaluator(Structure):
    _fields_ = [("evaluate", EVALUATE), ("ctx", c_void_p), ("batch", c_int),
                ("priors", c_int)]


EVALUATOR_MAX_BATCH = 1024


class BotMove(Structure):
    """struct tafel_bot_move: one move a bot considered."""
    _fields_ = [("action", c_int32), ("share", c_double), ("winrate", c_double)]

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _candidates():
    env = os.environ.get("TAFEL_LIB")
    if env:
        return [env]
    return [os.path.join(_PACKAGE_DIR, "libtafel.so"),
            os.path.normpath(os.path.join(_PACKAGE_DIR, "..", "..", "build",
                                          "libtafel.so"))]


def _open_library():
    tried = _candidates()
    for path in tried:
        if os.path.exists(path):
            return ctypes.CDLL(path)
    raise OSError(
        "libtafel.so not found (looked at %s). Build it with "
        "`cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build`"
        " and set TAFEL_LIB=build/libtafel.so, or copy it next to the "
        "package (python/tafel/libtafel.so)." % ", ".join(tried))


def _open_libc():
    # The strings the engine mallocs are freed with the same allocator.
    libc = ctypes.CDLL(None)
    if not hasattr(libc, "free"):
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
    libc.free.argtypes = [c_void_p]
    libc.free.restype = None
    return libc


lib = _open_library()
libc = _open_libc()

# name: (restype, argtypes).  Functions returning malloc'd strings are
# declared c_void_p so that the pointer survives to be freed.
_SIGNATURES = {
    "tafel_status_string": (c_char_p, [c_int]),
    "tafel_game_load": (c_int, [c_char_p, POINTER(c_void_p),
                                POINTER(ErrorStruct)]),
    "tafel_game_free": (None, [game_t]),
    "tafel_game_name": (c_char_p, [game_t]),
    "tafel_game_string": (c_char_p, [game_t]),
    "tafel_game_players": (c_int, [game_t]),
    "tafel_game_state_size": (c_size_t, [game_t]),
    "tafel_game_max_actions": (c_int, [game_t]),
    "tafel_game_num_distinct_actions": (c_int, [game_t]),
    "tafel_game_hidden_information": (c_int, [game_t]),
    "tafel_game_pieces_json": (c_void_p, [game_t]),
    "tafel_game_info": (c_char_p, [c_int, POINTER(c_char_p), c_char_p,
                                   c_size_t]),
    "tafel_state_new": (state_t, [game_t]),
    "tafel_state_clone": (state_t, [state_t]),
    "tafel_state_copy": (None, [state_t, state_t]),
    "tafel_state_free": (None, [state_t]),
    "tafel_state_equal": (c_int, [state_t, state_t]),
    "tafel_state_players": (c_int, [state_t]),
    "tafel_state_current": (c_int, [state_t]),
    "tafel_state_move_number": (c_int, [state_t]),
    "tafel_state_legal_actions": (c_int, [state_t, action_p, c_int]),
    "tafel_state_is_legal": (c_int, [state_t, c_int32]),
    "tafel_state_chance_outcomes": (c_int, [state_t, action_p,
                                            POINTER(c_double), c_int]),
    "tafel_state_sample_chance": (c_int, [state_t, rng_p, action_p]),
    "tafel_state_apply": (c_int, [state_t, c_int32, POINTER(ErrorStruct)]),
    "tafel_state_play_random": (c_int, [state_t, rng_p, action_p, c_int,
                                        action_p]),
    "tafel_action_from_text": (c_int, [state_t, c_char_p, action_p,
                                       POINTER(ErrorStruct)]),
    "tafel_action_to_text": (c_int, [state_t, c_int32, c_char_p, c_size_t]),
    "tafel_action_view_text": (c_int, [state_t, c_int, c_int32, c_char_p,
                                       c_size_t]),
    "tafel_state_apply_text": (c_int, [state_t, c_char_p,
                                       POINTER(ErrorStruct)]),
    "tafel_state_scores": (None, [state_t, POINTER(c_double)]),
    "tafel_state_projected": (None, [state_t, POINTER(c_double)]),
    "tafel_state_heuristic": (None, [state_t, POINTER(c_double)]),
    "tafel_state_winners": (c_int, [state_t, POINTER(c_int)]),
    "tafel_state_score_breakdown": (c_int, [state_t, c_int, POINTER(c_char_p),
                                            POINTER(c_double), c_int]),
    "tafel_state_view_json": (c_void_p, [state_t, c_int]),
    "tafel_state_resample": (c_int, [state_t, c_int, rng_p]),
    "tafel_state_action_reveals": (c_int, [state_t, c_int32]),
    "tafel_state_action_request": (c_int, [state_t, c_int32]),
    "tafel_state_describe": (c_int, [state_t, c_int32, c_int,
                                     POINTER(c_void_p), POINTER(ErrorStruct)]),
    "tafel_state_render": (c_void_p, [state_t, c_int, c_int]),
    "tafel_state_check": (c_int, [state_t, POINTER(ErrorStruct)]),
    "tafel_rng_seed": (c_uint64, [c_uint64]),
    "tafel_rng_next": (c_uint64, [rng_p]),
    "tafel_rng_below": (c_uint32, [rng_p, c_uint32]),
    "tafel_rng_unit": (c_double, [rng_p]),
    "tafel_bot_new": (c_int, [c_char_p, game_t, c_uint64, POINTER(c_void_p),
                              POINTER(ErrorStruct)]),
    "tafel_bot_free": (None, [bot_t]),
    "tafel_bot_name": (c_char_p, [bot_t]),
    "tafel_bot_choose": (c_int, [bot_t, state_t, action_p, POINTER(ErrorStruct)]),
    "tafel_bot_analyse": (c_int, [bot_t, state_t, POINTER(BotMove), c_int,
                                  POINTER(c_int), POINTER(ErrorStruct)]),
    "tafel_bot_info": (c_char_p, [c_int, POINTER(c_char_p)]),
    "tafel_bot_stop": (None, [bot_t]),
    "tafel_bot_set_time_cap": (c_int, [bot_t, c_int, POINTER(ErrorStruct)]),
    "tafel_bot_set_evaluator": (c_int, [bot_t, POINTER(Evaluator), POINTER(ErrorStruct)]),
    "tafel_net_load": (c_int, [game_t, c_char_p, c_size_t, POINTER(c_void_p),
                               POINTER(ErrorStruct)]),
    "tafel_net_read": (c_int, [game_t, c_char_p, POINTER(c_void_p), POINTER(ErrorStruct)]),
    "tafel_net_free": (None, [c_void_p]),
    "tafel_net_kind": (c_int, [c_void_p]),
    "tafel_net_has_policy": (c_int, [c_void_p]),
    "tafel_net_forward": (c_int, [c_void_p, c_void_p, c_int, c_void_p, c_void_p,
                                  POINTER(ErrorStruct)]),
    "tafel_bot_set_net": (c_int, [bot_t, c_void_p, c_int, POINTER(ErrorStruct)]),
    # For learners: tensors, the information-state string, the action space.
    # Output buffers are passed by address (c_void_p: an int), which is what
    # lets State write a tensor straight into a numpy array or a bytearray.
    "tafel_game_tensor_shape": (c_int, [game_t, c_int, POINTER(c_int)]),
    "tafel_game_tensor_size": (c_size_t, [game_t, c_int]),
    "tafel_game_tensor_part": (c_char_p, [game_t, c_int, c_int,
                                          POINTER(c_size_t), POINTER(c_size_t)]),
    "tafel_state_observation_tensor": (c_int, [state_t, c_int, c_void_p,
                                               c_size_t, POINTER(ErrorStruct)]),
    "tafel_state_information_state_tensor": (c_int, [state_t, c_int, c_void_p,
                                                     c_size_t,
                                                     POINTER(ErrorStruct)]),
    "tafel_information_state_string": (c_void_p, [game_t, action_p, c_int,
                                                  c_int, POINTER(ErrorStruct)]),
    "tafel_game_action_space_size": (c_int, [game_t]),
    "tafel_state_action_index": (c_int, [state_t, c_int32]),
    "tafel_state_index_action": (c_int, [state_t, c_int, action_p,
                                         POINTER(ErrorStruct)]),
    "tafel_state_legal_actions_mask": (c_int, [state_t, c_void_p, c_size_t]),
    # Batches: every buffer by address, so numpy arrays are written in place.
    "tafel_batch_new": (c_void_p, [game_t, c_int, c_uint64, c_int, POINTER(ErrorStruct)]),
    "tafel_batch_free": (None, [c_void_p]),
    "tafel_batch_size": (c_int, [c_void_p]),
    "tafel_batch_state": (c_void_p, [c_void_p, c_int]),
    "tafel_batch_final_state": (c_void_p, [c_void_p, c_int]),
    "tafel_batch_rng": (c_uint64, [c_uint64, c_int]),
    "tafel_batch_observe": (c_int, [c_void_p, c_void_p, c_void_p, c_void_p,
                                    POINTER(ErrorStruct)]),
    "tafel_batch_step": (c_int, [c_void_p, c_void_p, c_void_p, c_void_p, c_void_p,
                                 c_void_p, c_void_p, POINTER(ErrorStruct)]),
    "tafel_record_free": (None, [record_t]),
    "tafel_record_from_json": (c_int, [c_char_p, POINTER(c_void_p),
                                       POINTER(ErrorStruct)]),
    "tafel_record_replay": (c_int, [record_t, POINTER(c_void_p),
                                    POINTER(c_void_p), POINTER(ErrorStruct)]),
}

for _name, (_restype, _argtypes) in _SIGNATURES.items():
    _function = getattr(lib, _name)
    _function.restype = _restype
    _function.argtypes = _argtypes


def take_string(pointer):
    """The text of a malloc'd C string, which is then freed (None for NULL)."""
    if not pointer:
        return None
    try:
        return ctypes.string_at(pointer).decode("utf-8")
    finally:
        libc.free(pointer)
