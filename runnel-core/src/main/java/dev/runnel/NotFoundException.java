package dev.runnel;

/** What an operation names does not exist (a queue nobody works, a job deleted or never inserted). */
public class NotFoundException extends RunnelException {
    public NotFoundException(String message) {
        super(message);
    }
}
