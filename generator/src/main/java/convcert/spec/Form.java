package convcert.spec;

import convcert.common.Suggest;
import convcert.common.UsageException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The API form of a conversion: without _sat, with _sat, an implicit C++ conversion (Table 1), or one of
 * IEEE P3109's saturation modes (a projection's second half).
 */
public enum Form {
    NOSAT, SAT, IMPLICIT, SATFINITE, SATPROPAGATE, SATNONE;

    /** The forms a request names explicitly (all but implicit), in the order a case's default and states try them. */
    public static final List<Form> EXPLICIT = List.of(NOSAT, SAT, SATFINITE, SATPROPAGATE, SATNONE);

    /** Whether the form is one of P3109's saturation modes (a case's state is named after it). */
    public boolean projection() {
        return this == SATFINITE || this == SATPROPAGATE || this == SATNONE;
    }

    public String tableName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The suffix an API name takes for the form: "" without saturation, "_sat", "_satfinite", ... */
    public String apiSuffix() {
        return this == NOSAT || this == IMPLICIT ? "" : "_" + tableName();
    }

    /** The forms as a list for messages: "nosat sat ...". */
    public static String known() {
        return Arrays.stream(values()).map(Form::tableName).collect(Collectors.joining(" "));
    }

    /** The form a name names; an unknown one is a usage error naming the nearest and the known ones. */
    public static Form named(String name) {
        Form form = parse(name);
        if (form == null) {
            throw new UsageException("unknown saturation form '" + name + "'" + Suggest.nearest(name, List.of(known().split(" ")))
                    + "; forms: " + known());
        }
        return form;
    }

    public static Form parse(String name) {
        return Labels.find(values(), Form::tableName, name);
    }
}
