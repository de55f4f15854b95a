/** The embedded SQLite driver for Runnel. */
module dev.runnel.sqlite {
    requires transitive dev.runnel.core;
    requires org.xerial.sqlitejdbc;
    requires com.fasterxml.jackson.core;
    requires org.slf4j;

    exports dev.runnel.sqlite;

    provides dev.runnel.driver.DriverProvider with dev.runnel.sqlite.SqliteDriverProvider;
}
