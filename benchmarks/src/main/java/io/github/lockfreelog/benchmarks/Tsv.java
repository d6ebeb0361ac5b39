package io.github.lockfreelog.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes and reads a tab-separated table whose first line names the columns, the form in which a
 * run's results are saved so that {@code report} and {@code chart} can read them again. Lines that
 * start with {@code #} are comments (the machine the run was made on).
 */
final class Tsv {

    private Tsv() {
    }

    /** Writes {@code rows} (each with the same keys, in the same order) under a comment line. */
    static void write(Path file, String comment, List<Map<String, String>> rows) throws IOException {
        StringBuilder text = new StringBuilder("# ").append(comment.replace('\n', ' ')).append('\n');
        if (!rows.isEmpty()) {
            text.append(String.join("\t", rows.get(0).keySet())).append('\n');
        }
        for (Map<String, String> row : rows) {
            text.append(String.join("\t", row.values().stream().map(v -> v.replace('\t', ' ')).toList())).append('\n');
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    /** Reads the rows of {@code file}, each keyed by the column names of its header line. */
    static List<Map<String, String>> read(Path file) throws IOException {
        List<Map<String, String>> rows = new ArrayList<>();
        List<String> columns = null;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            List<String> cells = Arrays.asList(line.split("\t", -1));
            if (columns == null) {
                columns = cells;
                continue;
            }
            if (cells.size() != columns.size()) {
                throw new IOException("want " + columns.size() + " tab-separated cells, got " + cells.size() + " in "
                        + file + ": " + line);
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < columns.size(); i++) {
                row.put(columns.get(i), cells.get(i));
            }
            rows.add(row);
        }
        return rows;
    }

    /** The first comment line of {@code file}, without its {@code #}; empty when it has none. */
    static String comment(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        return !lines.isEmpty() && lines.get(0).startsWith("#") ? lines.get(0).substring(1).trim() : "";
    }
}
