package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Elements narrower than a byte (OCP MX FP4 and FP6) travel one per byte through every path: vector
 * files, the process protocol, recordings; bits above an element's width are a wrong answer.
 */
class SubByteTest {

    @TempDir
    Path temp;

    @Test
    void theReferenceCertifiesEveryOcpMxCase() throws IOException {
        Fixtures.Run r = Fixtures.certify(temp, "--profile", "ocp-mx", "--level", "ci", "--adapter", "reference");
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode s = Fixtures.report(temp).get("summary");
        assertEquals(s.get("cases").asInt(), s.get("passed").asInt(), s.toString());
    }

    /** A device in plain Python: FP4 E2M1 by searching the eight values, ties to the even code. */
    @Test
    void aProcessDeviceExchangesFourBitElementsOnePerByte() throws IOException {
        Path dev = temp.resolve("fp4.py");
        Files.writeString(dev, """
                import math, struct, sys
                VALUES = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]
                def to_fp4(x):
                    if math.isnan(x): return 7
                    sign = 8 if math.copysign(1.0, x) < 0 else 0
                    a = min(abs(x), 6.0)  # saturate: there is no infinity
                    best = min(range(8), key=lambda c: (abs(a - VALUES[c]), c & 1))
                    return sign | best
                def from_fp4(c):
                    v = VALUES[c & 7]
                    return struct.unpack("<I", struct.pack("<f", -v if c & 8 else v))[0]
                sys.stdin.buffer.readline()
                sys.stdout.write("CAP float fp4_e2m1 rn sat\\nCAP e2m1 float rn nosat\\nREADY\\n"); sys.stdout.flush()
                for line in iter(sys.stdin.buffer.readline, b""):
                    w = line.split()
                    if w[0] == b"QUIT": break
                    n = int(w[-1])
                    if w[1] == b"float":
                        xs = struct.unpack("<%df" % n, sys.stdin.buffer.read(4 * n))
                        out = bytes(to_fp4(x) for x in xs)
                    else:
                        out = struct.pack("<%dI" % n, *[from_fp4(c) for c in sys.stdin.buffer.read(n)])
                    sys.stdout.buffer.write(b"OK %d\\n" % n + out); sys.stdout.flush()
                """);
        Fixtures.Run r = Fixtures.certify(temp.resolve("out"), "--profile", "ocp-mx", "--level", "ci", "--pair",
                "float:fp4_e2m1", "--pair", "fp4_e2m1:float", "--adapter", "process:cmd=python3 " + dev);
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode report = Fixtures.report(temp.resolve("out"));
        assertEquals("PASS", Fixtures.find(report, "float->fp4_e2m1/rn-sat").get("status").asText());
        assertEquals("PASS", Fixtures.find(report, "fp4_e2m1->float/rn-nosat").get("status").asText());
    }

    @Test
    void aRecordedSixBitElementWithAHighBitSetFails() throws IOException {
        Path vectors = temp.resolve("vectors");
        assertEquals(0, Fixtures.run("", "generate", "--profile", "ocp-mx", "--pair", "float:fp6_e2m3", "--format", "bin",
                "--out", vectors.toString()).exit());
        Path rec = temp.resolve("rec/ocp-mx/float-fp6_e2m3");
        Files.createDirectories(rec);
        byte[] out = Files.readAllBytes(vectors.resolve("ocp-mx/float-fp6_e2m3/rn-sat.expected.bin"));
        Files.write(rec.resolve("rn-sat.out.bin"), out);
        Fixtures.Run r = Fixtures.certify(temp.resolve("ok"), "--profile", "ocp-mx", "--vectors", vectors.toString(),
                "--adapter", "replay:dir=" + temp.resolve("rec"));
        assertEquals(0, r.exit(), r.out() + r.err());
        out[3] |= 0x40; // the element's value in the low 6 bits is right; the byte is not
        Files.write(rec.resolve("rn-sat.out.bin"), out);
        r = Fixtures.certify(temp.resolve("bad"), "--profile", "ocp-mx", "--vectors", vectors.toString(),
                "--adapter", "replay:dir=" + temp.resolve("rec"));
        assertEquals(1, r.exit(), r.out());
        JsonNode c = Fixtures.find(Fixtures.report(temp.resolve("bad")), "float->fp6_e2m3/rn-sat");
        assertEquals(1, c.get("mismatches").asInt());
        assertTrue(c.get("kinds").has("bits beyond the format's width"), c.toString());
        assertTrue(c.get("firstMismatches").get(0).asText().contains("(not a 6-bit fp6_e2m3 value)"), c.toString());
    }

    /** The add-a-format promise: a new element format is one row of formats.csv (and its conversion row). */
    @Test
    void aNewFormatFromATableRowAloneIsCertified() throws IOException {
        Path tables = temp.resolve("my-mx");
        Files.createDirectories(tables);
        try (var files = Files.list(Fixtures.HOME.resolve("spec-tables/ocp-mx"))) {
            for (Path f : files.toList()) {
                Files.copy(f, tables.resolve(f.getFileName()));
            }
        }
        Files.writeString(tables.resolve("formats.csv"), Files.readString(tables.resolve("formats.csv"))
                + "fp5_e2m2,e2m2,5,ieee-fn,2,2,1,,,0xF,yes,,,a 5-bit element nobody ships: S.EE.MM finite only\n"
                + "int4,s4,4,int,,,,,,0x7,no,,0x8,a 4-bit two's complement integer\n");
        Files.writeString(tables.resolve("conversions.csv"), Files.readString(tables.resolve("conversions.csv"))
                + "float,fp5_e2m2,rn rz,sat,S,,-,test\nfp5_e2m2,float,rn,nosat,N,,-,test\nfloat,int4,rn,sat,S,,-,test\n");
        Fixtures.Run check = Fixtures.run("", "tables", "check", "--tables", tables.toString());
        assertEquals(0, check.exit(), check.err());
        Fixtures.Run r = Fixtures.certify(temp.resolve("out"), "--tables", tables.toString(), "--level", "ci",
                "--pair", "float:fp5_e2m2", "--pair", "fp5_e2m2:float", "--pair", "float:int4", "--adapter", "reference");
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode report = Fixtures.report(temp.resolve("out"));
        assertEquals(4, report.get("summary").get("passed").asInt());
        assertEquals(32, Fixtures.find(report, "fp5_e2m2->float/rn-nosat").get("vectors").asInt(),
                "every 5-bit code, exhaustively");
        // 2.75 lies between 2.5 (S.10.01) and 3.0 (S.10.10): a tie, to the even code 0x0A.
        assertEquals("0x0A\n", Fixtures.run("", "convert", "--tables", tables.toString(), "--from", "float", "--to",
                "fp5_e2m2", "--rounding", "rn", "0x40300000").out());
        // int4: -8.5 rounds to -8 (0x8), 7.5 to 8, which saturates to 7, and NaN gives from_nan (0x8).
        assertEquals("0x8\n0x7\n0x8\n", Fixtures.run("", "convert", "--tables", tables.toString(), "--from", "float",
                "--to", "int4", "--rounding", "rn", "--saturation", "sat", "0xC1080000", "0x40F00000", "0x7FC00000").out());
    }
}
