package convcert.suite.runner;

import convcert.faults.Fault;
import convcert.faults.FaultCatalogue;
import convcert.faults.FaultModel;
import convcert.reference.Converter;
import convcert.reference.Decoded;
import convcert.reference.FormatCodec;
import convcert.reference.Reference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What a failing case's implementation probably does wrong: every fault of the catalogue that applies
 * is tried as a hypothesis against the case's vectors. A fault that reproduces every wrong answer and
 * changes no right one explains the case; otherwise the best partial explanation is given. Runs only
 * for failing cases, so a passing run pays nothing.
 */
final class Diagnosis {

    /** Inputs of a very large (exhaustive) case read for passes: the first this many. */
    private static final long PASS_SAMPLE = 1L << 20;

    private final FaultModel model;
    private final List<Fault> catalogue;
    private final boolean anyNaN;

    private Diagnosis(Reference reference, List<Fault> catalogue, boolean anyNaN) {
        this.model = new FaultModel(reference);
        this.catalogue = catalogue;
        this.anyNaN = anyNaN;
    }

    /** The catalogue beside the profile's folder (spec-tables/faults.csv), or null without one. */
    static Diagnosis of(Reference reference, boolean anyNaN) {
        Path file = reference.tables().directory().toAbsolutePath().getParent().resolve(FaultCatalogue.FILE);
        return Files.isRegularFile(file) ? new Diagnosis(reference, FaultCatalogue.load(file), anyNaN) : null;
    }

    String explain(Converter reference, Supplier<CaseRunner.Batches> batches, Map<Long, Long> wrong) {
        if (wrong.isEmpty()) {
            return null;
        }
        List<long[]> passes = new ArrayList<>(); // {input, expected}
        CaseRunner.Batches b = batches.get();
        long[] in = new long[CaseRunner.BATCH];
        long[] exp = new long[CaseRunner.BATCH];
        long read = 0;
        for (int n; read < PASS_SAMPLE && (n = b.next(in, exp)) > 0; read += n) {
            for (int i = 0; i < n; i++) {
                if (!wrong.containsKey(in[i])) {
                    passes.add(new long[] {in[i], exp[i]});
                }
            }
        }
        FormatCodec dst = reference.destination();
        List<String> full = new ArrayList<>();
        String best = null;
        long bestScore = 0;
        for (Fault f : catalogue) {
            FaultModel.Implementation w = model.implementation(f, reference.spec());
            if (w == null) {
                continue;
            }
            long explained = wrong.entrySet().stream().filter(e -> same(dst, w.apply(e.getKey()), e.getValue())).count();
            long broken = passes.stream().filter(p -> !same(dst, w.apply(p[0]), p[1])).count();
            if (explained == wrong.size() && broken == 0) {
                full.add(f.id() + " (" + f.description() + ")");
            } else if (explained - broken > bestScore) {
                bestScore = explained - broken;
                best = f.id() + " (" + f.description() + ") explains " + explained + " of " + wrong.size()
                        + " mismatches and changes " + broken + " of " + passes.size() + " passes";
            }
        }
        if (!full.isEmpty()) {
            return "all " + wrong.size() + " mismatches, and none of the " + passes.size() + " passes, are explained by: "
                    + String.join("; or ", full);
        }
        return best == null ? null : "best partial explanation: " + best;
    }

    /** Mismatching inputs per binade of the source ("2^e"; "0", "inf", "NaN"), in value order. */
    static Map<String, Long> binades(FormatCodec src, Map<Long, Long> wrong) {
        java.util.TreeMap<Integer, Long> byBinade = new java.util.TreeMap<>();
        long zeros = 0;
        long infinities = 0;
        long nans = 0;
        for (long x : wrong.keySet()) {
            Decoded d = src.decode(x);
            switch (d.kind()) {
                case ZERO -> zeros++;
                case INFINITE -> infinities++;
                case NAN -> nans++;
                case FINITE -> byBinade.merge(d.binade(), 1L, Long::sum);
            }
        }
        Map<String, Long> ordered = new java.util.LinkedHashMap<>();
        if (zeros > 0) {
            ordered.put("0", zeros);
        }
        byBinade.forEach((e, n) -> ordered.put("2^" + e, n));
        if (infinities > 0) {
            ordered.put("inf", infinities);
        }
        if (nans > 0) {
            ordered.put("NaN", nans);
        }
        return ordered;
    }

    private boolean same(FormatCodec dst, long a, long b) {
        return a == b || (anyNaN && !dst.isInteger() && dst.decode(a).kind() == Decoded.Kind.NAN
                && dst.decode(b).kind() == Decoded.Kind.NAN);
    }
}
