package dev.runnel.driver;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Loads numbered migrations: an {@code index.txt} naming each migration ({@code 001_create_jobs}),
 * and its {@code NAME.up.sql} and {@code NAME.down.sql}. The driver passes a resource opener so
 * that resources are read from its own module. Internal SPI.
 */
public final class MigrationFiles {
    private MigrationFiles() {}

    /** Loads every migration the index names, checking that versions ascend from 1 without gaps. */
    public static List<Migration> load(Function<String, InputStream> open) {
        List<Migration> migrations = new ArrayList<>();
        for (String line : read(open, "index.txt").split("\n")) {
            String name = line.strip();
            if (name.isEmpty() || name.startsWith("#")) {
                continue;
            }
            int version = Integer.parseInt(name.substring(0, name.indexOf('_')));
            if (version != migrations.size() + 1) {
                throw new IllegalStateException("migration " + name + " is out of sequence");
            }
            migrations.add(new Migration(version, name, read(open, name + ".up.sql"), read(open, name + ".down.sql")));
        }
        return List.copyOf(migrations);
    }

    private static String read(Function<String, InputStream> open, String file) {
        try (InputStream in = open.apply(file)) {
            if (in == null) {
                throw new IllegalStateException("migration resource not found: " + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("reading migration " + file, e);
        }
    }
}
