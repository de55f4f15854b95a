package dev.runnel;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.classfile.constantpool.Utf8Entry;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The seam between the API and the driver SPI, read from the compiled classes (every type a class
 * names, in its code, its signatures and its generic types): the API names of the SPI only the
 * driver a user hands to the builder; the SPI names of the API only value types, which name
 * neither the SPI nor the runtime; Runnel's own JSON names nothing of Runnel. (javac copies a
 * constant's value into the class that reads it, so a use of another package's constant alone
 * shows only in the source.)
 */
class LayeringTest {
    /** The API's services: what the SPI must not name (each a facade over the runtime). */
    private static final Set<String> SERVICES = Set.of("Audit", "Drivers", "Jobs", "Migrator", "Periodic", "Queues",
            "Runnel", "RunnelBuilder", "SearchIndexes");
    private static final Pattern NAMED = Pattern.compile("dev/runnel/[A-Za-z0-9_/$]+");

    private final Map<String, Set<String>> names = readClasses();

    @Test
    void theApiNamesOnlyTheDriverOfTheSpi() {
        Map<String, Set<String>> spiNamed = new TreeMap<>();
        inPackage("dev/runnel/").forEach((type, named) -> {
            Set<String> spi = new TreeSet<>(named.stream().filter(n -> n.startsWith("dev/runnel/driver/")).toList());
            spi.remove("dev/runnel/driver/Driver");
            if (!spi.isEmpty()) {
                spiNamed.put(type, spi);
            }
        });
        assertThat(spiNamed).as("API types that name SPI types other than Driver").isEmpty();
    }

    @Test
    void theSpiNamesOnlyValueTypesOfTheApiAndTheyNameNeitherTheSpiNorTheRuntime() {
        Map<String, Set<String>> wrong = new TreeMap<>();
        Deque<String> values = new ArrayDeque<>();
        inPackage("dev/runnel/driver/").forEach((type, named) -> {
            for (String n : named) {
                if (n.startsWith("dev/runnel/internal/") || SERVICES.contains(topLevel(n))) {
                    wrong.computeIfAbsent(type, t -> new TreeSet<>()).add(n);
                } else if (isApi(n)) {
                    values.add(n);
                }
            }
        });
        // Every API type a value type names is a value type too: follow them all.
        Set<String> seen = new TreeSet<>();
        while (!values.isEmpty()) {
            String value = values.pop();
            if (!seen.add(value) || !names.containsKey(value)) {
                continue;
            }
            for (String n : names.get(value)) {
                if (n.startsWith("dev/runnel/internal/") || n.startsWith("dev/runnel/driver/")
                        || SERVICES.contains(topLevel(n))) {
                    wrong.computeIfAbsent(value, t -> new TreeSet<>()).add(n);
                } else if (isApi(n)) {
                    values.add(n);
                }
            }
        }
        assertThat(seen).as("value types the SPI names").contains("dev/runnel/JobRow", "dev/runnel/PeriodicJob");
        assertThat(wrong).as("SPI and value types that name the runtime, the SPI or an API service").isEmpty();
    }

    @Test
    void runnelsOwnJsonNamesNothingOfRunnel() {
        Map<String, Set<String>> wrong = new TreeMap<>();
        inPackage("dev/runnel/json/").forEach((type, named) -> named.stream()
                .filter(n -> !n.startsWith("dev/runnel/json/"))
                .forEach(n -> wrong.computeIfAbsent(type, t -> new TreeSet<>()).add(n)));
        assertThat(names).containsKey("dev/runnel/json/RunnelJson");
        assertThat(wrong).isEmpty();
    }

    @Test
    void theReadingFindsWhatAClassNames() {
        // Types named in code, in a signature and in a generic type argument are all found.
        assertThat(names.get("dev/runnel/Jobs")).contains("dev/runnel/internal/JobAdmin");
        assertThat(names.get("dev/runnel/Runnel")).contains("dev/runnel/Jobs");
        assertThat(names.get("dev/runnel/driver/Driver")).contains("dev/runnel/JobRow");
    }

    /** The classes directly in {@code prefix}'s package (not its subpackages), with what each names. */
    private Map<String, Set<String>> inPackage(String prefix) {
        Map<String, Set<String>> in = new TreeMap<>();
        names.forEach((type, named) -> {
            if (type.startsWith(prefix) && type.indexOf('/', prefix.length()) < 0) {
                in.put(type, named);
            }
        });
        assertThat(in).as("classes in " + prefix).isNotEmpty();
        return in;
    }

    private static boolean isApi(String name) {
        return name.startsWith("dev/runnel/") && name.indexOf('/', "dev/runnel/".length()) < 0;
    }

    private static String topLevel(String name) {
        if (!isApi(name)) {
            return "";
        }
        String simple = name.substring("dev/runnel/".length());
        int nested = simple.indexOf('$');
        return nested < 0 ? simple : simple.substring(0, nested);
    }

    /** Every class of runnel-core's main code, by internal name, with every Runnel type it names. */
    private static Map<String, Set<String>> readClasses() {
        Path root;
        try {
            root = Path.of(Runnel.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        Map<String, Set<String>> all = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                ClassModel model = ClassFile.of().parse(Files.readAllBytes(file));
                String self = model.thisClass().asInternalName();
                if (self.equals("module-info")) {
                    continue;
                }
                Set<String> named = new TreeSet<>();
                for (PoolEntry entry : model.constantPool()) {
                    String text = switch (entry) {
                        case ClassEntry c -> c.asInternalName();
                        case Utf8Entry u -> u.stringValue();
                        default -> "";
                    };
                    Matcher m = NAMED.matcher(text);
                    while (m.find()) {
                        named.add(m.group());
                    }
                }
                named.remove(self);
                all.put(self, named);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return all;
    }
}
