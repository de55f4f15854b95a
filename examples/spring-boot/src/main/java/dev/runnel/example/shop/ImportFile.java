package dev.runnel.example.shop;

import dev.runnel.JobArgs;

/** A workflow task: import one file of an upload. */
public record ImportFile(String path) implements JobArgs {
    @Override public String kind() { return "import_file"; }
}
