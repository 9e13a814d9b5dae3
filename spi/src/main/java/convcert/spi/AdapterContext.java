package convcert.spi;

import java.nio.file.Path;

/**
 * What the suite tells an adapter when it creates one: where things are, how long a batch may take,
 * and the formats of the profile under certification.
 */
public interface AdapterContext {

    /**
     * The convcert installation (or checkout), where its tables, vectors and helpers lie. Relative
     * paths in an adapter's options are the user's: the built-in adapters resolve them against the
     * folder convcert runs in, not against this.
     */
    Path home();

    /** The golden-vector folder of this run (a replaying adapter finds recorded inputs beside it). */
    Path vectors();

    /** How long one batch may take before the adapter should give up on its implementation. */
    long batchTimeoutMillis();

    /** The profile under certification: "opencl", "ascend-c", "cuda", "ocp-mx". */
    String profile();

    /** Element width in bits of a format of the profile, by name ("half" is 16, "fp4_e2m1" is 4). */
    int widthOf(String format);
}
