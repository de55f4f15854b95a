package dev.runnel.bench;

import java.util.List;
import java.util.Locale;

/** Builds one line of JSON for the scenarios' summaries: numbers, strings, booleans, nulls and nested values. */
final class JsonLine {
    private final StringBuilder sb = new StringBuilder("{");

    JsonLine put(String key, Object value) {
        if (sb.length() > 1) {
            sb.append(',');
        }
        quote(key);
        sb.append(':');
        write(value);
        return this;
    }

    private void write(Object value) {
        switch (value) {
            case null -> sb.append("null");
            case JsonLine nested -> sb.append(nested);
            case Double d when d.isNaN() || d.isInfinite() -> sb.append("null");
            case Double d -> sb.append(String.format(Locale.ROOT, "%.3f", d));
            case Number n -> sb.append(n);
            case Boolean b -> sb.append(b);
            case List<?> list -> {
                sb.append('[');
                for (int i = 0; i < list.size(); i++) {
                    if (i > 0) {
                        sb.append(',');
                    }
                    write(list.get(i));
                }
                sb.append(']');
            }
            default -> quote(value.toString());
        }
    }

    private void quote(String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    @Override
    public String toString() {
        return sb + "}";
    }
}
