package convcert.reference;

import convcert.common.UsageException;
import java.util.stream.IntStream;

/**
 * Digests of a conversion over all 2^32 inputs of a 32-bit source, one per chunk of 2^chunkBits
 * consecutive inputs, so that another implementation (a GPU) can be compared chunk by chunk without
 * moving 16 GB of outputs. A chunk's digest is the sum, modulo 2^64, of mix((x << 32) ^ y) over its
 * inputs x with results y, where mix is SplitMix64's finalizer; a sum does not depend on the order
 * the other side adds in. With canonicalNan >= 0 every NaN result counts as that pattern (NaN
 * encodings then do not matter, as with nan-comparison=any). suite/devices/cuda/README.md repeats
 * the definition for implementers.
 */
public final class ChunkDigest {

    private ChunkDigest() {
    }

    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Digests of every chunk, computed in parallel. */
    public static long[] digests(Converter converter, int chunkBits, long canonicalNan) {
        return digests(converter, chunkBits, canonicalNan, 0, 1 << (32 - chunkBits));
    }

    /** Digests of chunks [first, end), computed in parallel. */
    public static long[] digests(Converter converter, int chunkBits, long canonicalNan, int first, int end) {
        if (converter.source().format().width() != 32) {
            throw new UsageException("digests cover 32-bit sources; " + converter.source().format().name() + " has "
                    + converter.source().format().width() + " bits");
        }
        long[] digests = new long[end - first];
        boolean[] nanCodes = nanCodes(converter.destination(), canonicalNan);
        IntStream.range(first, end).parallel()
                .forEach(c -> digests[c - first] = chunk(converter, c, chunkBits, canonicalNan, nanCodes));
        return digests;
    }

    /** Which codes of a destination of at most 16 bits are NaN (looked up, not decoded, per value); else null. */
    private static boolean[] nanCodes(FormatCodec destination, long canonicalNan) {
        int width = destination.format().width();
        if (canonicalNan < 0 || width > 16) {
            return null;
        }
        boolean[] nan = new boolean[1 << width];
        for (int code = 0; code < nan.length; code++) {
            nan[code] = NaNs.isNaN(destination, code);
        }
        return nan;
    }

    static long chunk(Converter converter, int chunk, int chunkBits, long canonicalNan, boolean[] nanCodes) {
        int batch = 1 << Math.min(chunkBits, 16);
        long[] in = new long[batch];
        long[] out = new long[batch];
        long sum = 0;
        long first = (long) chunk << chunkBits;
        Unpacked scratch = new Unpacked();
        FormatCodec destination = converter.destination();
        for (long base = first; base < first + (1L << chunkBits); base += batch) {
            converter.applyConsecutive(base, in, out, 0, batch); // the speed of exhaustive certify
            for (int i = 0; i < batch; i++) {
                long y = out[i];
                boolean nan = canonicalNan >= 0 && (nanCodes != null ? nanCodes[(int) y] // NaNs.isNaN, looked up
                        : destination.unpack(y, scratch).kind == Decoded.Kind.NAN); // NaNs.isNaN without allocating
                if (nan) {
                    y = canonicalNan;
                }
                sum += mix((in[i] << 32) ^ y);
            }
        }
        return sum;
    }
}
