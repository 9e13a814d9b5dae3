package convcert.vectors;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Cases a profile adds to a vector set beside its conversions (the OpenCL memory functions, the
 * block-scaled formats): it writes their files under out and returns their manifest entries. The generator
 * knows no extension by name; the command line hands it the profile's.
 */
public interface ExtensionCases {

    List<Manifest.Entry> write(Path out, Level level, long seed, Set<VectorFormat> formats) throws IOException;
}
