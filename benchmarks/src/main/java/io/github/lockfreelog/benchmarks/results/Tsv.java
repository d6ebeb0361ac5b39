package io.github.lockfreelog.benchmarks.results;

import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Saves records as a tab-separated table, one row per record and one column per component (those
 * of a nested record flattened as {@code lines.accepted}), and reads them back: the form in which a
 * run's results are kept so that {@code report} and {@code chart} can use them again. The first line
 * is a comment (the machine the run was made on), the second names the columns.
 */
public final class Tsv {

    private Tsv() {
    }

    /**
     * A column that tables saved before it existed lack: read as {@link #value()} there, so that {@code report}
     * and {@code chart} still read older runs.
     */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.RECORD_COMPONENT)
    @interface Absent {
        /** The cell an older table stands for. */
        String value();
    }

    public static <R extends Record> void write(Path file, String comment, List<R> records) throws IOException {
        StringBuilder text = new StringBuilder("# ").append(comment.replace('\n', ' ')).append('\n');
        for (int i = 0; i < records.size(); i++) {
            Map<String, String> row = new LinkedHashMap<>();
            flatten("", records.get(i), row);
            if (i == 0) {
                text.append(String.join("\t", row.keySet())).append('\n');
            }
            text.append(String.join("\t", row.values())).append('\n');
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    public static <R extends Record> List<R> read(Path file, Class<R> type) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                .filter(line -> !line.isBlank() && !line.startsWith("#")).toList();
        List<R> records = new ArrayList<>();
        for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
            List<String> columns = Arrays.asList(lines.get(0).split("\t", -1));
            List<String> cells = Arrays.asList(line.split("\t", -1));
            if (cells.size() != columns.size()) {
                throw new IOException("want " + columns.size() + " tab-separated cells, got " + cells.size() + " in "
                        + file + ": " + line);
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < columns.size(); i++) {
                row.put(columns.get(i), cells.get(i));
            }
            records.add(build("", type, row, file));
        }
        return records;
    }

    /** The comment line of {@code file}, without its {@code #}; empty when it has none. */
    public static String comment(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        return !lines.isEmpty() && lines.get(0).startsWith("#") ? lines.get(0).substring(1).trim() : "";
    }

    private static void flatten(String prefix, Record record, Map<String, String> row) {
        for (RecordComponent component : record.getClass().getRecordComponents()) {
            Object value;
            try {
                value = component.getAccessor().invoke(record);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot read " + component, e);
            }
            if (value instanceof Record nested) {
                flatten(prefix + component.getName() + ".", nested, row);
            } else {
                row.put(prefix + component.getName(), String.valueOf(value).replace('\t', ' ').replace('\n', ' '));
            }
        }
    }

    private static <R extends Record> R build(String prefix, Class<R> type, Map<String, String> row, Path file)
            throws IOException {
        RecordComponent[] components = type.getRecordComponents();
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            String name = prefix + components[i].getName();
            Class<?> t = components[i].getType();
            if (t.isRecord()) {
                values[i] = build(name + ".", t.asSubclass(Record.class), row, file);
                continue;
            }
            String cell = row.get(name);
            Absent absent = components[i].getAnnotation(Absent.class);
            if (cell == null && absent != null) {
                cell = absent.value();
            }
            if (cell == null) {
                throw new IOException("no column " + name + " in " + file);
            }
            values[i] = t == String.class ? cell : t == int.class ? Integer.valueOf(cell) : t == long.class ? Long.valueOf(cell)
                    : t == double.class ? Double.valueOf(cell) : t == boolean.class ? Boolean.valueOf(cell) : null;
            if (values[i] == null) {
                throw new IllegalArgumentException("cannot read a " + t + " from a table: " + name);
            }
        }
        try {
            return type.getDeclaredConstructor(Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new))
                    .newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot make a " + type.getSimpleName() + " of a row of " + file, e);
        }
    }
}
