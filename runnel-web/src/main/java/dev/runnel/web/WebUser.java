package dev.runnel.web;

/**
 * Who is using the dashboard, as an {@link Authenticator} found: the name goes into the audit log
 * with every action, the role decides which actions are offered and allowed.
 */
public record WebUser(String name, WebRole role) {
    public WebUser {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a user's name must not be blank");
        }
        if (role == null) {
            throw new IllegalArgumentException("a user's role must not be null");
        }
    }
}
