package convcert.spec;

import java.util.Locale;

/** The API form of a conversion: without _sat, with _sat, or an implicit C++ conversion (Table 1). */
public enum Form {
    NOSAT, SAT, IMPLICIT;

    public String tableName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Form parse(String name) {
        return Labels.find(values(), Form::tableName, name);
    }
}
