package convcert.suite.prove;

import convcert.common.UsageException;
import convcert.reference.Converter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The design's interface as Yosys reads it, checked against the case before any engine runs: the input port as
 * wide as the source, the output at least as wide as the destination (its low bits are compared), every --set a
 * port, no flip-flop, latch or memory (prove takes combinational designs), and the inputs nothing drives, which
 * the miter leaves free: the proof then holds for every value of them, as a simulator's X would be any value.
 *
 * @param widths  every port's width, by name, inputs first
 * @param inputs  the input ports' names
 * @param stateful the flip-flops, latches and memories after proc (none for a combinational design)
 */
public record Ports(Map<String, Integer> widths, List<String> inputs, List<String> stateful) {

    /** A wire line of RTLIL's dump: its width (absent: 1), direction and name. */
    private static final Pattern WIRE = Pattern.compile(
            "^\\s*wire (?:width (\\d+) )?(?:offset -?\\d+ )?(?:upto )?(?:signed )?(input|output|inout) \\d+ \\\\(\\S+)\\s*$",
            Pattern.MULTILINE);

    /** Reads the design's top module in Yosys (its ports, and its state elements after proc). */
    public static Ports inspect(Path folder, List<Path> design, List<String> defines, String top, long timeoutSeconds)
            throws IOException, InterruptedException {
        StringBuilder script = Engines.readDesign(design, defines);
        script.append("\nhierarchy -check -top ").append(top).append("\ntee -q -o ports.il dump ").append(top).append("/i:* ")
                .append(top).append("/o:*\nproc; flatten\ntee -q -o state.txt select -list t:$*ff* t:$*latch* t:$mem* t:$sr\n");
        Files.writeString(folder.resolve("ports.ys"), script);
        Files.deleteIfExists(folder.resolve("ports.il"));
        Files.deleteIfExists(folder.resolve("state.txt"));
        Engines.Run yosys = Engines.run(folder, "ports.out", timeoutSeconds, "yosys", "-q", "-l", "ports.log", "-s", "ports.ys");
        if (yosys.exit() != 0 || !Files.isRegularFile(folder.resolve("ports.il"))) {
            throw new UsageException("yosys could not read the design (" + folder.resolve("ports.log") + "): "
                    + Engines.lastError(yosys.output()));
        }
        Map<String, Integer> widths = new LinkedHashMap<>();
        List<String> inputs = new ArrayList<>();
        Matcher m = WIRE.matcher(Files.readString(folder.resolve("ports.il")));
        while (m.find()) {
            widths.put(m.group(3), m.group(1) == null ? 1 : Integer.parseInt(m.group(1)));
            if (!m.group(2).equals("output")) {
                inputs.add(m.group(3));
            }
        }
        List<String> state = Files.isRegularFile(folder.resolve("state.txt"))
                ? Files.readAllLines(folder.resolve("state.txt")).stream().map(String::strip).filter(l -> !l.isEmpty()).toList()
                : List.of();
        return new Ports(widths, inputs, state);
    }

    /**
     * Checks the interface against the miter and the case, each problem one line (a usage error, exit 2); the input
     * ports left free.
     */
    public List<String> check(Miter miter, Converter converter) {
        if (!stateful.isEmpty()) {
            throw new UsageException(miter.top() + " is sequential (" + stateful.size() + " flip-flops, latches or memories, "
                    + stateful.getFirst().replaceAll("^.*/", "") + " first): prove takes combinational designs; simulate a "
                    + "pipelined one on the golden vectors (suite/devices/rtl/run.sh)");
        }
        for (String port : miter.constants().keySet()) {
            if (!inputs.contains(port)) {
                throw new UsageException("--set " + port + ": " + miter.top() + " has no input port " + port + "; its inputs: "
                        + String.join(" ", inputs));
            }
        }
        width("--input", miter.input(), converter.source().format().width(), true, converter.source().format().name());
        width("--output", miter.output(), converter.destination().format().width(), false, converter.destination().format().name());
        return inputs.stream().filter(p -> !p.equals(miter.input()) && !miter.constants().containsKey(p)).toList();
    }

    private void width(String option, String port, int bits, boolean exact, String format) {
        Integer w = widths.get(port);
        if (w == null) {
            throw new UsageException(option + " " + port + ": the design has no such port; its ports: "
                    + String.join(" ", widths.keySet()));
        }
        if (exact ? w != bits : w < bits) {
            throw new UsageException(option + " " + port + " is " + w + " bits wide; " + format + " takes " + bits
                    + (exact ? "" : " (the output's low bits are compared; it may be wider)"));
        }
    }
}
