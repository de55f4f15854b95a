package dev.runnel.cli;

import picocli.CommandLine.Command;

/**
 * {@code runnel scenario NAME}: Runnel's scenarios, each a measurement that ends with one JSON line
 * of its figures under {@code --json}. Each scenario is its own subcommand class.
 */
@Command(name = "scenario", mixinStandardHelpOptions = true,
        description = "Run one of the measuring scenarios and print its figures.",
        subcommands = {EmbeddedLatencyCommand.class, SqliteContentionCommand.class, JobsTableCommand.class,
                LinksScenarioCommand.class, IdleClusterCommand.class})
final class ScenarioCommand {
}
