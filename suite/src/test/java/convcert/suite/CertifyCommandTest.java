package convcert.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/** certify's own rules beside the run: the default report folder of an implementation. */
class CertifyCommandTest {

    /** Two implementations of one adapter kind never share a default report folder. */
    @Test
    void theDefaultReportFolderIsNamedAfterTheImplementation() {
        assertEquals("jdk", CertifyCommand.defaultFolder("jdk"));
        assertEquals("native-build-libconv", CertifyCommand.defaultFolder("native:lib=/home/me/build/libconv.so"));
        String mlDtypes = CertifyCommand.defaultFolder("process:cmd=python3 suite/devices/ml-dtypes/dut.py");
        String numpy = CertifyCommand.defaultFolder("process:cmd=python3 suite/devices/example-python/dut.py");
        assertEquals("process-ml-dtypes-dut", mlDtypes);
        assertFalse(mlDtypes.equals(numpy), numpy);
        assertEquals("process-bin-dut", CertifyCommand.defaultFolder("process:cmd=/tmp/bin/dut --fault truncate"));
        assertEquals("replay-nvidia-h200-recording", CertifyCommand.defaultFolder("replay:dir=reports/devices/nvidia-h200/recording"));
    }
}
