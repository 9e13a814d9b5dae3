package convcert.spi;

/**
 * Block-scaled formats (spec-tables/PROFILE/blocks.csv, the OCP MX formats): an adapter that converts
 * whole blocks implements this beside ConverterAdapter and lists the cases among its capabilities
 * with state "block" ("float mxfp4_e2m1 rn block"). A case converts count blocks: values -> block
 * (float->mxfp4_e2m1) takes size values per block and gives the scale, then size elements;
 * block -> values (mxfp4_e2m1->float) takes the scale and size elements and gives size values. Each
 * value is a bit pattern in the low bits of a long, as everywhere.
 */
public interface BlockOperations {

    /** Converts blocks[0..count) of the case: inputs and outputs hold count blocks of the case's layouts. */
    void convertBlocks(CaseKey c, long[] inputs, long[] outputs, int count) throws AdapterException;
}
