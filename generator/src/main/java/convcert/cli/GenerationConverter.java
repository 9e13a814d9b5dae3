package convcert.cli;

import convcert.rtl.ReferenceModel;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** --generation auto|datapath|steps, in lower case as the help writes it. */
public final class GenerationConverter implements ITypeConverter<ReferenceModel.Generation> {

    @Override
    public ReferenceModel.Generation convert(String value) {
        try {
            return ReferenceModel.Generation.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException("'" + value + "' is not one of auto, datapath, steps");
        }
    }
}
