package dev.runnel.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain text table for a terminal: columns padded to their widest cell, and a cell longer than
 * its column's limit cut with an ellipsis, so that a row stays on one line.
 */
final class Table {
    private final String[] header;
    private final int[] limits;
    private final List<String[]> rows = new ArrayList<>();

    /** Columns named {@code header}, each at most {@code limits[i]} characters wide. */
    Table(String[] header, int[] limits) {
        this.header = header;
        this.limits = limits;
    }

    void add(String... cells) {
        rows.add(cells);
    }

    void print(PrintWriter out) {
        int[] widths = new int[header.length];
        for (int c = 0; c < header.length; c++) {
            widths[c] = header[c].length();
            for (String[] row : rows) {
                widths[c] = Math.max(widths[c], Math.min(limits[c], row[c].length()));
            }
        }
        line(out, header, widths);
        for (String[] row : rows) {
            line(out, row, widths);
        }
    }

    private void line(PrintWriter out, String[] cells, int[] widths) {
        StringBuilder s = new StringBuilder();
        for (int c = 0; c < cells.length; c++) {
            String cell = cells[c].replaceAll("\\s+", " ");
            if (cell.length() > widths[c]) {
                cell = cell.substring(0, widths[c] - 1) + "…";
            }
            s.append(c == cells.length - 1 ? cell : String.format("%-" + widths[c] + "s  ", cell));
        }
        out.println(s.toString().stripTrailing());
    }
}
