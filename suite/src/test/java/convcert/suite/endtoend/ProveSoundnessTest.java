package convcert.suite.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a design cannot make prove say: an X output is any value (a simulator shows X, another synthesis tool picks
 * any value), an input nothing drives takes every value and is named, ports whose widths do not fit the case and
 * sequential designs are refused in one line, and proof.json tells two designs and two runs apart. Each design is
 * double_to_bf16.sv (ieee754, double -> bfloat16 rn: proven in seconds) wrapped or cut down.
 */
@Tag("slow") // a few seconds a proof
class ProveSoundnessTest {

    /** Right while force_zero is 0, wrong while it is 1. */
    private static final String WITH_MODE = """
            module with_mode (input logic [63:0] in, input logic force_zero, output logic [15:0] out);
              logic [15:0] right;
              double_to_bf16 inner (.in(in), .out(right));
              assign out = force_zero ? 16'h0 : right;
            endmodule
            """;

    @TempDir
    Path temp;

    private Fixtures.Run prove(String top, String design, String... more) throws IOException {
        assumeTrue(ProveTest.yosys(), "yosys is not installed (apt-get install yosys; .ci/run installs it)");
        Path file = Files.writeString(temp.resolve(top + ".sv"), design);
        List<String> a = new ArrayList<>(List.of("prove", "--profile", "ieee754", "--from", "double", "--to", "bfloat16",
                "--rounding", "rn", "--counterexamples", "1", "--rtl", ProveTest.RTL.resolve("double_to_bf16.sv").toString(),
                "--rtl", file.toString(), "--top", top, "--out", temp.resolve("out-" + top).toString()));
        a.addAll(List.of(more));
        return Fixtures.run("", a.toArray(String[]::new));
    }

    /**
     * Wrong only where the input's two 32-bit halves multiply to a 64-bit constant: factoring, which neither engine
     * finishes in a second. Each engine that could not finish is named with what it said, and there is no verdict.
     */
    @Test
    void anEngineThatCannotFinishIsNamedAndNoVerdictIsGiven() throws IOException {
        Fixtures.Run r = prove("factoring", """
                module factoring (input logic [63:0] in, output logic [15:0] out);
                  logic [15:0] right;
                  double_to_bf16 inner (.in(in), .out(right));
                  assign out = {32'h0, in[31:0]} * {32'h0, in[63:32]} == 64'hC0F3_5F8D_3E29_7A4B ? 16'h0 : right;
                endmodule
                """, "--timeout-s", "1");
        assertEquals(4, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("UNDECIDED: yosys sat (") && r.out().contains(") could not finish: timed out after 1 s"),
                r.out());
    }

    /** Right everywhere but +0.0, where the output is X: setundef -zero read it as 0x0000 and proved it. */
    @Test
    void anXOutputIsAnyValueAndRefuted() throws IOException {
        Fixtures.Run r = prove("x_at_zero", """
                module x_at_zero (input logic [63:0] in, output logic [15:0] out);
                  logic [15:0] right;
                  double_to_bf16 inner (.in(in), .out(right));
                  assign out = in == 64'h0 ? 16'bx : right;
                endmodule
                """);
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("counterexample: input 0x0000000000000000 (0.0): expected 0x0000 (0.0), actual X (undefined "
                + "bits, any value; the engines chose 0x"), r.out());
        assertTrue(r.out().contains("REFUTED"), r.out());
    }

    /** An input port no --set drives is free: the proof covers all its values, and prove names it. */
    @Test
    void anUndrivenInputTakesEveryValueAndIsNamed() throws IOException {
        Fixtures.Run free = prove("with_mode", WITH_MODE);
        assertEquals(1, free.exit(), "force_zero=1 is wrong, and nothing drives it: " + free.out() + free.err());
        assertTrue(free.out().contains("free     force_zero (no --set drives it: every value of it is checked)"), free.out());
        Fixtures.Run set = prove("with_mode", WITH_MODE, "--set", "force_zero=0");
        assertEquals(0, set.exit(), set.out() + set.err());
        assertTrue(!set.out().contains("free "), set.out());
    }

    @Test
    void portsNarrowerOrWiderThanTheCaseAreOneLineErrors() throws IOException {
        Fixtures.Run narrow = prove("narrow", """
                module narrow (input logic [63:0] in, output logic [7:0] out);
                  logic [15:0] right;
                  double_to_bf16 inner (.in(in), .out(right));
                  assign out = right[7:0];
                endmodule
                """);
        assertEquals(2, narrow.exit(), narrow.out() + narrow.err());
        assertEquals("convcert: --output out is 8 bits wide; bfloat16 takes 16 (the output's low bits are compared; it may be "
                + "wider)", narrow.err().strip());
        Fixtures.Run input = prove("short_in", """
                module short_in (input logic [31:0] in, output logic [15:0] out);
                  double_to_bf16 inner (.in({in, 32'h0}), .out(out));
                endmodule
                """);
        assertEquals(2, input.exit(), input.out() + input.err());
        assertEquals("convcert: --input in is 32 bits wide; double takes 64", input.err().strip());
        Fixtures.Run unknown = prove("short_in", Files.readString(temp.resolve("short_in.sv")), "--set", "mode=1");
        assertEquals(2, unknown.exit(), unknown.out() + unknown.err());
        assertTrue(unknown.err().contains("--set mode: short_in has no input port mode; its inputs: in"), unknown.err());
    }

    /** A registered output: refused before any engine runs, as a proof of one cycle would say nothing. */
    @Test
    void aSequentialDesignIsRefusedInOneLine() throws IOException {
        Fixtures.Run r = prove("piped", """
                module piped (input logic clk, input logic [63:0] in, output logic [15:0] out);
                  logic [15:0] right;
                  double_to_bf16 inner (.in(in), .out(right));
                  always_ff @(posedge clk) out <= right;
                endmodule
                """);
        assertEquals(2, r.exit(), r.out() + r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("convcert: piped is sequential (1 flip-flops, latches or memories"), r.err());
    }

    /** proof.json: the files' digests, the defines, parameters and sets, convcert's build, engines and time. */
    @Test
    void theProofRecordsWhatWasProvenAndHow() throws IOException {
        Fixtures.Run r = prove("with_mode", WITH_MODE, "--set", "force_zero=0", "--define", "UNUSED_DEFINE");
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode proof = new ObjectMapper().readTree(temp.resolve("out-with_mode/proof.json").toFile());
        assertEquals(2, proof.get("design").size(), proof.toString());
        assertTrue(proof.get("design").get(1).get("sha256").asText().matches("[0-9a-f]{64}"), proof.toString());
        assertEquals("[\"UNUSED_DEFINE\"]", proof.get("defines").toString());
        assertEquals("{\"force_zero\":0}", proof.get("sets").toString());
        assertEquals("[]", proof.get("free").toString());
        assertTrue(proof.get("provenance").get("commit").isTextual(), proof.toString());
        assertTrue(proof.get("provenance").get("date").asText().matches("\\d{4}-\\d\\d-\\d\\dT.*Z"), proof.toString());
        assertTrue(proof.get("proof").get("engines").get(0).get("name").asText().startsWith("yosys sat (Yosys "), proof.toString());
    }
}
