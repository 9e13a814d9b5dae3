package convcert.cli;

import convcert.common.Home;
import convcert.common.UsageException;
import convcert.reference.Case;
import convcert.reference.Converter;
import convcert.reference.Flags;
import convcert.reference.Reference;
import convcert.spec.Format;
import convcert.spec.ScaleLane;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** convcert convert: hex bit patterns in, the reference's results out. */
@Command(name = "convert", mixinStandardHelpOptions = true,
        header = "Convert bit patterns with the reference.",
        description = "Reads hex patterns (0x optional, whitespace separated) from the arguments, or from stdin when "
                + "there are none, and prints one result a line as 0x-hex of the destination's width.")
public final class ConvertCommand implements Callable<Integer> {

    @Mixin
    CaseOptions conversion;

    @Option(names = "--explain", description = "Explain each result: decoded input, exact value, candidates, rules.")
    boolean explain;

    @Option(names = "--flags", description = "Print the exception flags beside each result: RESULT FLAGS, the flags as "
            + "two hex digits in SoftFloat's bits (01 inexact, 02 underflow, 04 overflow, 08 infinite, 10 invalid); "
            + "for profiles with flags.csv.")
    boolean flags;

    @Option(names = "--random", paramLabel = "HEX", description = "Stochastic rounding (rs): the random bits every "
            + "input takes, as many as the pair's random_bits (conversions.csv); e.g. cuda float->half takes 13.")
    String random;

    @Option(names = "--scale", paramLabel = "K", description = "Scaled conversions: the scale field every input "
            + "takes, an integer in the range of the pair's scale column (conversions.csv); e.g. arm float->fp8_e4m3fn "
            + "reads NSCALE, -128 to 127 (half->fp8_e4m3fn NSCALE[4:0], -16 to 15), converting value x 2^K, and "
            + "fp8_e4m3fn->half LSCALE[3:0], 0 to 15, value x 2^-K.")
    Long scaleArgument;

    @Mixin
    ProfileOptions profile;

    @Parameters(paramLabel = "HEX", description = "Input bit patterns; read from stdin when absent.")
    List<String> values = List.of();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        Reference reference = profile.reference();
        Case c = conversion.resolve(reference);
        Converter converter = reference.converter(c);
        if (flags && !reference.tables().hasFlags()) {
            throw new UsageException("--flags: profile " + reference.tables().profile() + " declares no exception flags "
                    + "(no flags.csv); profiles with flags: " + String.join(" ", profilesWithFlags()));
        }
        Flags lane = flags ? converter.flags() : null;
        boolean scaled = converter.operands().scale() != null || scaleArgument != null;
        long laneValue = scaled ? scaleCode(c, converter) : randomBits(c, converter);
        Long scaledRandom = scaled && converter.operands().randomBits() > 0 ? randomBits(c, converter) : null; // gfx950's _sr_ forms
        Format source = c.conversion().from();
        Format destination = c.conversion().to();
        PrintWriter out = spec.commandLine().getOut();
        if (explain) {
            out.println("case     " + c.describe());
            out.println("profile  " + reference.tables().profile() + " (" + reference.semantics() + ")");
        }
        if (!values.isEmpty()) {
            for (int i = 0; i < values.size(); i++) {
                long bits = parseHex(values.get(i), source, "argument " + (i + 1));
                emit(out, converter, lane, destination, operand(converter, bits, laneValue, scaledRandom));
            }
        } else {
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 16);
            String line;
            long lineNumber = 0;
            while ((line = in.readLine()) != null) {
                lineNumber++;
                int i = 0;
                while (i < line.length()) {
                    while (i < line.length() && Character.isWhitespace(line.charAt(i))) {
                        i++;
                    }
                    int start = i;
                    while (i < line.length() && !Character.isWhitespace(line.charAt(i))) {
                        i++;
                    }
                    if (i > start) {
                        long bits = parseHex(line.substring(start, i), source,
                                "stdin line " + lineNumber + ", column " + (start + 1));
                        emit(out, converter, lane, destination, operand(converter, bits, laneValue, scaledRandom));
                    }
                }
            }
        }
        out.flush();
        return 0;
    }

    private void emit(PrintWriter out, Converter converter, Flags lane, Format destination, long bits) {
        long result = converter.apply(bits);
        if (explain) {
            out.println();
            out.print(converter.explain(bits).render());
            if (lane != null) {
                int raised = lane.of(bits, result);
                out.printf("flags    %02x (%s)%n", raised, Flags.describe(raised));
            }
        } else if (lane != null) {
            out.printf("%s %02x%n", destination.hex(result), lane.of(bits, result));
        } else {
            out.println(destination.hex(result));
        }
    }

    /** A value with its lane: random bits or a scale, or a scale with random bits above it. */
    private static long operand(Converter converter, long bits, long laneValue, Long scaledRandom) {
        long operand = converter.operands().operand(bits, laneValue);
        return scaledRandom == null ? operand : converter.operands().withRandom(operand, scaledRandom);
    }

    /** --random's bits: required by rs, refused elsewhere, at most the pair's random_bits wide. */
    private long randomBits(Case c, Converter converter) {
        int n = converter.operands().randomBits();
        if (n == 0) {
            if (random != null) {
                throw new UsageException("--random: " + c.conversion().pairName() + " " + c.rounding().suffix()
                        + " takes no random bits (only stochastic rounding, rs, does)");
            }
            return 0;
        }
        if (random == null) {
            throw new UsageException("--rounding rs: give the random bits with --random HEX (" + n + " bits for "
                    + c.conversion().pairName() + ")");
        }
        String digits = random.startsWith("0x") || random.startsWith("0X") ? random.substring(2) : random;
        if (digits.isEmpty() || digits.length() > 16 || !digits.chars().allMatch(ch -> Character.digit(ch, 16) >= 0)) {
            throw new UsageException("--random: malformed hex '" + random + "'");
        }
        long bits = Long.parseUnsignedLong(digits, 16);
        if (n < 64 && bits >>> n != 0) {
            throw new UsageException("--random: '" + random + "' does not fit in the " + n + " random bits of "
                    + c.conversion().pairName());
        }
        return bits;
    }

    /** --scale's value as the lane holds it: required by a scaled pair, refused elsewhere, in the lane's range. */
    private long scaleCode(Case c, Converter converter) {
        ScaleLane lane = converter.operands().scale();
        if (lane == null) {
            throw new UsageException("--scale: " + c.conversion().pairName() + " takes no scale (conversions.csv has no scale for it)");
        }
        if (scaleArgument == null) {
            throw new UsageException(c.conversion().pairName() + " is scaled: give the scale with --scale K (" + lane.min()
                    + " to " + lane.max() + ")");
        }
        if (scaleArgument < lane.min() || scaleArgument > lane.max()) {
            throw new UsageException("--scale: " + scaleArgument + " is outside " + lane.min() + " to " + lane.max()
                    + ", the range of " + c.conversion().pairName() + "'s " + lane.bits() + "-bit scale");
        }
        if (random != null && converter.operands().randomBits() == 0) {
            throw new UsageException("--random: " + c.conversion().pairName() + " " + c.rounding().suffix()
                    + " takes a scale, not random bits");
        }
        return lane.code(scaleArgument);
    }

    /** The repository's profiles that have flags.csv. */
    private static List<String> profilesWithFlags() throws IOException {
        try (Stream<Path> folders = Files.list(Home.specTables())) {
            return folders.filter(d -> Files.isRegularFile(d.resolve("flags.csv"))).map(d -> d.getFileName().toString())
                    .sorted().toList();
        }
    }

    static long parseHex(String token, Format format, String where) {
        String digits = token.startsWith("0x") || token.startsWith("0X") ? token.substring(2) : token;
        if (digits.isEmpty() || digits.length() > 16 || !digits.chars().allMatch(ch -> Character.digit(ch, 16) >= 0)) {
            throw new UsageException("malformed hex '" + token + "' (" + where + ")");
        }
        long bits = Long.parseUnsignedLong(digits, 16);
        if ((bits & ~format.mask()) != 0) {
            throw new UsageException("'" + token + "' (" + where + ") does not fit in " + format.name() + " ("
                    + format.width() + " bits)");
        }
        return bits;
    }
}
