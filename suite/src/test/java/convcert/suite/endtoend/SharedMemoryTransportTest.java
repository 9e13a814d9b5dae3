package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Value batches in shared memory (suite/ADAPTERS.md, "Shared memory"): the example C device with
 * --shared takes its batches through two slots of a mapped file. Every fault it can play is still a
 * reported failure, and the run goes on; outputs it leaves unwritten are mismatches whatever their
 * expected values; an exhaustive run in parts reports exactly what the pipes report; a device that
 * cannot map the file keeps the pipes.
 */
class SharedMemoryTransportTest {

    static String shared() throws Exception {
        return "process:cmd=" + Fixtures.exampleDevice() + " --shared";
    }

    @ParameterizedTest(name = "fault {0}")
    @CsvSource(delimiter = '|', value = {
        "crash|ADAPTER_ERROR|the process exited with code 134 (killed by signal 6, SIGABRT); its stderr ends:",
        "hang|ADAPTER_ERROR|no answer within 1500 ms",
        "garbage|ADAPTER_ERROR|'\\x01\\x02garbage'",
        "long|ADAPTER_ERROR|the device wrote at offset",
        "error|ADAPTER_ERROR|simulated device error",
        "short|FAIL|",
    })
    void aMisbehavingDeviceFailsItsCaseOverSharedMemoryAndTheRunGoesOn(String fault, String status, String message,
                                                                        @TempDir Path out) throws Exception {
        Fixtures.Run r = Fixtures.certify(out, "--adapter", shared() + " --fault " + fault, "--timeout-ms", "1500",
                "--pair", "float:bfloat16", "--pair", "float:half");
        // 'short' exits after answering: the variants after it may find it gone before it is restarted (exit 3)
        assertTrue(status.equals("FAIL") ? r.exit() == 1 || r.exit() == 3 : r.exit() == 3, r.out() + r.err());
        JsonNode report = Fixtures.report(out);
        JsonNode broken = Fixtures.find(report, "float->bfloat16/rz-nosat");
        // 'short' may also be found gone by the batch of 0 after its case, which then ends as an adapter failure
        assertTrue(broken.get("status").asText().equals(status)
                || status.equals("FAIL") && broken.get("status").asText().equals("ADAPTER_ERROR"), broken.toString());
        if (broken.get("status").asText().equals("FAIL")) {
            // 'short' answers OK and exits without writing: every output still holds the batch's poison, so all
            // of them differ
            assertEquals(broken.get("vectors").asLong(), broken.get("mismatches").asLong(), broken.toString());
        } else if (status.equals("FAIL")) {
            // where the poison happened to be an output's expected value (a 16-bit poison: about 1 in 20 runs),
            // that output is asked again and the device found gone: an adapter failure, every other output wrong
            assertTrue(broken.get("message").asText().contains("exited"), broken.toString());
            assertTrue(broken.get("mismatches").asLong() >= broken.get("vectors").asLong() - 8, broken.toString());
        } else {
            assertTrue(broken.get("message").asText().contains(message), broken.get("message").asText());
        }
        assertEquals("PASS", Fixtures.find(report, "float->half/rn-nosat").get("status").asText(), "restarted for the next case");
    }

    /**
     * The variants of a state (forms and CTRL settings selecting it) run in lockstep over shared memory,
     * their expected values computed once, in parts (--jobs 2); over pipes one after another. Every case's
     * report is the same either way.
     */
    @Test
    void anExhaustiveRunOfVariantsInPartsReportsWhatThePipesReport(@TempDir Path out) throws Exception {
        // the device truncates float->bfloat16 rz, wrong for 65,535 NaNs of the last 1/256 of the inputs
        List<List<JsonNode>> runs = new ArrayList<>();
        String[] devices = {"process:cmd=" + Fixtures.exampleDevice() + " --fault truncate", shared() + " --fault truncate"};
        for (int k = 0; k < 2; k++) {
            Fixtures.Run r = Fixtures.certify(out.resolve("run" + k), "--adapter", devices[k], "--exhaustive", "--pair",
                    "float:bfloat16", "--only", "float->bfloat16/rz-nosat*", "--shard", "256/256", "--jobs", "2");
            assertEquals(1, r.exit(), r.out() + r.err());
            List<JsonNode> cases = new ArrayList<>();
            for (JsonNode c : Fixtures.report(out.resolve("run" + k)).get("cases")) {
                cases.add(Fixtures.untimed(c));
            }
            runs.add(cases);
        }
        assertTrue(runs.get(1).size() > 1, "the state has variants: " + runs.get(1).size());
        for (JsonNode c : runs.get(1)) {
            assertEquals(0xFFFF, c.get("mismatches").asLong(), c.toString());
        }
        assertEquals(runs.get(0), runs.get(1));
    }

    /**
     * Devices that try to pass without converting (suite/ADAPTERS.md, "What a certificate guarantees"):
     * nothing they can read reveals an expected value, so each fails every variant it did not convert,
     * and one that writes outside its batch's outputs fails its case as an adapter failure naming where.
     */
    @ParameterizedTest(name = "cheat {0}")
    @CsvSource(delimiter = '|', value = {
        "complement|1|",
        "other-slot|1,3|",
        "stray-guard|3|the device wrote at offset",
        "stray-after|3|(lane values, byte 100) of the shared memory, outside the batch's outputs",
    })
    void aDeviceThatDoesNotConvertWhatItIsAskedNeverPasses(String cheat, String exits, String message, @TempDir Path out)
            throws Exception {
        Fixtures.Run r = Fixtures.certify(out, "--adapter", shared() + " --cheat " + cheat, "--pair", "float:half",
                "--only", "float->half/rn-nosat*");
        assertTrue(List.of(exits.split(",")).contains(String.valueOf(r.exit())), r.exit() + r.out() + r.err());
        int variants = 0;
        for (JsonNode c : Fixtures.report(out).get("cases")) {
            variants++;
            assertNotEquals("PASS", c.get("status").asText(), c.toString());
            if (message != null && c.get("status").asText().equals("ADAPTER_ERROR")) {
                assertTrue(c.get("message").asText().contains(message), c.get("message").asText());
            }
        }
        assertTrue(variants > 1, "the state's variants all ran: " + variants);
    }

    /**
     * The evidence is convcert's own: a device that answers one value wrong and then overwrites the inputs of its
     * slot fails, and the report shows the input convcert sent, never the bytes the device left there.
     */
    @Test
    void aMismatchShowsTheInputConvcertSentWhateverTheDeviceLeavesInItsSlot(@TempDir Path out) throws Exception {
        Fixtures.Run r = Fixtures.certify(out, "--adapter", shared() + " --cheat rewrite-input", "--pair", "float:half",
                "--only", "float->half/rn-nosat");
        assertEquals(1, r.exit(), r.out() + r.err());
        JsonNode c = Fixtures.find(Fixtures.report(out), "float->half/rn-nosat");
        assertEquals(1, c.get("mismatches").asInt(), c.toString());
        String line = c.get("firstMismatches").get(0).asText();
        assertFalse(line.contains("0xABAB"), line);
        String input = line.substring("input ".length(), line.indexOf(' ', "input ".length()));
        byte[] sent = Files.readAllBytes(Fixtures.HOME.resolve("vectors/ascend-c/float-half/rn-nosat.in.bin"));
        java.nio.IntBuffer inputs = java.nio.ByteBuffer.wrap(sent).order(java.nio.ByteOrder.LITTLE_ENDIAN).asIntBuffer();
        boolean found = false;
        while (inputs.hasRemaining()) {
            found |= String.format("0x%08X", inputs.get()).equals(input);
        }
        assertTrue(found, input + " is one of the inputs convcert sent");
    }

    /**
     * A device converting every other call and copying its last answer into the next: in lockstep the next
     * batch is another variant's with the same inputs, but in another secret order, so each variant it
     * copied fails (over shared memory, exhaustively; over the pipes, the ci set's variants one after another).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "shared memory|--shared|--exhaustive --shard 64/256",
        "pipes||--level ci",
    })
    void aDeviceCopyingItsLastAnswerFailsEveryVariantItCopied(String transport, String option, String selection,
                                                              @TempDir Path out) throws Exception {
        List<String> args = new ArrayList<>(List.of("--adapter", "process:cmd=" + Fixtures.exampleDevice() + " " + option
                + " --cheat alternate", "--pair", "float:half", "--only", "float->half/rn-nosat*"));
        args.addAll(List.of(selection.split(" ")));
        Fixtures.Run r = Fixtures.certify(out, args.toArray(String[]::new));
        assertEquals(1, r.exit(), r.out() + r.err());
        int failed = 0;
        int variants = 0;
        for (JsonNode c : Fixtures.report(out).get("cases")) {
            variants++;
            failed += c.get("status").asText().equals("FAIL") ? 1 : 0;
        }
        assertTrue(variants >= 8 && failed >= variants / 2, failed + " of " + variants + " variants failed");
    }

    /** Whatever a device does once offered the memory (exits, stays silent), the file it was offered is gone. */
    @ParameterizedTest(name = "cheat {0}")
    @CsvSource({"vanish", "mute"})
    void theSharedFileIsRemovedWhateverTheDeviceDoes(String cheat, @TempDir Path out) throws Exception {
        long before = sharedFiles();
        Fixtures.Run r = Fixtures.certify(out, "--adapter", shared() + " --cheat " + cheat, "--timeout-ms", "1500",
                "--pair", "float:half", "--only", "float->half/rn-nosat");
        assertEquals(3, r.exit(), r.out() + r.err());
        assertEquals(before, sharedFiles(), "files convcert-shared-* on /dev/shm and in the temporary folder");
    }

    private static long sharedFiles() throws IOException {
        long n = 0;
        for (Path dir : List.of(Path.of("/dev/shm"), Path.of(System.getProperty("java.io.tmpdir")))) {
            if (Files.isDirectory(dir)) {
                try (var files = Files.list(dir)) {
                    n += files.filter(f -> f.getFileName().toString().startsWith("convcert-shared-")).count();
                }
            }
        }
        return n;
    }

    @Test
    void theGoldenVectorsPassOverSharedMemory(@TempDir Path out) throws Exception {
        Fixtures.Run r = Fixtures.certify(out, "--adapter", shared());
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode summary = Fixtures.report(out).get("summary");
        assertTrue(summary.get("passed").asInt() >= 5, summary.toString());
    }

    /**
     * A library whose convcert_convert_flags writes flags but no outputs: through slot 0 (a case with
     * flags) every output still holds 0xA5, itself an E4M3 value; each such element is asked again under
     * 0x5A, and every one is a mismatch, including those whose expected value is 0xA5.
     */
    @Test
    void anOutputLeftUnwrittenIsAMismatchEvenWhereItsExpectedValueIsThePoison(@TempDir Path dir) throws Exception {
        Path source = dir.resolve("lazy.c");
        Files.writeString(source, """
                #include <stdint.h>
                const char *convcert_capabilities(void) { return "float fp8_e4m3fn * *\\n"; }
                int convcert_convert(const char *f, const char *t, const char *r, const char *s, const char *o,
                                     const char *c, const void *in, void *out, uint64_t n) { return 0; }
                int convcert_convert_flags(const char *f, const char *t, const char *r, const char *s, const char *o,
                                           const char *c, const void *in, void *out, uint8_t *flags, uint64_t n) {
                    for (uint64_t i = 0; i < n; i++) flags[i] = 0;
                    return 0;
                }
                const char *convcert_last_error(void) { return ""; }
                """);
        Path library = dir.resolve("liblazy.so");
        Process gcc = new ProcessBuilder("gcc", "-O2", "-shared", "-fPIC", "-o", library.toString(), source.toString())
                .redirectErrorStream(true).start();
        assertEquals(0, gcc.waitFor(), new String(gcc.getInputStream().readAllBytes()));
        Fixtures.Run r = Fixtures.certify(dir.resolve("out"), "--profile", "riscv", "--level", "ci", "--adapter", "native:lib=" + library,
                "--pair", "float:fp8_e4m3fn", "--only", "float->fp8_e4m3fn/rn-nosat");
        assertEquals(1, r.exit(), r.out() + r.err());
        JsonNode c = Fixtures.find(Fixtures.report(dir.resolve("out")), "float->fp8_e4m3fn/rn-nosat");
        assertEquals(c.get("vectors").asLong(), c.get("mismatches").asLong(), c.toString());
    }

    @Test
    void aDeviceThatCannotMapTheFileKeepsThePipes(@TempDir Path dir) throws Exception {
        Path device = dir.resolve("device.py");
        Files.writeString(device, """
                import sys
                import numpy as np
                sys.stdin.buffer.readline()
                sys.stdout.write("CAP float half rn nosat\\nSHARED\\nREADY\\n"); sys.stdout.flush()
                for line in iter(sys.stdin.buffer.readline, b""):
                    w = line.split()
                    if w[0] == b"QUIT": break
                    if w[0] == b"SHARED":
                        sys.stdout.write("ERR no shared memory here\\n"); sys.stdout.flush(); continue
                    n = int(w[-1])
                    out = np.frombuffer(sys.stdin.buffer.read(4 * n), dtype="<f4").astype("<f2").tobytes()
                    sys.stdout.buffer.write(b"OK %d\\n" % n + out); sys.stdout.flush()
                """);
        Fixtures.Run r = Fixtures.certify(dir.resolve("out"), "--adapter", "process:cmd=python3 " + device, "--pair",
                "float:half", "--only", "float->half/rn-nosat");
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode c = Fixtures.find(Fixtures.report(dir.resolve("out")), "float->half/rn-nosat");
        assertEquals("PASS", c.get("status").asText(), c.toString());
    }
}
