/** The Redis driver for Runnel: Lettuce, one Redis Function per operation. */
module dev.runnel.redis {
    requires transitive dev.runnel.core;
    requires lettuce.core;
    requires io.netty.common;
    requires com.fasterxml.jackson.databind;
    requires org.slf4j;

    exports dev.runnel.redis;

    provides dev.runnel.driver.DriverProvider with dev.runnel.redis.RedisDriverProvider;
}
