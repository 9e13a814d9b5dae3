package convcert.suite.adapters;

import convcert.spi.AdapterException;

/** The device started but did not complete the handshake: reported per case, not as a usage error. */
final class DeviceDidNotStart extends AdapterException {

    DeviceDidNotStart(String message) {
        super(message);
    }
}
