package convcert.reference;

import java.util.ArrayList;
import java.util.List;

/** What a conversion did, collected only when explaining (Converter.explain). */
final class Trace {
    Decoded decoded;
    Integer quantum;
    long kept;
    boolean inexact;
    /** The discarded bits as Rounder's HALF | STICKY. */
    int guard;
    final List<String> notes = new ArrayList<>();

    void note(String text) {
        notes.add(text);
    }

    void rounding(int q, long keptPart, int guard) {
        quantum = q;
        kept = keptPart;
        inexact = guard != 0;
        this.guard = guard;
    }
}
