package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import convcert.reference.Case;
import convcert.reference.Converter;
import convcert.reference.Reference;
import convcert.rtl.ReferenceModel;
import convcert.spec.Conversion;
import convcert.spec.Rounding;
import convcert.spec.SpecTables;
import convcert.vectors.CoverageModel;
import convcert.vectors.CoverageTag;
import convcert.vectors.Level;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated RTL models (convcert model, ReferenceModel) against the reference, simulated under Verilator
 * in one build, on every input of an 8- or 16-bit source and on the ci set's inputs of a 32- or 64-bit one;
 * each result bit for bit, NaNs included. The extended tier simulates every datapath model of every profile
 * and one steps model per pair of formats; the others one datapath model per destination and rounding mode
 * and one steps model per destination, in each profile. Skipped, and said so, without verilator.
 */
@Tag("slow")
class ReferenceModelTest {

    @TempDir
    Path temp;

    record Model(String name, Converter converter, long[] inputs) { }

    @Test
    @Tag("extended") // one Verilator build of about 900 models: about 3 minutes on 2 cores
    void everyModelGivesTheReferencesResults() throws Exception {
        simulate(true, 600);
    }

    @Test
    void aModelOfEachDestinationAndModeGivesTheReferencesResults() throws Exception {
        simulate(false, 100);
    }

    /** every: each datapath model (else one per destination and mode); at least: how many models it must find. */
    private void simulate(boolean every, int atLeast) throws Exception {
        assumeTrue(RtlTest.verilator(), "verilator is not installed (apt-get install verilator; .ci/run installs it)");
        List<Model> models = new ArrayList<>();
        Set<String> pairs = new HashSet<>();
        StringBuilder sv = new StringBuilder();
        try (Stream<Path> profiles = Files.list(Fixtures.HOME.resolve("spec-tables"))) {
            for (Path dir : profiles.filter(d -> Files.isRegularFile(d.resolve("formats.csv"))).sorted().toList()) {
                Reference reference = Reference.of(SpecTables.load(dir));
                CoverageModel ci = new CoverageModel(reference, CoverageTag.builtIn(), Level.CI, 1);
                for (Conversion c : reference.tables().conversions()) {
                    for (Rounding mode : c.modes()) {
                        for (Case state : reference.saturationStates(c, mode)) {
                            Converter converter = reference.converter(state);
                            if (ReferenceModel.unsupported(converter, ReferenceModel.Generation.AUTO) != null) {
                                continue;
                            }
                            // a steps model is its runs written out alike: one per pair of formats is simulated (one
                            // per destination from the 16-bit sources, whose models are the largest), and StepsTest
                            // checks every one's runs on every input, so that the build stays within minutes
                            boolean steps = ReferenceModel.unsupported(converter, ReferenceModel.Generation.DATAPATH) != null;
                            String from = c.from().width() == 16 ? "16-bit" : c.from().name();
                            String profile = dir.getFileName().toString();
                            if (steps && !pairs.add(profile + " " + (every ? from : "") + "->" + c.to().name())
                                    || !steps && !every && !pairs.add(profile + " ->" + c.to().name() + " " + mode)) {
                                continue;
                            }
                            String name = "m" + models.size();
                            sv.append(ReferenceModel.systemVerilog(converter, name, ReferenceModel.Generation.AUTO));
                            long[] inputs = c.from().width() <= 16 ? all(c.from().width()) : ci.inputs(c).bits();
                            models.add(new Model(dir.getFileName() + " " + state.describe(), converter, inputs));
                        }
                    }
                }
            }
        }
        assertTrue(models.size() > atLeast, "models: " + models.size());
        sv.append("module check_top (input logic [63:0] in [").append(models.size()).append("], output logic [63:0] out [")
                .append(models.size()).append("]);\n");
        for (int k = 0; k < models.size(); k++) {
            var f = models.get(k).converter();
            int wi = f.source().format().width();
            int wo = f.destination().format().width();
            sv.append("  logic [").append(wo - 1).append(":0] o").append(k).append(";\n  m").append(k).append(" i").append(k)
                    .append(" (.in(in[").append(k).append("][").append(wi - 1).append(":0]), .out(o").append(k).append("));\n")
                    .append("  assign out[").append(k).append("] = 64'(o").append(k).append(");\n");
        }
        sv.append("endmodule\n");
        Files.writeString(temp.resolve("models.sv"), sv);
        Files.writeString(temp.resolve("harness.cpp"), HARNESS.replace("MODELS", Integer.toString(models.size())));
        Process build = new ProcessBuilder("verilator", "--cc", "--exe", "--build", "-j", "2", "-Wno-fatal", "-O1",
                "--top-module", "check_top", "-Mdir", temp.resolve("obj").toString(), "-o", "check", "models.sv", "harness.cpp")
                .directory(temp.toFile()).redirectErrorStream(true).redirectOutput(temp.resolve("build.log").toFile()).start();
        assertTrue(build.waitFor(15, TimeUnit.MINUTES));
        assertEquals(0, build.exitValue(), Files.readString(temp.resolve("build.log")));

        Path in = temp.resolve("inputs.bin");
        try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(in))) {
            for (Model m : models) {
                out.writeInt(Integer.reverseBytes(m.inputs().length));
                for (long x : m.inputs()) {
                    out.writeLong(Long.reverseBytes(x));
                }
            }
        }
        Process run = new ProcessBuilder(temp.resolve("obj/check").toString()).redirectInput(in.toFile())
                .redirectOutput(temp.resolve("outputs.bin").toFile()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        assertTrue(run.waitFor(10, TimeUnit.MINUTES));
        assertEquals(0, run.exitValue());
        ByteBuffer results = ByteBuffer.wrap(Files.readAllBytes(temp.resolve("outputs.bin"))).order(ByteOrder.LITTLE_ENDIAN);
        List<String> wrong = new ArrayList<>();
        for (Model m : models) {
            int mismatches = 0;
            String first = null;
            for (long x : m.inputs()) {
                long got = results.getLong();
                long want = m.converter().apply(x);
                if (got != want && mismatches++ == 0) {
                    first = "input 0x" + Long.toHexString(x) + " model 0x" + Long.toHexString(got) + " reference 0x" + Long.toHexString(want);
                }
            }
            if (mismatches > 0) {
                wrong.add(m.name() + ": " + mismatches + " of " + m.inputs().length + ", first " + first);
            }
        }
        assertEquals(List.of(), wrong);
    }

    private static long[] all(int width) {
        long[] codes = new long[1 << width];
        for (int i = 0; i < codes.length; i++) {
            codes[i] = i;
        }
        return codes;
    }

    /**
     * Reads, for each model in order, a u32 count and that many u64 inputs (little-endian), drives every model at
     * once with its i-th input (0 past its count), and writes each model's outputs in the same order.
     */
    static final String HARNESS = """
            #include <cstdint>
            #include <cstdio>
            #include <vector>
            #include "Vcheck_top.h"
            int main() {
              const int K = MODELS;
              std::vector<std::vector<uint64_t>> in(K), out(K);
              size_t longest = 0;
              for (int k = 0; k < K; k++) {
                uint32_t n;
                if (fread(&n, 4, 1, stdin) != 1) return 2;
                in[k].resize(n);
                if (n && fread(in[k].data(), 8, n, stdin) != n) return 2;
                out[k].resize(n);
                if (n > longest) longest = n;
              }
              Vcheck_top top;
              for (size_t i = 0; i < longest; i++) {
                for (int k = 0; k < K; k++) top.in[k] = i < in[k].size() ? in[k][i] : 0;
                top.eval();
                for (int k = 0; k < K; k++) if (i < in[k].size()) out[k][i] = top.out[k];
              }
              for (int k = 0; k < K; k++) if (!out[k].empty()) fwrite(out[k].data(), 8, out[k].size(), stdout);
              return 0;
            }
            """;
}
