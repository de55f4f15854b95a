/**
 * An application on the module path. Runnel builds a sample of each args type to read its kind, and
 * Jackson writes and reads the args: the package holding the args records is opened to both.
 */
module dev.runnel.example {
    requires dev.runnel.sqlite;
    requires dev.runnel.postgres;

    opens dev.runnel.example to dev.runnel.core, com.fasterxml.jackson.databind;
}
