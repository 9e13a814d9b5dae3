"""The process protocol of convcert (suite/ADAPTERS.md): handshake, BATCH, BLOCKS, TENSORS and MEMORY batches."""
import inspect
import re
import struct
import sys

import numpy as np

# Bytes per element of the formats convcert's profiles name (the width column of formats.csv, rounded up).
WIDTHS = {
    "float": 4, "half": 2, "bfloat16": 2, "double": 8, "hifloat8": 1, "fp8_e4m3fn": 1, "fp8_e5m2": 1,
    "fp8_e4m3fnuz": 1, "fp8_e5m2fnuz": 1, "fp6_e2m3": 1, "fp6_e3m2": 1, "fp4_e2m1": 1, "e8m0": 1, "ue5m3": 1,
    "ue4m3": 1, "fp8_e4m3": 1, "fp8_e3m4": 1, "fp8_e4m3b11fnuz": 1, "int8": 1, "uint8": 1, "int16": 2, "uint16": 2, "int32": 4,
    "uint32": 4, "int64": 8, "uint64": 8, "mx_int8": 1,
}
# Every alias in spec-tables' formats.csv and blocks.csv (all profiles) to the name convcert sends in its batches,
# so a device may declare "e5m2" or "bf16"; PythonDeviceTest holds it to the tables. P3109's generated family
# names (p3109_k8p3se for binary8p3se) follow one rule instead.
ALIASES = {
    "Float4E2M1FN": "fp4_e2m1", "Float6E2M3FN": "fp6_e2m3", "Float6E3M2FN": "fp6_e3m2", "Float8E3M4": "fp8_e3m4",
    "Float8E4M3": "fp8_e4m3", "Float8E4M3B11FNUZ": "fp8_e4m3b11fnuz", "Float8E4M3FN": "fp8_e4m3fn", "Float8E4M3FNUZ":
    "fp8_e4m3fnuz", "Float8E5M2": "fp8_e5m2", "Float8E5M2FNUZ": "fp8_e5m2fnuz", "Float8E8M0FNU": "e8m0",
    "__AMD_OCP_E2M1": "fp4_e2m1", "__AMD_OCP_E2M3": "fp6_e2m3", "__AMD_OCP_E3M2": "fp6_e3m2", "__AMD_OCP_E4M3":
    "fp8_e4m3fn", "__AMD_OCP_E5M2": "fp8_e5m2",
    "__HIP_E4M3": "fp8_e4m3fn", "__HIP_E4M3_FNUZ": "fp8_e4m3fnuz", "__HIP_E5M2": "fp8_e5m2", "__HIP_E5M2_FNUZ":
    "fp8_e5m2fnuz", "__half": "half", "__hip_fp8_e4m3": "fp8_e4m3fn", "__hip_fp8_e4m3_fnuz": "fp8_e4m3fnuz",
    "__hip_fp8_e5m2": "fp8_e5m2", "__hip_fp8_e5m2_fnuz": "fp8_e5m2fnuz", "__nv_bfloat16": "bfloat16", "__nv_fp4_e2m1":
    "fp4_e2m1", "__nv_fp4x2_e2m1": "fp4x2_e2m1", "__nv_fp6_e2m3": "fp6_e2m3", "__nv_fp6_e3m2": "fp6_e3m2",
    "__nv_fp8_e4m3": "fp8_e4m3fn", "__nv_fp8_e5m2": "fp8_e5m2", "__nv_fp8_e8m0": "e8m0", "__nv_fp8_ue5m3": "ue5m3",
    "cutlass::float_ue4m3_t": "ue4m3", "float_ue4m3_t": "ue4m3",
    "bf16": "bfloat16", "bfloat": "bfloat16", "bfloat16_t": "bfloat16", "binary16": "half", "binary32": "float",
    "binary64": "double", "char":
    "int8", "d": "double", "e2m1": "fp4_e2m1", "e2m3": "fp6_e2m3", "e3m2": "fp6_e3m2", "e4m3": "fp8_e4m3fn", "e4m3fn":
    "fp8_e4m3fn", "e4m3fnuz": "fp8_e4m3fnuz", "e5m2": "fp8_e5m2", "e5m2fnuz": "fp8_e5m2fnuz", "e5m3fnu": "ue5m3",
    "e8m0fnu": "e8m0", "f16": "half", "f32": "float", "f64": "double", "float16": "half", "float32": "float",
    "float4_e2m1fn": "fp4_e2m1", "float8_e3m4": "fp8_e3m4", "float8_e4m3": "fp8_e4m3",
    "float8_e4m3b11fnuz": "fp8_e4m3b11fnuz", "float64": "double", "float6_e2m3fn": "fp6_e2m3", "float6_e3m2fn":
    "fp6_e3m2",
    "float8_e4m3fn": "fp8_e4m3fn", "float8_e4m3fnuz": "fp8_e4m3fnuz", "float8_e5m2": "fp8_e5m2", "float8_e5m2fnuz":
    "fp8_e5m2fnuz", "float8_e5m3fnu": "ue5m3", "float8_e8m0fnu": "e8m0", "fp16": "half", "fp32": "float", "fp4x2":
    "fp4x2_e2m1", "fp64": "double", "fp8_e4m3fn_t": "fp8_e4m3fn", "fp8_e5m2_t": "fp8_e5m2", "h": "half", "hif8":
    "hifloat8", "hifloat8_t": "hifloat8", "i16": "int16", "i32": "int32", "i64": "int64", "i8": "int8", "int": "int32",
    "int16_t": "int16", "int32_t": "int32", "int64_t": "int64", "int8_mx": "mx_int8", "int8_t": "int8", "l": "int64",
    "ll": "int64", "long": "int64", "lu": "uint64", "mxfp4": "mxfp4_e2m1", "mxfp6": "mxfp6_e3m2", "mxfp8": "mxfp8_e4m3",
    "mxint8_element": "mx_int8", "nvfp4_e2m1": "nvfp4", "nvfp4_e2m1_ue5m3": "nvfp4_ue5m3", "nxfp4": "mxfp4_e2m1_bs16",
    "nxfp8_e4m3": "mxfp8_e4m3_bs16",
    "ofp8_e4m3": "fp8_e4m3fn", "ofp8_e5m2": "fp8_e5m2", "s": "float", "scale": "e8m0", "short": "int16", "single":
    "float", "u16": "uint16", "u32": "uint32", "u64": "uint64", "u8": "uint8", "uchar": "uint8", "uint": "uint32",
    "uint16_t": "uint16", "uint32_t": "uint32", "uint64_t": "uint64", "uint8_t": "uint8", "ull": "uint64", "ulong":
    "uint64", "unsigned": "uint32", "ushort": "uint16", "w": "int32", "wu": "uint32",
}
_P3109 = re.compile(r"p3109_k(\d+)p(\d+)([a-z]*)$")


def _width(name):
    """Bytes per element: WIDTHS, or a P3109 format's K bits rounded up to bytes."""
    m = re.match(r"binary(\d+)p", name)
    return WIDTHS.get(name) or (m and (int(m.group(1)) + 7) // 8)


def canonical(name):
    """The name convcert uses for a format or block format named by an alias ("e5m2" -> "fp8_e5m2")."""
    m = _P3109.match(name)
    return "binary%sp%s%s" % m.groups() if m else ALIASES.get(name, name)


UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
BLOCK = 32  # elements per OCP MX block, unless the block format's name ends in _bs<N>


def _vector(type_, n):
    return type_ + ("" if n == 1 else str(n))


def _memory_name(case):
    """The case's name as MEM lines give it (MemoryCase.name): "vload4 int4", "vstore_half3_rtz float3"."""
    if case["function"] == "as_type":
        function = "as_" + _vector(case["to_type"], case["to_n"])
    else:
        function = case["function"] + ("" if case["n"] == 1 else str(case["n"])) + (
            "_" + case["rounding"] if case["rounding"] else "")
    return function + " " + _vector(case["type"], case["n"])


def _wants_key(fn, arrays=1):
    """Whether a conversion function takes the case after its arrays (inputs, and scales where scaled) as one
    more argument without a default."""
    required = [p for p in inspect.signature(fn).parameters.values() if p.default is p.empty
                and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(required) > arrays


def _matches(pattern, value):
    return pattern == "*" or pattern == value


class Device:
    """Collects what the device implements, then serves convcert on stdin/stdout (run)."""

    def __init__(self, checks_alignment=False, programs_saturation=True):
        """programs_saturation=False: the functions read only the case's state, not its form and CTRL bits, so
        convcert runs each saturation state once (the handshake's SATURATION told)."""
        self.checks_alignment = checks_alignment
        self.programs_saturation = programs_saturation
        self._values = []   # (from, to, rounding, state, in_bytes, out_bytes, fn, scaled, random)
        self._blocks = []   # (from, to, rounding, fn)
        self._tensors = []  # (from, to, rounding, fn)
        self._memory = {}   # case name -> fn

    def convert(self, src, dst, rounding, state, in_bytes=None, out_bytes=None, scaled=False, random=False):
        """Declares a value conversion; the decorated function maps an input array to an output array.
        scaled=True: a pair with a scale lane (conversions.csv's scale column); the function then gets the
        scales too, a uint32 word per input, the scale field in its low bits (two's complement where signed).
        random=True: stochastic rounding (rs) with random bits beside each value (the random_bits column); the
        function gets a uint32 word per input too: the random bits, or with scaled=True the scale field with the
        random bits above it (gfx950's _sr_ forms)."""
        def register(fn):
            self._values.append((canonical(src), canonical(dst), rounding, state, in_bytes, out_bytes, fn, scaled, random))
            return fn
        return register

    def blocks(self, src, dst, rounding, size=None):
        """Declares a block conversion (values <-> a block-scaled format such as mxfp4_e2m1): size elements a
        block, by default as the case names it (mxfp4_e2m1_bs16: 16), else 32."""
        def register(fn):
            self._blocks.append((canonical(src), canonical(dst), rounding, fn, size))
            return fn
        return register

    def tensors(self, src, dst, rounding):
        """Declares a whole-tensor quantizer (a row of tensors.csv, e.g. float -> mxfp8_e4m3_t130x136_sw).
        Quantizing, the function gets a float32 array (rows, columns) and the shape (a dict: rows, columns,
        along, layout, size, packed, amax, slots) and returns (scales, elements), or (A, scales, elements)
        where shape["amax"] (NVFP4): one uint8 code per slot of the stored layout, and uint8 codes
        (rows, columns). Dequantizing, it gets (scales, elements, shape), shape["A"] the float A where there
        is one, and returns float32 (rows, columns). Packing FP4 two a byte is done here, low nibble first."""
        def register(fn):
            self._tensors.append((canonical(src), canonical(dst), rounding, fn))
            return fn
        return register

    def memory(self, case):
        """Declares an OpenCL memory case ("vload4 int4", "as_float4 int4", ...)."""
        def register(fn):
            self._memory[case] = fn
            return fn
        return register

    # ---- serving -----------------------------------------------------------------------------------

    def run(self, stdin=None, stdout=None):
        """Serves convcert until QUIT or the end of input."""
        self._in = stdin or sys.stdin.buffer
        self._out = stdout or sys.stdout.buffer
        if not self._in.readline().startswith(b"CONVCERT 1"):
            sys.exit("convcert-device: expected the hello 'CONVCERT 1'")
        lines = ["CAP %s %s %s %s" % v[:4] for v in self._values]
        lines += ["CAP %s %s %s block" % b[:3] for b in self._blocks]
        lines += ["CAP %s %s %s tensor" % t[:3] for t in self._tensors]
        lines += ["MEM " + case for case in self._memory]
        if self.checks_alignment:
            lines.append("ALIGNMENT checked")
        if not self.programs_saturation:
            lines.append("SATURATION told")
        if any(v[7] for v in self._values):
            lines.append("SCALE")
        if any(v[8] for v in self._values):
            lines.append("RANDOM")
        self._out.write(("\n".join(lines + ["READY"]) + "\n").encode())
        self._out.flush()
        for line in iter(self._in.readline, b""):
            words = line.decode("ascii", "replace").split()
            if not words or words[0] == "QUIT":
                return
            try:
                answer = {"BATCH": self._batch, "BLOCKS": self._block_batch, "TENSORS": self._tensor_batch,
                          "MEMORY": self._memory_batch}[words[0]](words)
            except KeyError:
                answer = b"ERR unknown request " + words[0].encode()[:40] + b"\n"
            self._out.write(answer)
            self._out.flush()

    def _read(self, n):
        data = self._in.read(n)
        if len(data) != n:
            sys.exit("convcert-device: the batch ended early")
        return data

    @staticmethod
    def _error(e, limit=400):
        """One ERR line quoting the exception: printable ASCII, at most limit characters, then the line break."""
        text = "%s: %s" % (type(e).__name__, " ".join(str(e).split()))
        text = "".join(c if " " <= c <= "~" else "?" for c in text)
        return ("ERR " + (text if len(text) <= limit else text[:limit - 3] + "...") + "\n").encode("ascii")

    def _batch(self, words):
        src, dst, rounding, state, form, ctrl, count = words[1:8]
        count = int(count)
        found = next((v for v in self._values if _matches(v[0], src) and _matches(v[1], dst)
                      and _matches(v[2], rounding) and _matches(v[3], state)), None)
        in_bytes = (found and found[4]) or _width(src)
        out_bytes = (found and found[5]) or _width(dst)
        if in_bytes is None or out_bytes is None:
            return b"ERR unknown width of %s or %s\n" % (src.encode(), dst.encode())
        # the payload is read whatever happens, so the stream stays in step: a scaled pair's scales, or an rs
        # case's random bits, follow its inputs
        data = self._read(count * in_bytes)
        laned = any(v[7] for v in self._values if _matches(v[0], src) and _matches(v[1], dst)) or any(
            v[8] for v in self._values if _matches(v[0], src) and _matches(v[1], dst) and _matches(v[2], rounding))
        scales = np.frombuffer(self._read(count * 4), dtype="<u4").astype(np.uint32) if laned else None
        if count == 0:
            return b"OK 0\n"
        if found is None:
            return b"ERR not implemented: %s->%s %s %s\n" % (src.encode(), dst.encode(), rounding.encode(), state.encode())
        fn = found[6]
        x = np.frombuffer(data, dtype=np.dtype(UNSIGNED[in_bytes]).newbyteorder("<")).astype(UNSIGNED[in_bytes])
        key = {"from": src, "to": dst, "rounding": rounding, "state": state, "form": form, "ctrl": ctrl}
        args = (x,) if scales is None else (x, scales)
        try:
            with np.errstate(all="ignore"):
                y = fn(*args, key) if _wants_key(fn, len(args)) else fn(*args)
            y = np.asarray(y).astype(UNSIGNED[out_bytes]).reshape(-1)
            if y.size != count:
                raise ValueError("returned %d values for %d inputs" % (y.size, count))
        except Exception as e:  # the case fails with the message; the next one goes on
            return self._error(e)
        return b"OK %d\n" % count + y.astype(np.dtype(UNSIGNED[out_bytes]).newbyteorder("<")).tobytes()

    def _block_batch(self, words):
        src, dst, rounding, count = words[1], words[2], words[3], int(words[4])
        to_block = src == "float"
        found = next((b for b in self._blocks if _matches(b[0], src) and _matches(b[1], dst) and _matches(b[2], rounding)),
                     None)
        size = (found and found[4]) or _block_size(dst if to_block else src)
        in_size, out_size = (4 * size, 1 + size) if to_block else (1 + size, 4 * size)
        data = self._read(count * in_size)  # read whatever happens, so the stream stays in step
        if count == 0:
            return b"OK 0\n"
        if found is None:
            return b"ERR not implemented: %s->%s %s block\n" % (src.encode(), dst.encode(), rounding.encode())
        x = (np.frombuffer(data, dtype="<f4").reshape(count, size) if to_block
             else np.frombuffer(data, dtype=np.uint8).reshape(count, 1 + size))
        try:
            with np.errstate(all="ignore"):
                y = np.asarray(found[3](x))
            y = y.astype(np.uint8 if to_block else "<f4").reshape(count, out_size if to_block else size)
        except Exception as e:
            return self._error(e)
        return b"OK %d\n" % count + y.tobytes()

    def _tensor_batch(self, words):
        src, dst, rounding = words[1:4]
        rows, cols, along, layout, size, storage, amax = words[4:11]
        rotation = words[11] if len(words) == 13 else None  # a rotated tensor's hadamard-N:SIGNS, before the count
        rows, cols, size, count = int(rows), int(cols), int(size), int(words[-1])
        shape = {"rows": rows, "columns": cols, "along": along, "layout": layout, "size": size, "rotation": rotation,
                 "packed": storage == "packed", "amax": amax == "amax", "slots": _slots(rows, cols, along, layout, size)}
        lead, slots, n = 4 if shape["amax"] else 0, shape["slots"], rows * cols
        side = lead + slots + (n // 2 if shape["packed"] else n)  # [A,] scales, elements
        quantize = src == "float"
        in_size, out_size = (4 * n, side) if quantize else (side, 4 * n)
        data = self._read(count * in_size)  # read whatever happens, so the stream stays in step
        if count == 0:
            return b"OK 0\n"
        found = next((t for t in self._tensors if _matches(t[0], src) and _matches(t[1], dst) and _matches(t[2], rounding)),
                     None)
        if found is None:
            return b"ERR not implemented: %s->%s %s tensor\n" % (src.encode(), dst.encode(), rounding.encode())
        out = bytearray()
        try:
            for k in range(count):
                chunk = data[k * in_size:(k + 1) * in_size]
                with np.errstate(all="ignore"):
                    if quantize:
                        r = tuple(found[3](np.frombuffer(chunk, dtype="<f4").reshape(rows, cols), shape))
                        a, scales, elements = r if lead else (None,) + r
                        out += b"" if a is None else np.array([a], dtype="<f4").tobytes()
                        out += _codes(scales, slots, "scales").tobytes() + _stored(_codes(elements, n, "elements"), shape)
                    else:
                        a = np.frombuffer(chunk[:lead], dtype="<f4")[0] if lead else None
                        scales = np.frombuffer(chunk[lead:lead + slots], dtype=np.uint8)
                        raw = np.frombuffer(chunk[lead + slots:], dtype=np.uint8)
                        elements = np.stack([raw & 0xF, raw >> 4], axis=1).reshape(-1) if shape["packed"] else raw
                        y = np.asarray(found[3](scales, elements.reshape(rows, cols), dict(shape, A=a)), dtype="<f4")
                        out += _codes(y, n, "values", "<f4").tobytes()
        except Exception as e:
            return self._error(e)
        return b"OK %d\n" % count + bytes(out)

    def _memory_batch(self, words):
        function, type_, n, rnd, to_type, to_n, count = words[1:8]
        count = int(count)
        images = [self._read(length) for length in (struct.unpack("<I", self._read(4))[0]
                                                    for _ in range(struct.unpack("<I", self._read(4))[0]))]
        vectors = []
        for _ in range(count):
            pointer, offset, image, length = struct.unpack("<qqiI", self._read(24))
            vectors.append((pointer, offset, images[image] if image >= 0 else None, self._read(length)))
        case = {"function": function, "type": type_, "n": int(n), "rounding": "" if rnd == "-" else rnd,
                "to_type": "" if to_type == "-" else to_type, "to_n": int(to_n)}
        case["name"] = _memory_name(case)
        if count == 0:
            return b"OK 0\n"
        fn = self._memory.get(case["name"])
        if fn is None:
            return b"ERR not implemented: " + case["name"].encode() + b"\n"
        answer = [b"OK %d\n" % count]
        try:
            for pointer, offset, memory, data in vectors:
                result = fn(case, pointer, offset, memory, data)
                answer.append(struct.pack("<i", -1) if result is None else struct.pack("<i", len(result)) + bytes(result))
        except Exception as e:
            return self._error(e)
        return b"".join(answer)


def _slots(rows, cols, along, layout, size):
    """The slots of a tensor's stored scale layout (spec-tables/README.md, tensors.csv)."""
    outer, axis = (rows, cols) if along == "row" else (cols, rows)
    inner = -(-axis // size)
    if layout == "shuffled-256x8":  # AMD's pre-shuffled layout: padded to 256 x 8
        return -(-outer // 256) * 256 * (-(-inner // 8) * 8)
    return outer * inner if layout == "plain" else -(-outer // 128) * 128 * (-(-inner // 4) * 4)


def _codes(a, n, what, dtype=np.uint8):
    """a as n values of dtype, or an error naming what came back."""
    a = np.asarray(a).astype(dtype).reshape(-1)
    if a.size != n:
        raise ValueError("returned %d %s for %d" % (a.size, what, n))
    return a


def _stored(elements, shape):
    """Elements as the case stores them: a byte each, or two a byte, the first in the low nibble."""
    return ((elements[0::2] & 0xF) | ((elements[1::2] & 0xF) << 4)).astype(np.uint8).tobytes() if shape["packed"] \
        else elements.tobytes()


def _block_size(name):
    """Elements a block of the named format holds: N for a name ending in _bs<N>, else BLOCK."""
    found = re.search(r"_bs([0-9]+)$", name)
    return int(found.group(1)) if found else BLOCK
