package dev.runnel.example.shop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.runnel.Runnel;
import dev.runnel.WorkflowState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/** The import workflow: one task per file side by side, then a report that reads what each found. */
class ImportWorkflowTest {
    @TempDir Path dir;

    @Test
    void theReportRunsOnceEveryFileIsImportedAndSumsWhatTheyFound() throws Exception {
        List<String> files = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            Path file = dir.resolve("part-" + i + ".csv");
            Files.write(file, java.util.Collections.nCopies(i * 10, "a,b,c"));
            files.add(file.toString());
        }
        try (ConfigurableApplicationContext app = SpringApplication.run(ShopApplication.class,
                "--spring.datasource.url=jdbc:sqlite:" + dir.resolve("shop.db"), "--runnel.fetch-poll-interval=100ms")) {
            long workflow = app.getBean(ImportService.class).importUpload("upload-7", files);
            Runnel runnel = app.getBean(Runnel.class);
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> runnel.workflows().get(workflow).orElseThrow().state() == WorkflowState.COMPLETED);
            assertThat(ImportWorkers.REPORTS).containsEntry("upload-7", 150L);
            assertThat(runnel.workflows().tasks(workflow)).hasSize(6);
        }
    }
}
