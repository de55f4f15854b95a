package dev.runnel.example.shop;

import dev.runnel.Runnel;
import dev.runnel.Workflow;
import dev.runnel.WorkflowTask;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Service;

/**
 * Imports an upload of many files: one task per file, run side by side (fan-out), and a report
 * that runs once every file is imported (fan-in), reading what each file's task recorded.
 */
@Service
public class ImportService {
    private final Runnel runnel;

    public ImportService(Runnel runnel) {
        this.runnel = runnel;
    }

    /** Inserts the upload's workflow; returns its id. */
    public long importUpload(String upload, List<String> files) {
        Workflow.Builder workflow = Workflow.builder("import " + upload);
        List<String> tasks = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            workflow.task("file-" + i, new ImportFile(files.get(i)));
            tasks.add("file-" + i);
        }
        workflow.task(WorkflowTask.of("report", new ImportReport(upload)).after(tasks.toArray(String[]::new)));
        return runnel.workflows().insert(workflow.build()).id();
    }
}
