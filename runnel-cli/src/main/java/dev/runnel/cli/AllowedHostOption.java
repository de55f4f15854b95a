package dev.runnel.cli;

import dev.runnel.web.RunnelWeb;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The {@code --allowed-host} option of the commands that serve the dashboard. */
final class AllowedHostOption {
    @Option(names = "--allowed-host", paramLabel = "NAME",
            description = {"A name the dashboard also answers to, such as the name a reverse proxy in front is reached by."
                + " Requests naming any other Host are refused; localhost, the loopback addresses and the address"
                + " a request came in on are allowed always. Repeatable."})
    List<String> hosts = new ArrayList<>();

    /** Throws {@link IllegalArgumentException} naming the flag when a host is not a host name or address. */
    void check() {
        for (String host : hosts) {
            try {
                RunnelWeb.allowedHostName(host);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--allowed-host: " + e.getMessage());
            }
        }
    }

    /** {@code web} with these hosts allowed. */
    RunnelWeb.Builder apply(RunnelWeb.Builder web) {
        return web.allowedHost(hosts.toArray(String[]::new));
    }
}
