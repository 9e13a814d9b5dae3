package convcert.reference;

/** One block's conversion (or one tensor's): in[inOffset..) its inputs, out[outOffset..) its outputs. */
@FunctionalInterface
public interface BlockFunction {

    void apply(long[] in, int inOffset, long[] out, int outOffset);
}
