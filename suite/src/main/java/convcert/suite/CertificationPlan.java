package convcert.suite;

import convcert.suite.model.CaseResult;
import convcert.suite.model.ExitCode;
import convcert.suite.model.Status;
import convcert.suite.runner.Batches;
import convcert.suite.runner.Planned;
import convcert.suite.runner.SuiteRun;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * certify --plan: what a run would do, before it does it, so a team can size a farm: the cases and
 * vectors the adapter would be given, and an estimate of the time from a calibration that runs real
 * cases through it for about two seconds (an exhaustive case: slices of its inputs, split as --jobs
 * splits them, the first not counted). Nothing is certified and no report is written, so it exits
 * 5 (nothing certified), as a run that certified nothing does: a gate that runs --plan by mistake fails.
 */
final class CertificationPlan {

    /** Calibration stops after this long, or this many vectors, whichever comes first. */
    private static final long CALIBRATION_NANOS = 2_000_000_000L;
    private static final long CALIBRATION_VECTORS = 1L << 28;
    /** An exhaustive case is calibrated on this many of its inputs, from 1.0f up (normal floats). */
    private static final long SLICE = 1L << 22;
    private static final long SLICE_FIRST = 0x3F800000L;
    private static final int MAX_SLICES = 64;

    private CertificationPlan() {
    }

    /**
     * The states the profile's planned cases offer, a line a pair, as a capability line names them (ROUNDING STATE),
     * those the adapter declares starred: what to write in CAP lines and --only without reading the tables.
     */
    private static void states(List<Planned> planned, List<Planned> applicable, PrintWriter out) {
        Map<String, java.util.Set<String>> byPair = new LinkedHashMap<>();
        java.util.Set<String> declared = new java.util.HashSet<>(applicable.stream().map(p -> p.key().stateName()).toList());
        for (Planned p : planned) {
            byPair.computeIfAbsent(p.key().from() + " " + p.key().to(), x -> new java.util.LinkedHashSet<>())
                    .add(p.key().rounding() + " " + p.key().state() + (declared.contains(p.key().stateName()) ? "*" : ""));
        }
        out.println("  states       a pair's states as a capability line names them (FROM TO ROUNDING STATE; * the adapter's):");
        byPair.forEach((pair, states) -> out.printf("               %s: %s%n", pair, String.join(", ", states)));
    }

    static int print(SuiteRun run, CertificationRequest request, PrintWriter out) {
        List<Planned> planned = run.plan().values().stream().flatMap(List::stream).toList();
        List<Planned> applicable = planned.stream().filter(p -> run.applies(p.key())).toList();
        long vectors = applicable.stream().mapToLong(Planned::count).sum();
        out.printf("plan: profile %s, adapter %s%s%n", request.reference().tables().profile(), request.adapter(),
                request.shards() > 1 ? ", shard " + request.shardText() : "");
        out.printf("  cases        %,d planned, %,d applicable to the adapter%n", planned.size(), applicable.size());
        out.printf("  vectors      %,d in the applicable cases%s%n", vectors, request.exhaustive()
                ? " (all 2^32 inputs per case" + (request.shards() > 1 ? ", this shard's part" : "") + ")" : "");
        // The applicable cases, one line a state: its vectors and how many variants (forms, CTRL settings) select it.
        Map<String, List<Planned>> states = new LinkedHashMap<>();
        for (Planned p : applicable) {
            states.computeIfAbsent(p.key().stateName(), x -> new ArrayList<>()).add(p);
        }
        states.forEach((state, variants) -> out.printf("  case         %s: %,d vectors%s%n", state, variants.getFirst().count(),
                variants.size() > 1 ? " x " + variants.size() + " variants" : ""));
        states(planned, applicable, out);
        if (applicable.isEmpty()) {
            out.println("  estimate     none: the run would certify nothing (exit " + ExitCode.NOTHING_CERTIFIED.code() + ")");
            out.flush();
            return ExitCode.NOTHING_CERTIFIED.code();
        }
        Calibration c = calibrate(run, applicable, request.jobs(), out);
        if (c == null) {
            return ExitCode.ADAPTER_FAILURE.code();
        }
        long calibrated = c.vectors();
        int cases = c.cases();
        double seconds = c.nanos() / 1e9;
        double rate = calibrated / Math.max(seconds, 1e-9);
        double estimate = vectors / rate;
        out.printf("  calibration  %,d %s, %,d vectors in %.2f s: %,.0f vectors/s%n", cases, cases == 1 ? "case" : "cases",
                calibrated, seconds, rate);
        out.printf("  estimate     %s for the applicable cases at that rate (start-up, diagnosis of failures and the reports"
                + " come on top)%n", duration(estimate));
        if (request.exhaustive() && request.shards() == 1 && estimate > 3600) {
            out.printf("  farm         --shard auto over N array tasks takes about %s each for N = 16 (docs/farms)%n",
                    duration(estimate / 16));
        }
        out.println("plan only: nothing certified (exit " + ExitCode.NOTHING_CERTIFIED.code() + ")");
        out.flush();
        return ExitCode.NOTHING_CERTIFIED.code();
    }

    /** What a short run of the first applicable cases took: cases (an exhaustive one counted once), vectors and nanoseconds. */
    private record Calibration(int cases, long vectors, long nanos) {
    }

    /** Calibrates on the first cases; null, the failure printed, where a case fails to run. */
    private static Calibration calibrate(SuiteRun run, List<Planned> applicable, int jobs, PrintWriter out) {
        long calibrated = 0;
        long nanos = 0;
        int cases = 0;
        boolean warmedUp = false;
        // Vector cases run whole, in order; an exhaustive case runs slice after slice of its inputs, the first
        // (the device's start, the JIT's warm-up) not counted: a long run spends nearly all its time warm.
        for (int i = 0, slice = 0; i < applicable.size(); ) {
            Planned p = applicable.get(i);
            boolean sliced = p instanceof Planned.Values v && v.count() > SLICE;
            if (nanos >= CALIBRATION_NANOS || calibrated >= CALIBRATION_VECTORS || sliced && slice >= MAX_SLICES) {
                break;
            }
            Planned sample = sliced ? slice((Planned.Values) p, slice++, jobs) : p;
            long start = System.nanoTime();
            CaseResult r = run.execute(sample);
            long took = System.nanoTime() - start;
            if (r.status() == Status.ADAPTER_ERROR || r.status() == Status.ERROR) {
                out.println("  calibration  failed on " + p.key().name() + ": " + r.message());
                out.println("  estimate     none (a run would report that case as " + r.status().name().toLowerCase(Locale.ROOT)
                        + ")");
                out.flush();
                return null;
            }
            if (sliced && !warmedUp) {
                warmedUp = true;
                continue;
            }
            nanos += took;
            calibrated += sample.count();
            if (!sliced) {
                cases++;
                i++;
            } else if (cases == 0) {
                cases = 1;
            }
        }
        return new Calibration(cases, calibrated, nanos);
    }

    /** Slice k of an exhaustive case's inputs (from 1.0f up, normal floats), in --jobs parts as the run splits it. */
    private static Planned slice(Planned.Values v, int k, int jobs) {
        long first = SLICE_FIRST + SLICE * k;
        List<Supplier<Batches>> parts = new ArrayList<>();
        for (int j = 0; j < jobs; j++) {
            long from = first + SLICE * j / jobs;
            long to = first + SLICE * (j + 1) / jobs;
            parts.add(() -> Batches.range(from, to, v.reference()));
        }
        return new Planned.Values(v.key(), SLICE, v.reference(), () -> Batches.range(first, first + SLICE, v.reference()),
                parts);
    }

    /** 42 s, 3.5 min, 2.1 h, 1.3 days. */
    static String duration(double seconds) {
        if (seconds < 90) {
            return String.format(Locale.ROOT, "about %.0f s", Math.max(seconds, 1));
        }
        if (seconds < 5400) {
            return String.format(Locale.ROOT, "about %.1f min", seconds / 60);
        }
        if (seconds < 2 * 86400) {
            return String.format(Locale.ROOT, "about %.1f h", seconds / 3600);
        }
        return String.format(Locale.ROOT, "about %.1f days", seconds / 86400);
    }
}
