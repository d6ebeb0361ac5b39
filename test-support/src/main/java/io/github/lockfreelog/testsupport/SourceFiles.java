package io.github.lockfreelog.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** A module's Java sources, for the architecture tests' checks of the text (class sizes, string literals). */
public final class SourceFiles {

    private SourceFiles() {
    }

    /** The Java sources under {@code root}, sorted; fails when there are none (the test ran in the wrong folder). */
    public static List<Path> javaSources(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            List<Path> sources = files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
            assertThat(sources).as("Java sources under " + root.toAbsolutePath()).isNotEmpty();
            return sources;
        }
    }

    /** The Java sources under {@code root} of more than {@code most} lines, each with its length. */
    public static List<String> linesOver(Path root, int most) throws IOException {
        List<String> over = new ArrayList<>();
        for (Path source : javaSources(root)) {
            int lines = Files.readAllLines(source).size();
            if (lines > most) {
                over.add(root.relativize(source) + " (" + lines + " lines)");
            }
        }
        return over;
    }
}
