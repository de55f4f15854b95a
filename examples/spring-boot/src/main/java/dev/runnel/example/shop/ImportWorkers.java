package dev.runnel.example.shop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runnel.Job;
import dev.runnel.Runnel;
import dev.runnel.Worker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.beans.factory.ObjectProvider;

/** The import workflow's workers, registered by the starter as beans implementing {@code Worker}. */
@Configuration
public class ImportWorkers {
    /** What the reports found: the upload's total line count, by upload. */
    public static final Map<String, Long> REPORTS = new ConcurrentHashMap<>();
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Counts a file's lines and records the count as the task's output, for the report to read. */
    @Bean
    Worker<ImportFile> importFileWorker() {
        return job -> {
            long lines;
            try (var stream = Files.lines(Path.of(job.args().path()))) {
                lines = stream.count();
            }
            job.recordOutput(Map.of("lines", lines));
        };
    }

    /**
     * Sums what the file tasks recorded: it runs only once every one of them completed. The client
     * is looked up when the job runs, as the client is built from the worker beans.
     */
    @Bean
    Worker<ImportReport> importReportWorker(ObjectProvider<Runnel> runnel) {
        return (Job<ImportReport> job) -> {
            long total = 0;
            for (Optional<String> output : runnel.getObject().workflows().dependencyOutputs(job.id()).values()) {
                JsonNode node = JSON.readTree(output.orElseThrow());
                total += node.get("lines").asLong();
            }
            REPORTS.put(job.args().upload(), total);
        };
    }
}
