package convcert.suite.runner;

import java.security.SecureRandom;
import java.util.SplittableRandom;

/**
 * The order a batch's elements go to the implementation in: rotated by a secret amount, other than the
 * last batch of the same size's, so that an answer copied from the batch before (another variant's, with
 * the same inputs, or the other slot's) is wrong wherever the expected values differ. Runners put each
 * answer back in its element's place.
 */
final class Order {

    private final SplittableRandom random = new SplittableRandom(new SecureRandom().nextLong());
    private int lastSize = -1;
    private int lastRotation = -1;

    /** The rotation of the next batch of size elements: element k of the call is element (k + r) mod size. */
    int next(int size) {
        int not = size == lastSize ? lastRotation : -1;
        int r = size < 2 ? 0 : random.nextInt(size - (not >= 0 ? 1 : 0));
        lastRotation = not >= 0 && r >= not ? r + 1 : r;
        lastSize = size;
        return lastRotation;
    }
}
