"""convcert's bit-exact reference for numpy: convert(array, to=..., profile=...) as the tables say.

    import numpy as np, convcert
    convcert.convert(np.float32([1.0, 448.0, 500.0]), to="fp8_e4m3fn", profile="ocp-mx", rounding="rn",
                     saturation="sat")          # -> uint8 bit patterns [0x38, 0x7E, 0x7E]

One `convcert serve` process is started on the first call and kept (see ORACLE.md); close() ends it.
"""
import numpy as np

from .oracle import RESULTS, SOURCES, UNSIGNED, ConvcertError, Oracle

__all__ = ["convert", "describe", "close", "Oracle", "ConvcertError"]

_default = Oracle()


def _words(source, to, profile, tables, rounding, saturation, ctrl, decisions):
    if (profile is None) == (tables is None):
        raise ConvcertError("give profile= (e.g. 'ieee754', 'ocp-mx', 'cuda') or tables= (a folder of spec tables), "
                            "not both or neither: the answer depends on the text")
    words = ["tables=%s" % tables if tables is not None else "profile=%s" % profile, "from=%s" % source, "to=%s" % to]
    for key, value in (("rounding", rounding), ("saturation", saturation), ("ctrl", ctrl)):
        if value is not None:
            words.append("%s=%s" % (key, value))
    for decision, option in (decisions or {}).items():
        words.append("decision=%s=%s" % (decision, option))
    for w in words:
        if any(c.isspace() for c in w):
            raise ConvcertError("%r: no whitespace allowed" % w)
    return " ".join(words)


def _source(array, source):
    if source is not None:
        return source
    name = array.dtype.name
    if name in SOURCES:
        return SOURCES[name]
    raise ConvcertError("say what the %s array holds with source= (a format name, e.g. source='bfloat16' for its bit "
                        "patterns)" % name)


def describe(to, source, profile=None, rounding=None, saturation=None, decisions=None, ctrl=None, tables=None,
             oracle=None):
    """How the reference resolves a case: a dict with from, to, rounding, saturation, state, widths, lane and case."""
    words = _words(source, to, profile, tables, rounding, saturation, ctrl, decisions)
    return (oracle or _default).case(words)


def convert(array, to, *, profile=None, rounding=None, saturation=None, decisions=None, ctrl=None, source=None,
            lanes=None, tables=None, bits=False, oracle=None):
    """Converts every element of array to format `to` as the profile's tables say, bit for bit.

    array: numpy values (float32, float64, float16, integers), or unsigned bit patterns of `source` (any format
    the profile names, e.g. source='bfloat16'; an ml_dtypes array is read as its bit patterns).
    profile: the profile (a folder of spec-tables/) whose text decides; tables: a folder of tables instead.
    rounding: rn rd ru rna rz ro rh rs...; default the pair's only mode (else an error lists them).
    saturation: nosat, sat, satfinite, ... (the form); default nosat where the pair offers it.
    decisions: {id: option} of decisions.csv; ctrl: CTRL bits as "60=0,48=1".
    lanes: per-element random bits (stochastic rounding) or scale K (scaled pairs), an integer or an array; a scaled
    pair under rs (gfx950's _sr_ forms) takes a pair (K, random bits), each an integer or an array.
    Returns numpy values where numpy has the destination's type (float, half, double, integers) unless bits=True,
    else unsigned bit patterns of the destination's width (a 4-bit format one per byte, in its low bits).
    """
    array = np.asarray(array)
    oracle = oracle or _default
    src = _source(array, source)
    words = _words(src, to, profile, tables, rounding, saturation, ctrl, decisions)
    info = oracle.case(words)
    in_bytes = int(info["in"])
    if array.dtype.name in SOURCES and source is None:
        patterns = array.view(UNSIGNED[array.dtype.itemsize])
    elif array.dtype.itemsize == in_bytes:
        patterns = array.view(UNSIGNED[in_bytes])
    else:
        raise ConvcertError("a %s array cannot hold %s bit patterns (%s bytes each)" % (array.dtype.name, info["from"],
                                                                                       in_bytes))
    lane_values = None
    if info["lane"] != "none":
        if lanes is None:
            raise ConvcertError("%s takes a lane beside each value (%s): give lanes=" % (info["case"], info["lane"]))
        if "+" in info["lane"]:  # a scale and random bits: K in the low 32 bits of the word, the bits above
            if not isinstance(lanes, tuple) or len(lanes) != 2:
                raise ConvcertError("%s takes a scale and random bits beside each value (%s): give lanes=(K, RANDOM)"
                                    % (info["case"], info["lane"]))
            k, random = (np.broadcast_to(np.asarray(v, dtype=np.int64), array.shape) for v in lanes)
            lanes = (k & 0xFFFFFFFF) | (random << 32)
        lane_values = np.broadcast_to(np.asarray(lanes, dtype=np.int64), array.shape)
    elif lanes is not None:
        raise ConvcertError("%s takes no lanes" % info["case"])
    out = oracle.convert_bits(words, np.ascontiguousarray(patterns), lane_values, info)
    result = RESULTS.get(info["to"])
    return out.view(result) if result is not None and not bits else out


def close():
    """Ends the default oracle's server (a later call starts another)."""
    _default.close()
