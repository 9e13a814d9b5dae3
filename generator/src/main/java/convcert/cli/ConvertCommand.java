package convcert.cli;

import convcert.reference.Case;
import convcert.reference.Converter;
import convcert.reference.Reference;
import convcert.reference.UsageException;
import convcert.spec.Format;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

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
                emit(out, converter, destination, bits);
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
                        emit(out, converter, destination, bits);
                    }
                }
            }
        }
        out.flush();
        return 0;
    }

    private void emit(PrintWriter out, Converter converter, Format destination, long bits) {
        if (explain) {
            out.println();
            out.print(converter.explain(bits).render());
        } else {
            out.println(destination.hex(converter.apply(bits)));
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
