"""convcert's reference as a numpy oracle: one long-lived `convcert serve` process, arrays through a shared file.

The protocol is ORACLE.md's (beside this package): a line a request, a line an answer, the arrays in a file
both processes map, so a call costs two copies of the array and the conversion, not a JVM start.
"""
import atexit
import mmap
import os
import shlex
import shutil
import subprocess
import tempfile
import threading

import numpy as np

UNSIGNED = {1: np.dtype("<u1"), 2: np.dtype("<u2"), 4: np.dtype("<u4"), 8: np.dtype("<u8")}
# The numpy dtypes whose values a source format's name can be read from (an array of them needs no source=).
SOURCES = {
    "float32": "float", "float64": "double", "float16": "half", "int8": "int8", "uint8": "uint8", "int16": "int16",
    "uint16": "uint16", "int32": "int32", "uint32": "uint32", "int64": "int64", "uint64": "uint64",
}
# What convert returns for a destination numpy has a type for; other formats come back as unsigned bit patterns.
RESULTS = {"float": np.float32, "double": np.float64, "half": np.float16, "int8": np.int8, "uint8": np.uint8,
           "int16": np.int16, "uint16": np.uint16, "int32": np.int32, "uint32": np.uint32, "int64": np.int64,
           "uint64": np.uint64}


class ConvcertError(ValueError):
    """A request convcert refused (an unknown type, a pair the profile lacks, ...): its one-line message."""


def find_launcher(home=None):
    """The convcert command: HOME's (a checkout's ./convcert or a distribution's bin/convcert), CONVCERT_HOME's,
    the checkout or distribution this package sits in, or convcert on PATH."""
    here = os.path.dirname(os.path.abspath(__file__))
    homes = [home, os.environ.get("CONVCERT_HOME"), os.path.join(here, "..", "..", "..")]
    for h in homes:
        if not h:
            continue
        for candidate in (os.path.join(h, "convcert"), os.path.join(h, "bin", "convcert")):
            if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                return os.path.abspath(candidate)
        if h is not homes[-1]:
            raise ConvcertError("no convcert command in %s (neither convcert nor bin/convcert)" % h)
    found = shutil.which("convcert")
    if not found:
        raise ConvcertError("convcert not found: set CONVCERT_HOME to a checkout or distribution of convcert, or put "
                            "its bin/ on PATH")
    return found


class Oracle:
    """One `convcert serve` process and its shared file; thread-safe (one request at a time). Started on first use.

    command: the command line that serves (a list), instead of `convcert serve` of home (find_launcher); also
    taken from the environment's CONVCERT_COMMAND (shell words), e.g. a java command line with convcert's classes.
    """

    def __init__(self, home=None, command=None):
        self._home = home
        self._command = command
        self._lock = threading.Lock()
        self._process = None
        self._file = None
        self._map = None
        self._cases = {}
        atexit.register(self.close)

    def _start(self):
        command = self._command or shlex.split(os.environ.get("CONVCERT_COMMAND", ""))
        command = command or [find_launcher(self._home), "serve"]
        self._stderr = tempfile.TemporaryFile()
        self._process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self._stderr, text=True, bufsize=1)
        if self._file is None:
            shm = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
            fd, self._file = tempfile.mkstemp(prefix="convcert-oracle-", suffix=".mem", dir=shm)
            os.close(fd)

    def _ask(self, line):
        if self._process is None:
            self._start()
        try:
            self._process.stdin.write(line + "\n")
            self._process.stdin.flush()
            answer = self._process.stdout.readline()
        except (BrokenPipeError, OSError):
            answer = ""
        if not answer:
            self._stderr.seek(0)
            tail = self._stderr.read().decode("utf-8", "replace").strip().splitlines()[-5:]
            code = self._process.poll()
            self._process = None
            raise ConvcertError("convcert serve ended (exit %s)%s" % (code, ": " + " | ".join(tail) if tail else ""))
        answer = answer.rstrip("\n")
        if answer.startswith("error "):
            raise ConvcertError(answer[len("error "):])
        return answer

    def case(self, words):
        """The server's resolution of a case (names, widths, lane), cached: a dict of its KEY=VALUE words."""
        known = self._cases.get(words)
        if known is None:
            with self._lock:
                answer = self._ask("case " + words)
            fields, _, described = answer[len("ok "):].partition(" ; ")
            known = dict(w.split("=", 1) for w in fields.split())
            known["case"] = described
            self._cases[words] = known
        return known

    def _mapping(self, size):
        if self._map is None or len(self._map) < size:
            if self._map is not None:
                self._map.close()
            size = max(size, 1 << 20)
            with open(self._file, "r+b") as f:
                f.truncate(size)
                self._map = mmap.mmap(f.fileno(), size)
        return self._map

    def convert_bits(self, words, bits, lanes, info):
        """Converts an array of source bit patterns (and lane values) through the shared file."""
        n = bits.size
        in_bytes, out_bytes = int(info["in"]), int(info["out"])
        lanes_at = -(-n * in_bytes // 8) * 8
        out_at = lanes_at + (8 * n if lanes is not None else 0)
        with self._lock:
            if self._process is None:
                self._start()
            memory = self._mapping(max(out_at + n * out_bytes, 8))
            np.frombuffer(memory, dtype=UNSIGNED[in_bytes], count=n)[:] = bits.ravel()
            if lanes is not None:
                np.frombuffer(memory, dtype="<i8", count=n, offset=lanes_at)[:] = lanes.ravel()
            request = "convert %s file=%s count=%d in=0 out=%d" % (words, self._file, n, out_at)
            self._ask(request + (" lanes=%d" % lanes_at if lanes is not None else ""))
            return np.frombuffer(memory, dtype=UNSIGNED[out_bytes], count=n, offset=out_at).copy().reshape(bits.shape)

    def close(self):
        """Ends the server and removes the shared file (also at exit)."""
        if self._process is not None:
            try:
                self._process.stdin.close()
                self._process.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self._process.kill()
            self._process = None
        if self._map is not None:
            self._map.close()
            self._map = None
        if self._file and os.path.exists(self._file):
            os.unlink(self._file)
        self._file = None
