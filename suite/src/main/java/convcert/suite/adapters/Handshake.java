package convcert.suite.adapters;

import convcert.spi.AdapterException;
import convcert.spi.Capability;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a process device says before READY (suite/ADAPTERS.md, the process protocol): its CAP and MEM
 * lines, and the optional ALIGNMENT checked, FLAGS (answers end with a flags byte per element),
 * RANDOM (stochastic batches carry each element's random bits), SCALE (scaled batches carry each
 * element's scale), SHARED (value batches may travel in shared memory: suite/ADAPTERS.md, "Shared
 * memory") and SATURATION told (the device takes the effective saturation state and programs no API form
 * or CTRL bits itself, so each state runs once) lines.
 */
record Handshake(List<Capability> capabilities, List<String> memory, boolean checksAlignment, boolean flags,
                 boolean random, boolean scale, boolean shared, boolean saturationTold) {

    static final Handshake NONE = new Handshake(List.of(), List.of(), false, false, false, false, false, false);

    /** A handshake line convcert cannot accept, or the device's own ERR: the device did not start. */
    static final class Refused extends Exception {
        Refused(String message) {
            super(message);
        }
    }

    static Handshake read(DeviceProcess device) throws IOException, AdapterException, Refused {
        List<Capability> caps = new ArrayList<>();
        List<String> memory = new ArrayList<>();
        boolean alignment = false;
        boolean flags = false;
        boolean random = false;
        boolean scale = false;
        boolean shared = false;
        boolean told = false;
        for (String line = device.readLine(); !line.equals("READY"); line = device.readLine()) {
            switch (line) {
                case "ALIGNMENT checked" -> alignment = true;
                case "FLAGS" -> flags = true;
                case "RANDOM" -> random = true;
                case "SCALE" -> scale = true;
                case "SHARED" -> shared = true;
                case "SATURATION told" -> told = true;
                default -> {
                    if (line.startsWith("MEM ")) {
                        memory.add(line.substring(4).strip());
                    } else if (line.startsWith("ERR ")) {
                        throw new Refused(DeviceProcess.printable(line.substring(4)));
                    } else if (!line.startsWith("CAP ")) {
                        throw new Refused("handshake: expected 'CAP FROM TO ROUNDING STATE', 'MEM CASE', 'ALIGNMENT "
                                + "checked', 'FLAGS', 'RANDOM', 'SCALE', 'SHARED', 'SATURATION told' or 'READY', got '"
                                        + DeviceProcess.printable(line) + "'");
                    } else {
                        try {
                            caps.add(Capability.parse(line.substring(4)));
                        } catch (IllegalArgumentException e) {
                            throw new Refused("handshake: " + e.getMessage());
                        }
                    }
                }
            }
        }
        return new Handshake(List.copyOf(caps), List.copyOf(memory), alignment, flags, random, scale, shared, told);
    }
}
