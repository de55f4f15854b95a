/**
 * Runnel's own JSON: the one mapper configuration, the metadata keys the runtime writes, and the
 * digest of a periodic job's definition. It imports nothing of Runnel, so that the API's value
 * types ({@code JobRow}, {@code JobQuery}, {@code PeriodicJob}...) and the driver SPI's
 * {@code JobJson} both build on it without either depending on the other. Not exported.
 */
package dev.runnel.json;
