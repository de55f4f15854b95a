package dev.runnel.driver;

import java.util.List;

/**
 * The rescuer has taken every running job of {@code clientIds}: mark those still expired at the
 * lease's time as rescued, so that they are not listed again unless they heartbeat and die again.
 * Internal SPI.
 */
public record ClientRescuedParams(Lease lease, List<String> clientIds) {
    public ClientRescuedParams {
        clientIds = List.copyOf(clientIds);
    }
}
