package convcert.spi;

import java.util.Map;

/**
 * A case's identity, typed by its kind: a conversion of one value, a block of a block-scaled format, or an
 * OpenCL memory function. It owns the case's one name (reports, --only, waivers: {@link CaseKey#name()}) and
 * its one path, where its vector files and a device's recordings lie below a vector set's root
 * ("cuda/float-half/rn-nosat", then ".in.bin", ".csv" ...). {@link #of(CaseKey)} is the one place a key's
 * state word is read back into a kind; adapters keep receiving the flat {@link CaseKey}.
 */
public sealed interface CaseId permits CaseId.Conversion, CaseId.Block, CaseId.Memory {

    String profile();

    /** The flat key the adapter protocol carries. */
    CaseKey key();

    /** The vector files' path below a set's root, without suffix: PROFILE/FROM-TO/ROUNDING-STATE. */
    String path();

    CaseKind kind();

    /** The case's name, as reports and selections show it. */
    default String name() {
        return key().name();
    }

    /** The identity a key names; a memory case's key is read back into its operation. */
    static CaseId of(CaseKey key) {
        switch (CaseKind.of(key.state())) {
            case BLOCK:
            case TENSOR:
                return new Block(key.profile(), key.from(), key.to(), key.rounding(), CaseKind.of(key.state()));
            case MEMORY:
                return new Memory(key.profile(), Memory.operation(key));
            default:
                return new Conversion(key.profile(), key.from(), key.to(), key.rounding(), key.state(), key.form(),
                        new CtrlState(key.ctrl()), key.variant());
        }
    }

    /**
     * One conversion case: the pair, the rounding suffix, the saturation state, and the API form and CTRL
     * setting of the variant that selects it (variant "" for the state's primary way).
     */
    record Conversion(String profile, String from, String to, String rounding, String state, String form,
                      CtrlState ctrl, String variant) implements CaseId {

        public Conversion {
            variant = variant == null ? "" : variant;
        }

        @Override
        public CaseKey key() {
            return new CaseKey(profile, from, to, rounding, state, form, ctrl.bits(), variant);
        }

        @Override
        public String path() {
            return profile + "/" + from + "-" + to + "/" + rounding + "-" + state;
        }

        @Override
        public CaseKind kind() {
            return CaseKind.CONVERSION;
        }
    }

    /**
     * A block case: values to blocks (FROM the value format, TO the block format) or back, state "block"; or
     * a whole tensor of blocks (TO a row of tensors.csv), state "tensor".
     */
    record Block(String profile, String from, String to, String rounding, CaseKind kind) implements CaseId {

        public Block {
            if (!kind.ofBlocks()) {
                throw new IllegalArgumentException("a block case is of kind block or tensor, not " + kind);
            }
        }

        @Override
        public CaseKey key() {
            return new CaseKey(profile, from, to, rounding, kind.state(), CaseKey.NO_FORM, Map.of());
        }

        @Override
        public String path() {
            return profile + "/" + from + "-" + to + "/" + rounding + "-" + kind.state();
        }
    }

    /**
     * An OpenCL memory or as_type case. Its key carries the scalar type as FROM, the function (with its
     * rounding suffix, or as_TYPE) as TO, and the vector width ("x4", or "4->2" for as_type) as the rounding.
     */
    record Memory(String profile, MemoryCase operation) implements CaseId {

        @Override
        public CaseKey key() {
            MemoryCase c = operation;
            String function = c.isAsType() ? "as_" + c.toType() : c.function() + (c.rounding().isEmpty() ? "" : "_" + c.rounding());
            String width = c.isAsType() && c.n() != c.toN() ? c.n() + "->" + c.toN() : "x" + c.n();
            return new CaseKey(profile, c.type(), function, width, CaseKind.MEMORY.state(), CaseKey.NO_FORM, Map.of());
        }

        @Override
        public String path() {
            return profile + "/" + CaseKind.MEMORY.state() + "/" + operation.name().replace(' ', '-');
        }

        @Override
        public CaseKind kind() {
            return CaseKind.MEMORY;
        }

        /** The operation a memory key names: key() read back. */
        static MemoryCase operation(CaseKey key) {
            String width = key.rounding();
            int arrow = width.indexOf("->");
            int n = Integer.parseInt(arrow < 0 ? width.substring(1) : width.substring(0, arrow));
            if (key.to().startsWith("as_")) {
                return MemoryCase.asType(key.from(), n, key.to().substring(3), 
                        arrow < 0 ? n : Integer.parseInt(width.substring(arrow + 2)));
            }
            int suffix = key.to().lastIndexOf("_rt");
            boolean rounded = suffix > 0 && key.to().length() == suffix + 4;
            return MemoryCase.of(rounded ? key.to().substring(0, suffix) : key.to(), key.from(), n,
                    rounded ? key.to().substring(suffix + 1) : "");
        }
    }
}
