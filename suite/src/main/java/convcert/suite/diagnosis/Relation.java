package convcert.suite.diagnosis;

import convcert.reference.Decoded;
import convcert.reference.FormatCodec;

/**
 * How a wrong result relates to the expected one, in a few words a person would use: the class of each
 * (zero, subnormal, normal, the largest finite, infinity, NaN) and, between two numbers, how many codes apart
 * and which way ("one step away from zero"). A relation is a small int key, so that counting every mismatch of
 * an exhaustive case costs an increment; {@link #text} spells it.
 */
public final class Relation {

    /** A result's class. */
    enum Class {
        ZERO("zero"), SUBNORMAL("a subnormal"), NORMAL("a normal number"), LARGEST("the largest finite"),
        INFINITY("infinity"), NAN("NaN"), BEYOND("bits beyond the format's width"), UNWRITTEN("no result (left unwritten)");

        final String words;

        Class(String words) {
            this.words = words;
        }
    }

    /** Which way a wrong number lies from the expected one. */
    enum Way {
        NONE(""), TOWARD_ZERO("toward zero"), AWAY_FROM_ZERO("away from zero"), SIGN("with the other sign");

        final String words;

        Way(String words) {
            this.words = words;
        }
    }

    private static final String[] STEPS = {"", "one step", "2 to 16 steps", "more than 16 steps"};
    private static final int CLASSES = Class.values().length;
    private static final int WAYS = Way.values().length;

    /** How many keys there are: an array of counts indexed by key holds every relation. */
    public static final int KEYS = CLASSES * CLASSES * WAYS * STEPS.length;

    private Relation() {
    }

    /** The relation of actual to expected, both results of the destination's format; unwritten: the runner's poison. */
    public static int of(FormatCodec dst, long expected, long actual, long unwritten) {
        Class e = classOf(dst, expected, unwritten);
        Class a = classOf(dst, actual, unwritten);
        Way way = Way.NONE;
        int steps = 0;
        if (number(e) && number(a)) {
            long re = dst.rank(expected);
            long ra = dst.rank(actual);
            boolean flipped = re != 0 && ra != 0 && (re < 0) != (ra < 0);
            way = flipped ? Way.SIGN : Math.abs(ra) < Math.abs(re) ? Way.TOWARD_ZERO : Way.AWAY_FROM_ZERO;
            long d = flipped ? Math.abs(Math.abs(ra) - Math.abs(re)) : Math.abs(ra - re);
            steps = flipped ? (d == 0 ? 0 : bucket(d)) : bucket(d);
            if (re == ra) { // +0 and -0, or a largest finite of the other sign
                way = Way.SIGN;
                steps = 0;
            }
        }
        return ((e.ordinal() * CLASSES + a.ordinal()) * WAYS + way.ordinal()) * STEPS.length + steps;
    }

    /** The words of a key: "expected the largest finite, got NaN", "one step away from zero (normal results)". */
    public static String text(int key) {
        int steps = key % STEPS.length;
        Way way = Way.values()[key / STEPS.length % WAYS];
        Class a = Class.values()[key / (STEPS.length * WAYS) % CLASSES];
        Class e = Class.values()[key / (STEPS.length * WAYS * CLASSES)];
        String how = way == Way.SIGN ? (steps == 0 ? "the same magnitude with the other sign" : "the other sign, "
                + STEPS[steps] + " apart in magnitude") : (STEPS[steps] + " " + way.words).trim();
        if (e == a && number(e)) {
            return how + " (" + plural(e) + ")";
        }
        return "expected " + e.words + ", got " + a.words + (how.isEmpty() ? "" : " (" + how + ")");
    }

    private static String plural(Class c) {
        return switch (c) {
            case ZERO -> "zeros";
            case SUBNORMAL -> "subnormal results";
            case NORMAL -> "normal results";
            case LARGEST -> "the largest finite values";
            default -> c.words;
        };
    }

    private static boolean number(Class c) {
        return c == Class.ZERO || c == Class.SUBNORMAL || c == Class.NORMAL || c == Class.LARGEST;
    }

    private static int bucket(long d) {
        return d == 1 ? 1 : d <= 16 ? 2 : 3;
    }

    /** The class of a result. */
    static Class classOf(FormatCodec dst, long bits, long unwritten) {
        if (bits == unwritten) {
            return Class.UNWRITTEN;
        }
        if ((bits & ~dst.mask()) != 0) {
            return Class.BEYOND;
        }
        Decoded d = dst.decode(bits);
        return switch (d.kind()) {
            case ZERO -> Class.ZERO;
            case INFINITE -> Class.INFINITY;
            case NAN -> Class.NAN;
            case FINITE -> {
                if (dst.isInteger()) {
                    yield bits == dst.integerMax() || bits == dst.integerMin() ? Class.LARGEST : Class.NORMAL;
                }
                yield bits == dst.largestFinite(d.negative()) ? Class.LARGEST
                        : d.binade() < dst.minExponent() ? Class.SUBNORMAL : Class.NORMAL;
            }
        };
    }
}
