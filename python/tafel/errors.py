"""Engine errors as Python exceptions: one class per tafel_status.

Every exception carries the engine's own message (what tafel_error says),
its status code and the status name.  Catch TafelError for any of them.
"""
from . import _lib


class TafelError(Exception):
    """A call into the engine failed; str(error) is the engine's message."""
    code = -1

    def __init__(self, message, code=None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    @property
    def status(self):
        """The status name from tafel.h ("EILLEGAL")."""
        if 0 <= self.code < len(_lib.STATUS_NAMES):
            return _lib.STATUS_NAMES[self.code]
        return "UNKNOWN"


class InvalidArgumentError(TafelError):
    code = 1


class UnknownGameError(TafelError):
    code = 2


class BadParameterError(TafelError):
    code = 3


class IllegalActionError(TafelError):
    code = 4


class ParseError(TafelError):
    """Text or bytes the engine could not read (TAFEL_EPARSE)."""
    code = 5


class ActionParseError(ParseError):
    """An action's text that does not read."""


class NetFileError(ParseError):
    """A weights file that is not one, or is cut short or damaged (tafel.Net)."""


class RecordError(TafelError):
    code = 6


class BotError(TafelError):
    code = 7


class EngineMemoryError(TafelError, MemoryError):
    code = 8


class EngineIOError(TafelError, OSError):
    code = 9


class StateError(TafelError):
    code = 10


_CLASS_OF_CODE = {cls.code: cls for cls in (
    InvalidArgumentError, UnknownGameError, BadParameterError,
    IllegalActionError, ActionParseError, RecordError, BotError,
    EngineMemoryError, EngineIOError, StateError)}


def status_message(code):
    """The generic message of a status ("illegal action")."""
    return _lib.lib.tafel_status_string(code).decode()


def error_for(code, message=None):
    """The exception for status code, with message (else the generic one)."""
    if not message:
        message = status_message(code)
    return _CLASS_OF_CODE.get(code, TafelError)(message, code)


def raise_if_failed(code, error_struct=None):
    """Raise the exception of a failed call (code != 0), quoting the engine."""
    if code:
        message = None
        if error_struct is not None:
            message = error_struct.message.decode("utf-8", "replace")
        raise error_for(code, message)
