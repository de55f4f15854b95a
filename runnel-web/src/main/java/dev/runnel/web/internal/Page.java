package dev.runnel.web.internal;

import dev.runnel.web.WebUser;
import java.time.Instant;

/**
 * What every page's layout needs: where the dashboard is mounted, the page's title and menu entry,
 * the user (whose role decides which buttons show), the CSRF token for its forms, and the time the
 * page's relative times count from.
 */
public record Page(String base, String title, String active, WebUser user, String csrf, Instant now) {
    /** Whether to show buttons that change things. */
    public boolean mayAct() {
        return user.role().mayAct();
    }

    /** A path under the dashboard's mount point. */
    public String href(String path) {
        return base + path;
    }
}
