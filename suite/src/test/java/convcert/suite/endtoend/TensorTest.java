package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole tensors through the suite (tensors.csv): an MXFP4 tensor quantizer in plain Python, speaking the
 * TENSORS batch, passes every MXFP4 tensor case (a partial block at each row's end, cuBLAS's swizzled
 * scale layout, AMD's pre-shuffled one); a quantizer that writes its scales row-major where either is asked for fails
 * naming the scale's row and block, diagnosed as the catalogue's scales-row-major; one that leaves NaN codes in the layout's padding fails under
 * scale-padding=zero, and the diagnosis names the reading it follows, as it names the ceiling scale rule; a
 * recording replays; a quantizer written on suite/python's Device.tensors passes both ways.
 */
class TensorTest {

    @TempDir
    static Path shared;

    static Path vectors;

    @BeforeAll
    static void generate() {
        vectors = shared.resolve("vectors");
        assertEquals(0, Fixtures.run("", "generate", "--profile", "ocp-mx", "--format", "bin", "--out",
                vectors.toString()).exit());
    }

    /**
     * The quantizer; flaw: "" (none), "plain" (scales row-major whatever the layout), "nan-padding", "ceil",
     * "unshuffle" (AMD's layout by the inverse permutation).
     */
    static String device(String flaw) throws IOException {
        Path dev = shared.resolve("tensor-" + (flaw.isEmpty() ? "ok" : flaw) + ".py");
        Files.writeString(dev, """
                import math, struct, sys
                FLAW = "%s"
                VALUES = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]
                def element(x):
                    sign = 8 if math.copysign(1.0, x) < 0 else 0
                    a = min(abs(x), 6.0)
                    return sign | min(range(8), key=lambda c: (abs(a - VALUES[c]), c & 1))
                def block(xs):
                    if any(math.isnan(x) or math.isinf(x) for x in xs):
                        return 0xFF, [0] * len(xs)
                    amax = max(abs(x) for x in xs)
                    if amax == 0:
                        s = -127
                    else:
                        m, e = math.frexp(amax)
                        s = (e if FLAW == "ceil" and m != 0.5 else e - 1) - 2
                    s = max(s, -127)
                    return s + 127, [element(math.ldexp(x, -s)) for x in xs]
                def up(n, m):
                    return (n + m - 1) // m * m
                def tensor(xs, rows, cols, along, layout):
                    outer, axis = (rows, cols) if along == "row" else (cols, rows)
                    inner = (axis + 31) // 32
                    swizzled = layout == "swizzled-128x4" and FLAW != "plain"
                    shuffled = layout == "shuffled-256x8" and FLAW != "plain"
                    slots = (up(outer, 128) * up(inner, 4) if layout == "swizzled-128x4" else up(outer, 256) * up(inner, 8)
                             if layout == "shuffled-256x8" else outer * inner)
                    scales = [0xFF if FLAW == "nan-padding" else 0] * slots
                    elements = [0] * (rows * cols)
                    for o in range(outer):
                        for i in range(inner):
                            at = [(o * cols + k if along == "row" else k * cols + o) for k in range(i * 32, min(axis, i * 32 + 32))]
                            s, es = block([xs[p] for p in at])
                            if swizzled:
                                slot = ((o // 128) * (up(inner, 4) // 4) + i // 4) * 512 + (o %% 32) * 16 + (o // 32 %% 4) * 4 + i %% 4
                            elif shuffled and FLAW == "unshuffle":  # the inverse: the row-major index read as (a, d, f, c, e, b)
                                sn = up(inner, 8)
                                a, rest = divmod(o * sn + i, 32 * sn)
                                d, f, c, e, b = rest // 256, rest // 64 %% 4, rest // 4 %% 16, rest // 2 %% 2, rest %% 2
                                slot = (32 * a + 16 * b + c) * sn + 8 * d + 4 * e + f
                            elif shuffled:  # aiter's e8m0_shuffle: (o, i) as (a, b, c; d, e, f), stored as (a, d, f, c, e, b)
                                a, b, c, d, e, f = o // 32, o // 16 %% 2, o %% 16, i // 8, i // 4 %% 2, i %% 4
                                slot = ((((a * (up(inner, 8) // 8) + d) * 4 + f) * 16 + c) * 2 + e) * 2 + b
                            else:
                                slot = o * inner + i if along == "row" else i * outer + o
                            scales[slot] = s
                            for p, e in zip(at, es):
                                elements[p] = e
                    packed = bytes(elements[k] | elements[k + 1] << 4 for k in range(0, len(elements), 2))
                    return bytes(scales) + packed
                sys.stdin.buffer.readline()
                caps = "".join("CAP float mxfp4_e2m1_%%s %%s tensor\\n" %% (t, m) for t in ("t3x66", "t130x64_sw", "t260x96_sh") for m in ("rn",))
                sys.stdout.write(caps + "READY\\n"); sys.stdout.flush()
                for line in iter(sys.stdin.buffer.readline, b""):
                    w = line.decode().split()
                    if w[0] == "QUIT": break
                    n = int(w[-1])
                    if w[0] != "TENSORS":
                        sys.stdout.write("ERR not implemented\\n"); sys.stdout.flush(); continue
                    rows, cols, along, layout = int(w[4]), int(w[5]), w[6], w[7]
                    reply = bytearray()
                    for _ in range(n):
                        xs = struct.unpack("<%%df" %% (rows * cols), sys.stdin.buffer.read(4 * rows * cols))
                        reply += tensor(xs, rows, cols, along, layout)
                    sys.stdout.buffer.write(b"OK %%d\\n" %% n + bytes(reply)); sys.stdout.flush()
                """.formatted(flaw));
        return "process:cmd=python3 " + dev;
    }

    static JsonNode certified(String name, int exit, String... args) throws IOException {
        Path out = shared.resolve(name);
        java.util.List<String> all = new java.util.ArrayList<>(java.util.List.of("--profile", "ocp-mx", "--vectors",
                vectors.toString(), "--only", "float->mxfp4_e2m1_t*/rn-tensor"));
        all.addAll(java.util.List.of(args));
        Fixtures.Run r = Fixtures.certify(out, all.toArray(String[]::new));
        assertEquals(exit, r.exit(), r.out() + r.err());
        return Fixtures.report(out);
    }

    @Test
    void aTensorQuantizerPassesEveryShapeAndLayout() throws IOException {
        JsonNode report = certified("ok", 0, "--adapter", device(""));
        assertEquals("PASS", Fixtures.find(report, "float->mxfp4_e2m1_t3x66/rn-tensor").get("status").asText());
        assertEquals("PASS", Fixtures.find(report, "float->mxfp4_e2m1_t130x64_sw/rn-tensor").get("status").asText());
        assertEquals("PASS", Fixtures.find(report, "float->mxfp4_e2m1_t260x96_sh/rn-tensor").get("status").asText());
    }

    @Test
    void scalesStoredRowMajorWhereTheSwizzledLayoutIsAskedForFail() throws IOException {
        JsonNode report = certified("plain", 1, "--adapter", device("plain"));
        assertEquals("PASS", Fixtures.find(report, "float->mxfp4_e2m1_t3x66/rn-tensor").get("status").asText());
        JsonNode c = Fixtures.find(report, "float->mxfp4_e2m1_t130x64_sw/rn-tensor");
        assertEquals("FAIL", c.get("status").asText());
        String first = c.get("firstMismatches").get(0).asText();
        assertTrue(first.contains("scale of row ") && first.contains("(slot "), first);
        assertTrue(c.get("rules").toString().contains("swizzled-128x4"), c.get("rules").toString());
        assertEquals("scales-row-major", Nvfp4Test.recipe(c)); // the catalogue's fault, named by the diagnosis
        failsAs(report, "float->mxfp4_e2m1_t260x96_sh/rn-tensor", "scales-row-major"); // AMD's pre-shuffled layout
    }

    @Test
    void aShuffleRunBackwardsIsDiagnosed() throws IOException {
        JsonNode report = certified("unshuffle", 1, "--adapter", device("unshuffle"));
        assertEquals("PASS", Fixtures.find(report, "float->mxfp4_e2m1_t130x64_sw/rn-tensor").get("status").asText());
        failsAs(report, "float->mxfp4_e2m1_t260x96_sh/rn-tensor", "shuffle-inverted");
    }

    /** A case FAILs, and its diagnosis names this reading or fault alone. */
    private static void failsAs(JsonNode report, String name, String recipe) {
        JsonNode c = Fixtures.find(report, name);
        assertEquals("FAIL", c.get("status").asText(), c.toString());
        assertEquals(recipe, Nvfp4Test.recipe(c));
    }

    @Test
    void nanCodesInTheLayoutsPaddingFailUnderScalePaddingZeroAndTheDiagnosisSaysAny() throws IOException {
        JsonNode report = certified("nan-padding", 1, "--adapter", device("nan-padding"));
        JsonNode c = Fixtures.find(report, "float->mxfp4_e2m1_t130x64_sw/rn-tensor");
        assertEquals("FAIL", c.get("status").asText());
        assertTrue(c.get("firstMismatches").get(0).asText().contains("scale padding (slot "), c.toString());
        assertEquals("scale-padding=any", Nvfp4Test.recipe(c));
        certified("nan-padding-any", 0, "--decision", "scale-padding=any", "--adapter", device("nan-padding"));
    }

    @Test
    void recordedTensorsAreReplayedAndAPaddingSlotIsJudgedByTheDecision() throws IOException {
        // the expected file as a recording passes; one padding slot's byte changed fails under scale-padding=zero only
        Path rec = Files.createDirectories(shared.resolve("rec/ocp-mx/float-mxfp8_e4m3_t130x136_sw"));
        byte[] out = Files.readAllBytes(vectors.resolve("ocp-mx/float-mxfp8_e4m3_t130x136_sw/rn-tensor.expected.bin"));
        Files.write(rec.resolve("rn-tensor.out.bin"), out);
        String only = "float->mxfp8_e4m3_t130x136_sw/rn-tensor";
        String[] run = {"--profile", "ocp-mx", "--vectors", vectors.toString(), "--only", only, "--adapter",
            "replay:dir=" + shared.resolve("rec")};
        Fixtures.Run r = Fixtures.certify(shared.resolve("replayed"), run);
        assertEquals(0, r.exit(), r.out() + r.err());
        out[2047] = (byte) 0xFF; // the last slot of the layout (256 x 8): row 255 of the padding
        Files.write(rec.resolve("rn-tensor.out.bin"), out);
        r = Fixtures.certify(shared.resolve("replayed-padding"), run);
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(Fixtures.find(Fixtures.report(shared.resolve("replayed-padding")), only).get("firstMismatches").get(0)
                .asText().contains("scale padding (slot 2047)"), r.out());
        java.util.List<String> any = new java.util.ArrayList<>(java.util.List.of(run));
        any.addAll(java.util.List.of("--decision", "scale-padding=any"));
        r = Fixtures.certify(shared.resolve("replayed-any"), any.toArray(String[]::new));
        assertEquals(0, r.exit(), r.out() + r.err());
    }

    /**
     * suite/python's Device.tensors: the user's numpy function returns the scale codes and the element codes;
     * the helper reads the TENSORS line (shape, block size, storage), packs FP4 and answers, both ways.
     */
    @Test
    void aQuantizerWrittenWithThePythonHelperPassesBothWays() throws Exception {
        Process probe = new ProcessBuilder("python3", "-c", "import numpy").start();
        org.junit.jupiter.api.Assumptions.assumeTrue(probe.waitFor() == 0, "python3 with numpy");
        Path dev = shared.resolve("helper.py");
        Files.writeString(dev, """
                import math, sys
                sys.path.insert(0, "%s")
                import numpy as np
                from convcert_device import Device
                VALUES = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]
                def element(x):
                    a = min(abs(x), 6.0)
                    return (8 if math.copysign(1.0, x) < 0 else 0) | min(range(8), key=lambda c: (abs(a - VALUES[c]), c & 1))
                def scale(xs):
                    if any(math.isnan(x) or math.isinf(x) for x in xs):
                        return None
                    amax = max(abs(x) for x in xs)
                    return -127 if amax == 0 else max(math.frexp(amax)[1] - 3, -127)
                def slot(o, i, inner, shape):
                    if shape["layout"] == "plain":
                        return o * inner + i
                    return ((o // 128) * -(-inner // 4) + i // 4) * 512 + (o %% 32) * 16 + (o // 32 %% 4) * 4 + i %% 4
                def quantize(x, shape):
                    size, inner = shape["size"], -(-shape["columns"] // shape["size"])
                    scales, codes = [0] * shape["slots"], np.zeros(x.shape, dtype=np.uint8)
                    for o in range(shape["rows"]):
                        for i in range(inner):
                            part = [float(v) for v in x[o, i * size:(i + 1) * size]]
                            s = scale(part)
                            scales[slot(o, i, inner, shape)] = 0xFF if s is None else s + 127
                            codes[o, i * size:i * size + len(part)] = [0 if s is None else element(math.ldexp(v, -s)) for v in part]
                    return scales, codes
                def dequantize(scales, elements, shape):
                    size, inner = shape["size"], -(-shape["columns"] // shape["size"])
                    y = np.zeros(elements.shape, dtype=np.float32)
                    for o in range(shape["rows"]):
                        for i in range(inner):
                            s = int(scales[slot(o, i, inner, shape)])
                            for c in range(i * size, min((i + 1) * size, shape["columns"])):
                                e = int(elements[o, c])
                                v = math.nan if s == 0xFF else math.ldexp(VALUES[e & 7], s - 127)
                                y[o, c] = -v if e & 8 else v
                    return y
                device = Device()
                for name in ("mxfp4_e2m1_t3x66", "mxfp4_e2m1_t130x64_sw"):
                    device.tensors("float", name, "rn")(quantize)
                    device.tensors(name, "float", "rn")(dequantize)
                device.run()
                """.formatted(Fixtures.HOME.resolve("suite/python")));
        Path out = shared.resolve("helper");
        Fixtures.Run r = Fixtures.certify(out, "--profile", "ocp-mx", "--vectors", vectors.toString(), "--only",
                "*mxfp4_e2m1_t*", "--adapter", "process:cmd=python3 " + dev);
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("PASS: 4 cases"), r.out()); // rn declared: the two rz cases do not apply
    }

    @Test
    void theCeilingScaleRuleIsNamedByTheDiagnosisOfATensor() throws IOException {
        JsonNode report = certified("ceil", 1, "--adapter", device("ceil"));
        assertEquals("mx-scale=ceil", Nvfp4Test.recipe(Fixtures.find(report, "float->mxfp4_e2m1_t3x66/rn-tensor")));
        assertEquals("mx-scale=ceil", Nvfp4Test.recipe(Fixtures.find(report, "float->mxfp4_e2m1_t130x64_sw/rn-tensor")));
    }
}
