package dev.runnel.postgres;

/**
 * Removes the whitespace jsonb puts after each {@code :} and {@code ,} when it prints a value, so
 * that a job's args and metadata read back in the compact form the runtime writes and the SQLite
 * driver returns: the same job looks the same whichever driver stored it. A single pass over the
 * text, far cheaper than parsing and writing it again.
 */
final class CompactJson {
    private CompactJson() {}

    /** {@code json} without whitespace outside its strings; null stays null. */
    static String of(String json) {
        if (json == null || !hasWhitespace(json)) {
            return json;
        }
        StringBuilder out = new StringBuilder(json.length());
        boolean inString = false;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (inString) {
                out.append(c);
                if (c == '\\' && i + 1 < json.length()) {
                    out.append(json.charAt(++i));
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
                out.append(c);
            } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean hasWhitespace(String json) {
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
                return true;
            }
        }
        return false;
    }
}
