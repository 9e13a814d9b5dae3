package convcert.reference;

import convcert.spec.Format;
import convcert.spec.Layout;
import convcert.spec.Rounding;
import convcert.spec.SpecTables;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The options chosen for the decisions (decisions.csv) that change results, and their registry. Each decision
 * is declared once below: its option enum (its constants, lower case with '-' for '_', are the option names)
 * and one {@link Switch} line with its id and which tables need it. The table must list exactly those
 * options, so table and reference cannot drift apart; the default comes from the table.
 */
public final class Semantics {

    /** One selectable decision. needs: the tables that can reach it (else the row may be left out); null: every profile. */
    public record Switch<E extends Enum<E>>(int index, String id, Class<E> options, Predicate<SpecTables> needs) {

        public List<String> optionNames() {
            return Arrays.stream(options.getEnumConstants()).map(Semantics::optionName).toList();
        }
    }

    private static final List<Switch<?>> REGISTRY = new ArrayList<>();

    private static <E extends Enum<E>> Switch<E> declare(String id, Class<E> options, Predicate<SpecTables> needs) {
        Switch<E> s = new Switch<>(REGISTRY.size(), id, options, needs);
        REGISTRY.add(s);
        return s;
    }

    /** Non-saturating overflow under rz, rd, ru: 7.4's infinity beyond the largest finite, or where rounded beyond (LLVM). */
    public enum DirectedOverflow { LARGEST_FINITE, INFINITY, ROUNDED_BEYOND }

    public static final Switch<DirectedOverflow> DIRECTED_OVERFLOW = declare("directed-overflow", DirectedOverflow.class,
            t -> ProfileNeeds.offers(t, Rounding.RZ) || ProfileNeeds.offers(t, Rounding.RU) || ProfileNeeds.offers(t, Rounding.RD));

    /** Non-saturating overflow under ro. */
    public enum OddOverflow { LARGEST_FINITE, INFINITY }

    public static final Switch<OddOverflow> ODD_OVERFLOW = declare("odd-overflow", OddOverflow.class,
            t -> ProfileNeeds.offers(t, Rounding.RO));

    /** The NaN a conversion produces. */
    public enum NanEncoding { PRESERVE, CANONICAL }

    public static final Switch<NanEncoding> NAN_ENCODING = declare("nan-encoding", NanEncoding.class, null);

    /** HiFloat8 hybrid rounding between TA's overflow threshold and the next binade. */
    public enum HybridBand { PSEUDO_CODE, TA_THRESHOLD }

    public static final Switch<HybridBand> HYBRID_BAND = declare("hr-band", HybridBand.class, t -> ProfileNeeds.has(t, Layout.TAPERED));

    /** HiFloat8 hybrid rounding of exactly representable inputs. */
    public enum HybridExact { ROUND_UP, KEEP }

    public static final Switch<HybridExact> HYBRID_EXACT = declare("hr-exact", HybridExact.class, t -> ProfileNeeds.has(t, Layout.TAPERED));

    /** Subnormal floating results. */
    public enum SubnormalResults { KEEP, FLUSH }

    public static final Switch<SubnormalResults> SUBNORMAL_RESULTS = declare("subnormal-results", SubnormalResults.class, null);

    /** How certification compares NaN results: the suite's rule (convcert.suite.runner.Comparison); results do not change. */
    public enum NanComparison { ANY, EXACT }

    public static final Switch<NanComparison> NAN_COMPARISON = declare("nan-comparison", NanComparison.class, null);

    /** What a NaN input becomes in a format with no NaN (OCP FP4, FP6): +max, +0, or max with the NaN's sign. */
    public enum FiniteNan { LARGEST_POSITIVE, ZERO, LARGEST_SIGNED }

    public static final Switch<FiniteNan> FINITE_NAN = declare("finite-nan", FiniteNan.class, ProfileNeeds::finiteOnlyResults);

    /** A negative input converted to an unsigned floating format (OCP E8M0): its magnitude, or NaN. */
    public enum UnsignedNegative { ABSOLUTE, NAN }

    public static final Switch<UnsignedNegative> UNSIGNED_NEGATIVE = declare("unsigned-negative", UnsignedNegative.class,
            t -> ProfileNeeds.produces(t, Layout.EXPONENT));

    /**
     * A negative value converted to an unsigned IEEE P3109 format: below its range [0, max] (the draft's
     * Saturate table of July 2026: rounded first, a nonzero result gives 0 under SatFinite and
     * SatPropagate and, under SatNone, 0 in rz and ru and NaN otherwise), or 0 whatever the projection
     * (the interim reading awf/p3109-cpp implements).
     */
    public enum P3109UnsignedNegative { BELOW_RANGE, ZERO }

    public static final Switch<P3109UnsignedNegative> P3109_UNSIGNED_NEGATIVE = declare("p3109-unsigned-negative",
            P3109UnsignedNegative.class, t -> ProfileNeeds.has(t, Layout.P3109_UNSIGNED));

    /** A negative value into an ieee-fnu format (UE5M3): 0 (saturated to its range), NaN, or its magnitude's result. */
    public enum FnuNegative { ZERO, NAN, ABSOLUTE }

    public static final Switch<FnuNegative> FNU_NEGATIVE = declare("fnu-negative", FnuNegative.class,
            t -> ProfileNeeds.has(t, Layout.IEEE_FNU));

    /** The most negative fixed-point element (OCP MX INT8): -max (microxcaling), or two's complement -2^(width-1) (gfloat). */
    public enum FixedMinimum { SYMMETRIC, TWOS_COMPLEMENT }

    public static final Switch<FixedMinimum> FIXED_MINIMUM = declare("fixed-minimum", FixedMinimum.class,
            t -> ProfileNeeds.has(t, Layout.FIXED));

    /** A zero converted to an exponent-only format (OCP E8M0), which has no zero: its smallest value, or NaN. */
    public enum ExponentZero { SMALLEST, NAN }

    public static final Switch<ExponentZero> EXPONENT_ZERO = declare("exponent-zero", ExponentZero.class,
            t -> ProfileNeeds.produces(t, Layout.EXPONENT));

    /**
     * How a block's shared scale follows from its largest magnitude amax: floor(log2 amax) - emax of the
     * element (OCP MX v1.0 6.3); the same after rounding amax to the element's mantissa width (ties up);
     * ceil(log2 amax) - emax; or the smallest power of two not below amax / largest element.
     */
    public enum MxScale { FLOOR, EVEN, CEIL, RCEIL }

    public static final Switch<MxScale> MX_SCALE = declare("mx-scale", MxScale.class,
            t -> t.blocks().values().stream().anyMatch(b -> b.scaled() && !b.twoLevel()));

    /** What a NaN element does to its block: the scale becomes NaN, or the maximum ignores it. */
    public enum MxNan { NAN_SCALE, IGNORE_NAN }

    public static final Switch<MxNan> MX_NAN = declare("mx-nan", MxNan.class, ProfileNeeds::scaledBlocks);

    /**
     * An rn tie of a format without mantissa bits (OCP E8M0, P3109's P = 1 formats: 1.5 x 2^e between 2^e
     * and 2^(e+1)), and ro there: the significand's last bit (always 1: a tie goes to the larger power of
     * two, ro never moves), or the code's (to the neighbour whose code is even; ro moves an inexact value
     * whose code is even).
     */
    public enum ExponentTies { UP, EVEN_CODE }

    public static final Switch<ExponentTies> EXPONENT_TIES = declare("exponent-ties", ExponentTies.class,
            t -> t.conversions().stream().anyMatch(c -> oneDigit(c.to())
                    && (c.modes().contains(Rounding.RN) || c.modes().contains(Rounding.RO))));

    /** A floating format whose every significand is 1: no mantissa bits (E8M0, P3109's P = 1). */
    static boolean oneDigit(Format f) {
        return f.layout() == Layout.EXPONENT
                || (f.layout() == Layout.P3109_SIGNED || f.layout() == Layout.P3109_UNSIGNED) && f.mantissaBits() == 0;
    }

    /**
     * An infinite input under saturation: the largest finite value of its sign (what every profile but rocm reads), or
     * left alone, converted as without saturation (HIP's __HIP_SATFINITE clamps finite values only: infinity, or NaN
     * where the format has none). Optional: a profile without the row keeps the first option.
     */
    public enum SatInfinity { LARGEST_FINITE, PROPAGATE }

    public static final Switch<SatInfinity> SAT_INFINITY = declare("sat-infinity", SatInfinity.class, t -> false);

    /** vstorea_half3's padding half: any value (OpenCL C: implementation-defined), or untouched (OpenCL 1.2 pages). Optional. */
    public enum Half3Padding { ANY, UNTOUCHED }

    public static final Switch<Half3Padding> HALF3_PADDING = declare("aligned-half3-padding", Half3Padding.class, t -> false);

    /** An infinite value of a block: the scale becomes NaN, or the largest scale with the infinity saturated. */
    public enum MxInfinity { NAN_SCALE, LARGEST_SCALE }

    public static final Switch<MxInfinity> MX_INFINITY = declare("mx-infinity", MxInfinity.class, ProfileNeeds::scaledBlocks);

    /** The binary32 steps of a two-level (NVFP4) recipe: decisions.csv's tensor-scale-arithmetic row says each option's. */
    public enum TensorScaleArithmetic { DIVIDE, RECIPROCAL, DIVIDE_CONSTANT_RECIPROCAL, RECIPROCAL_AMAX, DIVIDE_MULTIPLY,
        RECIPROCAL_DIVIDE_FIRST }

    public static final Switch<TensorScaleArithmetic> TENSOR_SCALE_ARITHMETIC = declare("tensor-scale-arithmetic",
            TensorScaleArithmetic.class, ProfileNeeds::twoLevelBlocks);

    /** How a two-level recipe's block scale s rounds into its format: nearest even (torchao, TE), or up (cuDNN). */
    public enum BlockScaleRounding { RN, RU }

    public static final Switch<BlockScaleRounding> BLOCK_SCALE_ROUNDING = declare("block-scale-rounding",
            BlockScaleRounding.class, ProfileNeeds::twoLevelBlocks);

    /** The least block scale of a two-level recipe: s clamped below to the scale's smallest normal (torchao), or none. */
    public enum BlockScaleMinimum { SMALLEST_NORMAL, NONE }

    public static final Switch<BlockScaleMinimum> BLOCK_SCALE_MINIMUM = declare("block-scale-minimum",
            BlockScaleMinimum.class, ProfileNeeds::twoLevelBlocks);

    /** A block scale code with its sign bit set, dequantized: the sign ignored (cuBLAS's UE4M3), or applied. */
    public enum BlockScaleSign { IGNORE, SIGNED }

    public static final Switch<BlockScaleSign> BLOCK_SCALE_SIGN = declare("block-scale-sign", BlockScaleSign.class,
            ProfileNeeds::twoLevelBlocks);

    /** A two-level block's scale: from its maximum over the largest element, or 4over6's choice of that or 1.5 times it. */
    public enum BlockScaleChoice { SIX, FOUR_OVER_SIX_MAE, FOUR_OVER_SIX_MSE }

    public static final Switch<BlockScaleChoice> BLOCK_SCALE_CHOICE = declare("block-scale-choice", BlockScaleChoice.class,
            ProfileNeeds::twoLevelBlocks);

    /** M of a two-level recipe: the largest scale times the largest element (448 x 6), or 256 x 6 (4over6's headroom). */
    public enum TensorScaleMaximum { LARGEST_SCALE, SCALE_256 }

    public static final Switch<TensorScaleMaximum> TENSOR_SCALE_MAXIMUM = declare("tensor-scale-maximum", TensorScaleMaximum.class,
            ProfileNeeds::twoLevelBlocks);

    /** G of a reciprocal recipe where A = 0: 1 (TransformerEngine's kernels), or min(M / 0, FLT_MAX) (its PyTorch reference). */
    public enum ZeroAmax { UNIT_SCALE, LARGEST_FINITE }

    public static final Switch<ZeroAmax> ZERO_AMAX = declare("zero-amax", ZeroAmax.class, ProfileNeeds::twoLevelBlocks);

    /** A two-level element whose scaled value is -0: -0 (PTX cvt), or +0 (TransformerEngine's PyTorch reference cast_to_fp4x2). */
    public enum ElementZeroSign { KEEP, POSITIVE }

    public static final Switch<ElementZeroSign> ELEMENT_ZERO_SIGN = declare("element-zero-sign", ElementZeroSign.class,
            ProfileNeeds::twoLevelBlocks);

    /** The nibble of the first of two packed elements: low (CUDA's fp4x2, PyTorch's float4_e2m1fn_x2) or high; bytes only. */
    public enum NibbleOrder { LOW_FIRST, HIGH_FIRST }

    public static final Switch<NibbleOrder> NIBBLE_ORDER = declare("nibble-order", NibbleOrder.class,
            t -> t.blocks().values().stream().anyMatch(b -> b.packed()));

    /** A tensor's swizzled scale layout's padding slots: the zero code (torchao's to_blocked), or any value (not judged). */
    public enum ScalePadding { ZERO, ANY }

    public static final Switch<ScalePadding> SCALE_PADDING = declare("scale-padding", ScalePadding.class, ProfileNeeds::paddedScales);

    /** A NaN in a two-level tensor, for its amax A: left out (a NaN is its block's, by mx-nan), or A is NaN (torch.amax). */
    public enum TensorAmaxNan { IGNORE, PROPAGATE }

    public static final Switch<TensorAmaxNan> TENSOR_AMAX_NAN = declare("tensor-amax-nan", TensorAmaxNan.class,
            ProfileNeeds::twoLevelTensors);

    /** A rotated tensor's signs D: on its values before the Hadamard matrix (x D H), after it (x H D), or none (x H). */
    public enum RotationSigns { INPUTS, OUTPUTS, NONE }

    public static final Switch<RotationSigns> ROTATION_SIGNS = declare("rotation-signs", RotationSigns.class, ProfileNeeds::rotatedTensors);

    /** When a result is tiny, for the underflow flag: rounded to the precision with an unbounded exponent, or before. */
    public enum Tininess { AFTER_ROUNDING, BEFORE_ROUNDING }

    public static final Switch<Tininess> TININESS = declare("tininess", Tininess.class, SpecTables::hasFlags);

    /** Whether a tiny result raises underflow only when it is also inexact (IEEE 754's default) or always. */
    public enum UnderflowFlag { WHEN_INEXACT, WHEN_TINY }

    public static final Switch<UnderflowFlag> UNDERFLOW_FLAG = declare("underflow-flag", UnderflowFlag.class, SpecTables::hasFlags);

    /** Overflow: the rounding with an unbounded exponent exceeds the largest value (IEEE 754 7.4), or the value does (F16C). */
    public enum OverflowFlag { AFTER_ROUNDING, BEFORE_ROUNDING }

    public static final Switch<OverflowFlag> OVERFLOW_FLAG = declare("overflow-flag", OverflowFlag.class, SpecTables::hasFlags);

    /**
     * The flags an infinite input raises converted to a format without infinity (OCP E4M3): none (IEEE 754; RISC-V
     * Zvfofp8min), overflow and inexact (Arm FEAT_FP8's reading), or invalid (the result is not the input's value).
     */
    public enum InfiniteInputFlags { NONE, OVERFLOW_INEXACT, INVALID }

    public static final Switch<InfiniteInputFlags> INFINITE_INPUT_FLAGS = declare("infinite-input-flags",
            InfiniteInputFlags.class, t -> t.hasFlags() && t.conversions().stream()
                    .anyMatch(c -> !c.to().isInteger() && c.to().inf() == null));

    /**
     * How stochastic rounding (rs) uses a value's N random bits R, with f the discarded fraction of its
     * last kept unit (IEEE P3109 draft's three): A, up iff floor(f 2^N) + R >= 2^N (the random bits
     * added to the N discarded bits below the kept ones, the rest dropped: PTX cvt.rs's "carry out");
     * B, up iff floor(f 2^(N+1)) + 2R + 1 >= 2^(N+1) (half a unit of R's last bit added: no bias); C, up
     * iff roundTiesToEven(f 2^N) + R >= 2^N.
     */
    public enum StochasticRounding { STOCHASTIC_A, STOCHASTIC_B, STOCHASTIC_C }

    public static final Switch<StochasticRounding> STOCHASTIC_ROUNDING = declare("stochastic-rounding", StochasticRounding.class,
            t -> ProfileNeeds.offers(t, Rounding.RS));

    /** The sign of a canonical NaN: positive (Arm's default NaN with FPCR.AH=0), or negative (AH=1). Optional. */
    public enum DefaultNanSign { POSITIVE, NEGATIVE }

    public static final Switch<DefaultNanSign> DEFAULT_NAN_SIGN = declare("default-nan-sign", DefaultNanSign.class, t -> false);

    /**
     * A non-saturating overflow into a format whose one non-finite value is NaN (OCP E4M3): the NaN nan-encoding gives,
     * or the NaN with the sign of the overflowing value (Arm FEAT_FP8 with FPMR.OSC=0: "with the sign of the result",
     * while NaN inputs give the default NaN). Optional: a profile without the row keeps the first option.
     */
    public enum OverflowNan { ENCODED, SIGNED }

    public static final Switch<OverflowNan> OVERFLOW_NAN = declare("overflow-nan", OverflowNan.class, t -> false);

    /**
     * Whether an OFP8 E5M2 NaN whose quiet bit (the fraction's first) is clear is signaling, raising invalid when converted
     * (ieee, as in the wider IEEE formats), or quiet like every other OFP8 NaN (RISC-V Zvfofp8min: converting OFP8 to BF16,
     * "no floating-point exception flags are set"; QEMU's ocp_fp8e5m2_no_signal_nan). Optional: the first by default.
     */
    public enum E5m2SignalingNan { IEEE, QUIET }

    public static final Switch<E5m2SignalingNan> E5M2_SIGNALING_NAN = declare("e5m2-signaling-nan", E5m2SignalingNan.class, t -> false);

    /**
     * Conversions to E4M3FNUZ (AMD's, max 240): as the API converts (none), or with the value first clamped to +-224,
     * OCP E4M3's range shared with 448 / 2 (vLLM, SGLang: torch.clamp(x, -224, 224) before the cast, so that FNUZ and
     * OCP checkpoints scale alike): beyond 224 and infinity give +-224, NaN stays NaN. Optional: none by default.
     */
    public enum FnuzClamp { NONE, CLAMP_224 }

    public static final Switch<FnuzClamp> FNUZ_CLAMP = declare("e4m3fnuz-clamp", FnuzClamp.class, t -> false);

    /** How an 8-bit scale lane with a NaN code reads: a signed exponent, -128 NaN (HIP's int8_t __amd_scale_t), or OCP E8M0. */
    public enum ScaleEncoding { INT8_EXPONENT, E8M0 }

    public static final Switch<ScaleEncoding> SCALE_ENCODING = declare("scale-encoding", ScaleEncoding.class,
            t -> t.conversions().stream().anyMatch(c -> c.scale() != null && c.scale().hasNan() && c.scale().bits() == 8));

    /** Every selectable decision, in declaration order (the order choices() and reports list them). */
    public static List<Switch<?>> switches() {
        return List.copyOf(REGISTRY);
    }

    /** The decision with this id, or null. */
    public static Switch<?> find(String id) {
        return REGISTRY.stream().filter(s -> s.id().equals(id)).findFirst().orElse(null);
    }

    public static String optionName(Enum<?> option) {
        return option.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private final Enum<?>[] chosen;
    private final Set<String> listed;

    private Semantics(Enum<?>[] chosen, Set<String> listed) {
        this.chosen = chosen;
        this.listed = listed;
    }

    /** The option chosen for a decision. */
    public <E extends Enum<E>> E get(Switch<E> decision) {
        return decision.options().cast(chosen[decision.index()]);
    }

    /** Checks that decisions.csv lists exactly the options the reference implements (DecisionTableCheck). */
    public static void checkTable(SpecTables tables) {
        DecisionTableCheck.check(tables, REGISTRY);
    }

    /** The table defaults, with the given overrides (decision id -> option name). */
    public static Semantics of(SpecTables tables, Map<String, String> overrides) {
        checkTable(tables);
        Set<String> listed = new LinkedHashSet<>();
        REGISTRY.stream().map(Switch::id).filter(id -> tables.decisions().containsKey(id)).forEach(listed::add);
        return new Semantics(DecisionChoices.choose(tables, REGISTRY, listed, overrides), Set.copyOf(listed));
    }

    public static Semantics defaults(SpecTables tables) {
        return of(tables, Map.of());
    }

    /** The choices as decision=option pairs, in declaration order, for the decisions the profile lists. */
    public Map<String, String> choices() {
        Map<String, String> map = new LinkedHashMap<>();
        for (Switch<?> s : REGISTRY) {
            if (listed.contains(s.id())) {
                map.put(s.id(), optionName(chosen[s.index()]));
            }
        }
        return map;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Semantics s && Arrays.equals(chosen, s.chosen) && listed.equals(s.listed);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(chosen) * 31 + listed.hashCode();
    }

    @Override
    public String toString() {
        return choices().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }
}
