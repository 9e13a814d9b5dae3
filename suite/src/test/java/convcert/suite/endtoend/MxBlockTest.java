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
 * MX block conversions through the suite: a device of its own (plain Python, OCP MX 6.3 as written)
 * speaking the BLOCKS batch, the scale rule selectable by decision, recordings replayed, and the
 * elements of a NaN-scale block left unjudged; a failing device's scale rule named by the diagnosis.
 */
class MxBlockTest {

    @TempDir
    static Path shared;

    static Path vectors;

    @BeforeAll
    static void generate() {
        vectors = shared.resolve("vectors");
        assertEquals(0, Fixtures.run("", "generate", "--profile", "ocp-mx", "--format", "bin,csv", "--out",
                vectors.toString()).exit());
    }

    /** MXFP4 in plain Python; ceil=True plants the other scale rule. */
    static Path device(Path dir, boolean ceil) throws IOException {
        Path dev = dir.resolve("mxfp4.py");
        Files.writeString(dev, """
                import math, struct, sys
                CEIL = %s
                VALUES = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]
                def element(x):
                    sign = 8 if math.copysign(1.0, x) < 0 else 0
                    a = min(abs(x), 6.0)  # normal numbers clamp to the largest element
                    return sign | min(range(8), key=lambda c: (abs(a - VALUES[c]), c & 1))
                def quantize(xs):
                    if any(math.isnan(x) or math.isinf(x) for x in xs):
                        return [0xFF] + [0] * 32
                    amax = max(abs(x) for x in xs)
                    if amax == 0:
                        s = -127
                    else:
                        m, e = math.frexp(amax)  # amax = m * 2^e, 0.5 <= m < 1
                        s = (e if CEIL and m != 0.5 else e - 1) - 2  # emax of E2M1 is 2
                    s = max(s, -127)
                    return [s + 127] + [element(math.ldexp(x, -s)) for x in xs]
                def dequantize(block):
                    out = []
                    for c in block[1:]:
                        v = math.nan if block[0] == 0xFF else math.ldexp(VALUES[c & 7], block[0] - 127)
                        v = math.inf if abs(v) >= 2.0 ** 128 else v
                        out.append(-v if c & 8 else v)
                    return out
                sys.stdin.buffer.readline()
                sys.stdout.write("CAP float mxfp4_e2m1 rn block\\nCAP mxfp4 float rn block\\nREADY\\n"); sys.stdout.flush()
                for line in iter(sys.stdin.buffer.readline, b""):
                    w = line.split()
                    if w[0] == b"QUIT": break
                    n = int(w[-1])
                    if w[0] != b"BLOCKS":
                        sys.stdout.write("ERR not implemented\\n"); sys.stdout.flush(); continue
                    reply = bytearray()
                    for _ in range(n):
                        if w[1] == b"float":
                            reply += bytes(quantize(struct.unpack("<32f", sys.stdin.buffer.read(128))))
                        else:
                            reply += struct.pack("<32f", *dequantize(sys.stdin.buffer.read(33)))
                    sys.stdout.buffer.write(b"OK %%d\\n" %% n + bytes(reply)); sys.stdout.flush()
                """.formatted(ceil ? "True" : "False"));
        return dev;
    }

    @Test
    void aProcessDeviceConvertsBlocksThroughTheBlocksBatch() throws IOException {
        Path dev = device(shared.resolve(""), false);
        Fixtures.Run r = Fixtures.certify(shared.resolve("ok"), "--profile", "ocp-mx", "--vectors", vectors.toString(),
                "--only", "*mxfp4*", "--adapter", "process:cmd=python3 " + dev);
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode report = Fixtures.report(shared.resolve("ok"));
        assertEquals("PASS", Fixtures.find(report, "float->mxfp4_e2m1/rn-block").get("status").asText());
        assertEquals("PASS", Fixtures.find(report, "mxfp4_e2m1->float/rn-block").get("status").asText());
        assertEquals("NOT_APPLICABLE", Fixtures.find(report, "float->mxfp4_e2m1/rz-block").get("status").asText());
    }

    @Test
    void anotherScaleRuleFailsAndPassesUnderItsDecision() throws IOException {
        Path dir = Files.createDirectories(shared.resolve("ceil"));
        Path dev = device(dir, true);
        Fixtures.Run r = Fixtures.certify(dir.resolve("floor"), "--profile", "ocp-mx", "--vectors", vectors.toString(),
                "--only", "float->mxfp4*/rn-*", "--adapter", "process:cmd=python3 " + dev);
        assertEquals(1, r.exit(), r.out() + r.err());
        JsonNode c = Fixtures.find(Fixtures.report(dir.resolve("floor")), "float->mxfp4_e2m1/rn-block");
        assertTrue(c.get("mismatches").asInt() > 10, c.toString());
        String first = c.get("firstMismatches").get(0).asText();
        assertTrue(first.startsWith("block ") && first.contains("scale: expected"), first);
        assertTrue(c.get("rules").toString().contains("mx-scale=floor"), c.get("rules").toString());
        JsonNode d = c.get("diagnosisData");
        assertTrue(d.get("complete").asBoolean(), c.toString());
        assertEquals("mx-scale=ceil", d.get("faults").get(0).get("fault").asText(), d.toString());
        assertEquals(c.get("mismatches").asLong(), d.get("faults").get(0).get("explains").asLong(), d.toString());
        r = Fixtures.certify(dir.resolve("ceil"), "--profile", "ocp-mx", "--vectors", vectors.toString(),
                "--decision", "mx-scale=ceil", "--only", "float->mxfp4*/rn-*", "--adapter", "process:cmd=python3 " + dev);
        assertEquals(0, r.exit(), r.out() + r.err());
    }

    @Test
    void recordedBlocksAreReplayedAndNanScaleElementsAreNotJudged() throws IOException {
        Path rec = Files.createDirectories(shared.resolve("rec/ocp-mx/float-mxfp8_e4m3"));
        Path expected = vectors.resolve("ocp-mx/float-mxfp8_e4m3/rn-block.expected.bin");
        byte[] out = Files.readAllBytes(expected);
        String csv = Files.readString(vectors.resolve("ocp-mx/float-mxfp8_e4m3/rn-block.csv"));
        int nanBlock = -1;
        for (String line : csv.lines().skip(1).toList()) {
            String[] cols = line.split(",");
            if (cols[2].startsWith("0xFF ")) {
                nanBlock = Integer.parseInt(cols[0]);
                break;
            }
        }
        assertTrue(nanBlock >= 0, "the coverage model has a NaN-scale block");
        out[nanBlock * 33 + 5] ^= 0x11; // an element of a NaN-scale block: meaningless, not judged
        Files.write(rec.resolve("rn-block.out.bin"), out);
        Fixtures.Run r = Fixtures.certify(shared.resolve("replayed"), "--profile", "ocp-mx", "--vectors",
                vectors.toString(), "--adapter", "replay:dir=" + shared.resolve("rec"));
        assertEquals(0, r.exit(), r.out() + r.err());
        out[0] ^= 0x01; // the first block's scale
        Files.write(rec.resolve("rn-block.out.bin"), out);
        r = Fixtures.certify(shared.resolve("wrong"), "--profile", "ocp-mx", "--vectors", vectors.toString(),
                "--adapter", "replay:dir=" + shared.resolve("rec"));
        assertEquals(1, r.exit(), r.out());
        JsonNode c = Fixtures.find(Fixtures.report(shared.resolve("wrong")), "float->mxfp8_e4m3/rn-block");
        assertEquals(1, c.get("mismatches").asInt(), c.toString());
    }

    @Test
    void aTruncatedBlockFileIsRefusedBeforeAnyCaseRuns() throws IOException {
        Path copy = shared.resolve("truncated");
        try (var files = Files.walk(vectors)) {
            for (Path f : files.toList()) {
                Path target = copy.resolve(vectors.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target);
                }
            }
        }
        Path file = copy.resolve("ocp-mx/mxfp6_e3m2-float/rn-block.in.bin");
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length - 33));
        Fixtures.Run r = Fixtures.certify(shared.resolve("refused"), "--profile", "ocp-mx", "--vectors", copy.toString(),
                "--adapter", "reference");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("rn-block.in.bin") && r.err().contains("blocks of 33 bytes"), r.err());
    }

    /** CUDA's fp4x2: two FP4 values in one byte, .x in the low nibble; a device that swaps them fails. */
    @Test
    void aPackedPairTravelsAsOneByteLowNibbleFirst() throws IOException {
        for (boolean swapped : new boolean[] {false, true}) {
            Path dir = Files.createDirectories(shared.resolve("fp4x2-" + swapped));
            Path dev = dir.resolve("fp4x2.py");
            Files.writeString(dev, """
                    import math, struct, sys
                    SWAPPED = %s
                    VALUES = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]
                    def fp4(x):
                        if math.isnan(x): return 7
                        sign = 8 if math.copysign(1.0, x) < 0 else 0
                        a = min(abs(x), 6.0)
                        return sign | min(range(8), key=lambda c: (abs(a - VALUES[c]), c & 1))
                    sys.stdin.buffer.readline()
                    sys.stdout.write("CAP float fp4x2 rn block\\nREADY\\n"); sys.stdout.flush()
                    for line in iter(sys.stdin.buffer.readline, b""):
                        w = line.split()
                        if w[0] == b"QUIT": break
                        n = int(w[-1])
                        out = bytearray()
                        for _ in range(n):
                            x, y = struct.unpack("<2f", sys.stdin.buffer.read(8))
                            lo, hi = (fp4(y), fp4(x)) if SWAPPED else (fp4(x), fp4(y))
                            out.append(lo | hi << 4)
                        sys.stdout.buffer.write(b"OK %%d\\n" %% n + bytes(out)); sys.stdout.flush()
                    """.formatted(swapped ? "True" : "False"));
            Fixtures.Run r = Fixtures.certify(dir.resolve("out"), "--profile", "cuda", "--level", "ci", "--only",
                    "float->fp4x2*", "--adapter", "process:cmd=python3 " + dev);
            assertEquals(swapped ? 1 : 0, r.exit(), r.out() + r.err());
            JsonNode c = Fixtures.find(Fixtures.report(dir.resolve("out")), "float->fp4x2_e2m1/rn-block");
            assertEquals(swapped ? "FAIL" : "PASS", c.get("status").asText(), c.toString());
        }
    }

    @Test
    void aBlockFormatAsAPairSaysHowToSelectIt() {
        Fixtures.Run r = Fixtures.certify(shared.resolve("pair"), "--profile", "ocp-mx", "--pair", "float:mxfp4");
        assertEquals(2, r.exit(), r.out());
        assertTrue(r.err().contains("'mxfp4' is a block format (blocks.csv)") && r.err().contains("--only 'float->mxfp4_e2m1/*'"),
                r.err());
    }
}
