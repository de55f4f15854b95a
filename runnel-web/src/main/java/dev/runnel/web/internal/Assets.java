package dev.runnel.web.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The static files: htmx and uPlot (unpacked from their webjars at build time into this package)
 * and the dashboard's own stylesheet and script. Only the names listed are served.
 */
final class Assets {
    private static final Map<String, String> TYPES = Map.of(
            "htmx.min.js", "text/javascript; charset=utf-8",
            "uPlot.iife.min.js", "text/javascript; charset=utf-8",
            "uPlot.min.css", "text/css; charset=utf-8",
            "app.css", "text/css; charset=utf-8",
            "app.js", "text/javascript; charset=utf-8");

    record Asset(String type, byte[] bytes) {}

    private final Map<String, Asset> cache = new ConcurrentHashMap<>();

    Optional<Asset> get(String name) {
        String type = TYPES.get(name);
        if (type == null) {
            return Optional.empty();
        }
        return Optional.of(cache.computeIfAbsent(name, n -> new Asset(type, load(n))));
    }

    private static byte[] load(String name) {
        try (InputStream in = Assets.class.getResourceAsStream("assets/" + name)) {
            if (in == null) {
                throw new IllegalStateException("asset " + name + " is missing from the build");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read asset " + name, e);
        }
    }
}
