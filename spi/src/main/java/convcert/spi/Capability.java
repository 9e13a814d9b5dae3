package convcert.spi;

/**
 * One line of what an adapter implements: pair, rounding and saturation state, each a name or
 * "*" for any. An adapter's capabilities are a list of these; a case it does not match is reported as
 * not applicable, never as a pass.
 */
public record Capability(String from, String to, String rounding, String state) {

    public boolean matches(CaseKey c) {
        return match(from, c.from()) && match(to, c.to()) && match(rounding, c.rounding()) && match(state, c.state());
    }

    private static boolean match(String pattern, String value) {
        return pattern.equals("*") || pattern.equals(value);
    }

    /** Parses "from to rounding state" (whitespace separated). */
    public static Capability parse(String line) {
        String[] f = line.strip().split("\\s+");
        if (f.length != 4) {
            throw new IllegalArgumentException("a capability is 'FROM TO ROUNDING STATE', got '" + line.strip() + "'");
        }
        return new Capability(f[0], f[1], f[2], f[3]);
    }

    @Override
    public String toString() {
        return from + " " + to + " " + rounding + " " + state;
    }
}
