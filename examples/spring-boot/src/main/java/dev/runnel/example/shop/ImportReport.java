package dev.runnel.example.shop;

import dev.runnel.JobArgs;

/** The workflow's last task: report on every file of upload {@code upload}, once all were imported. */
public record ImportReport(String upload) implements JobArgs {
    @Override public String kind() { return "import_report"; }
}
