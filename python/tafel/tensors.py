"""Buffers for tensors and masks: numpy arrays when numpy imports, else
memoryviews; either way the engine writes straight into their memory.

A new buffer is a ctypes array (its address is known at once) wrapped
without a copy: np.frombuffer(...).reshape(shape), or a memoryview cast to
format 'f' (floats) or 'B' (a mask) and the tensor's shape.  A buffer the
caller passes back (out=) is checked once and its address remembered while
it is the last one used, so reusing one buffer per step costs no
allocation and no address look-up.
"""
import ctypes

from .errors import InvalidArgumentError

try:  # numpy is optional: Debian's python3-numpy, in /usr/bin/python3
    import numpy
except ImportError:  # pragma: no cover - depends on the interpreter
    numpy = None

HAVE_NUMPY = numpy is not None

KINDS = {"observation": 0, "information_state": 1}
KIND_NAMES = {code: name for name, code in KINDS.items()}


def kind_code(kind):
    """0 or 1 from "observation" / "information_state" (or 0 / 1)."""
    if kind in KIND_NAMES:
        return kind
    try:
        return KINDS[kind]
    except (KeyError, TypeError):
        raise InvalidArgumentError(
            "tensor kind %r: one of 'observation', 'information_state'"
            % (kind,)) from None


def new_floats(array_type, shape):
    """(array, address): a zeroed float32 tensor of shape."""
    raw = array_type()
    address = ctypes.addressof(raw)
    if numpy is not None:
        return numpy.frombuffer(raw, numpy.float32).reshape(shape), address
    return memoryview(raw).cast("B").cast("f", shape), address


def new_bytes(array_type, numpy_dtype="bool"):
    """(array, address): a zeroed mask of len(array_type) bytes."""
    raw = array_type()
    address = ctypes.addressof(raw)
    if numpy is not None:
        return numpy.frombuffer(raw, numpy_dtype), address
    return memoryview(raw).cast("B"), address


# The last out= buffer of each sort: (object, address, keeper).  Holding
# the object keeps its memory where it is (numpy refuses to resize an array
# referenced elsewhere; a buffer with an export cannot be resized).  One
# tuple, replaced whole, so threads sharing a Game read a consistent entry.
_last_out = {"f": (None, 0, None), "B": (None, 0, None)}

_FLOAT_FORMATS = ("f", "<f", "=f")
_BYTE_FORMATS = ("B", "b", "?", "c", "<B", "=B", "<b", "=b", "<?", "=?")


def out_address(out, sort, count):
    """The address of out, a writable C-contiguous buffer of count items:
    float32 (sort "f") or one byte each (sort "B"); InvalidArgumentError
    saying what is wrong otherwise."""
    last = _last_out[sort]
    if last[0] is out:
        return last[1]
    what = "float32" if sort == "f" else "one byte an entry (bool, uint8, int8)"
    if numpy is not None and isinstance(out, numpy.ndarray):
        ok_dtype = (out.dtype == numpy.float32 if sort == "f"
                    else out.dtype.itemsize == 1 and out.dtype.kind in "biu")
        if not ok_dtype:
            raise InvalidArgumentError("out: dtype %s, wanted %s" % (out.dtype, what))
        if not out.flags.c_contiguous or not out.flags.writeable:
            raise InvalidArgumentError("out: not a writable C-contiguous array")
        if out.size != count:
            raise InvalidArgumentError("out: %d entries, wanted %d" % (out.size, count))
        address, keeper = out.ctypes.data, None
    else:
        try:
            view = memoryview(out)
        except TypeError:
            raise InvalidArgumentError(
                "out: a %s is no buffer (a numpy array, a memoryview or a "
                "bytearray)" % type(out).__name__) from None
        formats = _FLOAT_FORMATS if sort == "f" else _BYTE_FORMATS
        if view.format not in formats:
            raise InvalidArgumentError("out: format %r, wanted %s"
                                       % (view.format, what))
        if view.readonly or not view.c_contiguous:
            raise InvalidArgumentError("out: not a writable C-contiguous buffer")
        if view.nbytes != count * view.itemsize:
            raise InvalidArgumentError("out: %d entries, wanted %d"
                                       % (view.nbytes // view.itemsize, count))
        keeper = (ctypes.c_char * view.nbytes).from_buffer(view)
        address = ctypes.addressof(keeper)
    _last_out[sort] = (out, address, keeper)
    return address
