package convcert.cli;

import convcert.common.UsageException;
import convcert.reference.ChunkDigest;
import convcert.reference.Converter;
import convcert.reference.Reference;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** convcert digest: the reference's per-chunk digests over all 2^32 inputs of a 32-bit source. */
@Command(name = "digest", mixinStandardHelpOptions = true,
        header = "Print the reference's per-chunk digests over all 2^32 inputs of a 32-bit source.",
        description = "Print the reference's digest of every chunk of 2^BITS consecutive inputs of a 32-bit source "
                + "(one line 'chunk digest', hex), for comparing an implementation that cannot ship its outputs.")
public final class DigestCommand implements Callable<Integer> {

    @Mixin
    CaseOptions conversion;

    @Option(names = "--chunk-bits", paramLabel = "BITS", defaultValue = "24",
            description = "log2 of the chunk size (default: ${DEFAULT-VALUE}).")
    int chunkBits;

    @Option(names = "--exact-nan", description = "Digest NaN results as they are (default: every NaN counts as the "
            + "destination's canonical NaN of formats.csv).")
    boolean exactNan;

    @Mixin
    ProfileOptions profile;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (chunkBits < 8 || chunkBits > 32) {
            throw new UsageException("--chunk-bits must be 8..32");
        }
        Reference reference = profile.reference();
        Converter converter = reference.converter(conversion.resolve(reference));
        long nan = exactNan || converter.destination().isInteger() || !converter.destination().format().hasNan() ? -1
                : converter.destination().format().nan();
        long[] digests = ChunkDigest.digests(converter, chunkBits, nan);
        PrintWriter out = spec.commandLine().getOut();
        for (int c = 0; c < digests.length; c++) {
            out.printf("%d %016x%n", c, digests[c]);
        }
        return 0;
    }
}
