package convcert.spec;

/**
 * What one case of a block format converts at once: one block (a row of blocks.csv), or a whole tensor of
 * such blocks (a row of tensors.csv, its {@link TensorShape}). Code that treats them apart switches on it.
 */
public sealed interface BlockExtent permits BlockExtent.OneBlock, TensorShape {

    /** One block of size values. */
    record OneBlock() implements BlockExtent {
    }

    BlockExtent ONE_BLOCK = new OneBlock();
}
