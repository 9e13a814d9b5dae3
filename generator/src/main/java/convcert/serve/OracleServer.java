package convcert.serve;

import convcert.common.Home;
import convcert.common.UsageException;
import convcert.reference.Case;
import convcert.reference.Converter;
import convcert.reference.Operands;
import convcert.reference.Reference;
import convcert.reference.Semantics;
import convcert.spec.SpecTables;
import convcert.spec.TableException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The reference as a long-lived oracle for another process (the Python package {@code convcert}): one
 * request a line, one answer a line ("ok ..." or "error MESSAGE"), the arrays in a file both sides map
 * ({@link SharedArrays}). A bad request is answered and the next one served; the server ends at the end of
 * its input. References (tables and decisions) and converters are made once and kept.
 */
public final class OracleServer {

    private static final List<String> CASE_WORDS = OracleRequest.CASE_KEYS;
    private static final List<String> CONVERT_WORDS = List.of("profile", "tables", "from", "to", "rounding", "saturation",
            "ctrl", "file", "count", "in", "out", "lanes");

    private final Map<String, Reference> references = new HashMap<>();
    private final Map<String, Converter> converters = new HashMap<>();

    /** Serves until in ends; every answer is flushed at once. */
    public void serve(BufferedReader in, PrintStream out) throws IOException {
        String line;
        while ((line = in.readLine()) != null) {
            out.println(answer(line));
            out.flush();
        }
    }

    /** The answer to one request line. */
    String answer(String line) {
        try {
            OracleRequest request = OracleRequest.parse(line);
            return switch (request.verb()) {
                case "case" -> {
                    request.refuseUnknown(CASE_WORDS);
                    yield describe(converter(request));
                }
                case "convert" -> {
                    request.refuseUnknown(CONVERT_WORDS);
                    Converter converter = converter(request);
                    SharedArrays.convert(converter, Path.of(request.require("file")), request.number("count"),
                            request.number("in"), request.number("out"),
                            request.get("lanes") == null ? -1 : request.number("lanes"));
                    yield "ok";
                }
                default -> throw new UsageException("unknown request '" + request.verb() + "'; requests: case convert");
            };
        } catch (UsageException | TableException e) {
            return "error " + oneLine(e.getMessage());
        } catch (IOException | RuntimeException e) {
            return "error " + e.getClass().getSimpleName() + ": " + oneLine(String.valueOf(e.getMessage()));
        }
    }

    private static String oneLine(String message) {
        return message.replaceAll("\\s*\\R\\s*", " ");
    }

    /**
     * A case's resolution: the names the reference uses, the widths in bits and bytes, the lane a value
     * takes beside it, then after " ; " the case in words.
     */
    private static String describe(Converter converter) {
        Case c = converter.spec();
        Operands operands = converter.operands();
        String scale = operands.scale() == null ? null : "scale:" + operands.scale().min() + ":" + operands.scale().max();
        String random = operands.randomBits() == 0 ? null : "random:" + operands.randomBits();
        String lane = scale != null && random != null ? scale + "+" + random : scale != null ? scale : random != null ? random : "none";
        return "ok from=" + c.conversion().from().name() + " to=" + c.conversion().to().name()
                + " rounding=" + c.rounding().suffix() + " saturation=" + c.form().tableName()
                + " state=" + c.saturation().tableName()
                + " in_bits=" + c.conversion().from().width() + " out_bits=" + c.conversion().to().width()
                + " in=" + c.conversion().from().bytes() + " out=" + c.conversion().to().bytes()
                + " lane=" + lane + " ; " + c.describe();
    }

    private Converter converter(OracleRequest request) {
        String key = request.caseKey();
        Converter known = converters.get(key);
        if (known != null) {
            return known;
        }
        Reference reference = reference(request);
        Case c = reference.resolve(request.require("from"), request.require("to"), request.get("rounding"),
                request.get("saturation"), reference.ctrl(request.get("ctrl")));
        Converter converter = reference.converter(c);
        converters.put(key, converter);
        return converter;
    }

    private Reference reference(OracleRequest request) {
        String tables = request.get("tables");
        String profile = request.get("profile");
        if (tables != null && profile != null) {
            throw new UsageException("give profile=NAME or tables=DIR, not both");
        }
        if (tables == null && profile == null) {
            throw new UsageException(request.verb() + " needs profile=NAME or tables=DIR");
        }
        Path dir = tables != null ? Path.of(tables) : Home.specTables().resolve(profile);
        if (!Files.isRegularFile(dir.resolve("formats.csv"))) {
            throw new UsageException(tables != null ? "tables=" + tables + " has no formats.csv"
                    : "no profile '" + profile + "'; profiles: " + String.join(" ", profiles()));
        }
        String key = dir + " " + request.decisions();
        Reference known = references.get(key);
        if (known == null) {
            SpecTables t = SpecTables.load(dir);
            known = new Reference(t, Semantics.of(t, request.decisions()));
            references.put(key, known);
        }
        return known;
    }

    private static List<String> profiles() {
        try (var folders = Files.list(Home.specTables())) {
            return folders.filter(p -> Files.isRegularFile(p.resolve("formats.csv"))).map(p -> p.getFileName().toString())
                    .sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}
