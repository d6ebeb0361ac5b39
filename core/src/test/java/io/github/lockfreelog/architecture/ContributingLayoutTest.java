package io.github.lockfreelog.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * CONTRIBUTING.md's "Code layout" is where a contributor learns each module's and package's job, so it must match the
 * tree: name every module of the build; give every package of core's main code a row of its first table that names
 * each of the package's classes and no class that is gone; give every package of the other modules' main code a row
 * of its second table with its module, and no row to a package that is gone; and every package must say its job in a
 * {@code package-info.java}. The benchmarks' packages are left out of the tables' checks (they are described apart,
 * and change with the benchmarks), not out of the {@code package-info.java} check. Read from the repository around
 * this module (the tests run in {@code core/}).
 */
class ContributingLayoutTest {

    private static final Path ROOT = Path.of("..");
    private static final String BASE = "io/github/lockfreelog/";
    /** The module whose packages the tables do not describe. */
    private static final String BENCHMARKS = "benchmarks";
    /** A row of a table: its first cell (a package), its second, the rest. */
    private static final Pattern ROW = Pattern.compile("(?m)^\\| `([\\w.]+)` \\| ([^|]*)\\|(.*)\\|$");
    private static final Pattern CLASS_NAME = Pattern.compile("`([A-Z]\\w*)(?:\\.\\w+)?`");

    @Test
    void theCodeLayoutNamesEveryModule() throws IOException {
        String layout = codeLayout();
        assertThat(modules()).isNotEmpty().contains("core", BENCHMARKS)
                .allSatisfy(module -> assertThat(layout).as("CONTRIBUTING.md's Code layout names module %s", module)
                        .contains("`" + module + "`"));
    }

    @Test
    void everyCorePackageHasARowThatNamesItsClasses() throws IOException {
        Map<String, String> rows = rows(coreTable(), false);
        TreeMap<String, Set<String>> packages = packagesOf("core");
        assertThat(packages).containsKeys("logback.encoding", "drain", "records");
        List<String> wrong = new ArrayList<>();
        packages.forEach((name, classes) -> {
            String row = rows.get(name);
            if (row == null) {
                wrong.add("core package " + name + " has no row");
                return;
            }
            Set<String> named = new TreeSet<>();
            Matcher names = CLASS_NAME.matcher(row);
            while (names.find()) {
                named.add(names.group(1));
            }
            for (String type : classes) {
                if (!named.contains(type)) {
                    wrong.add(name + "." + type + " is not named in its row");
                }
            }
            for (String type : named) {
                if (!classes.contains(type) && !declaredIn(name, type)) {
                    wrong.add(name + "'s row names " + type + ", which is not in the package");
                }
            }
        });
        rows.keySet().stream().filter(name -> !packages.containsKey(name))
                .forEach(name -> wrong.add("the row of " + name + ", which core does not have"));
        assertThat(wrong).as("CONTRIBUTING.md's table of core's packages against the tree").isEmpty();
    }

    @Test
    void everyOtherPackageHasARowWithItsModule() throws IOException {
        Map<String, String> rows = rows(otherTable(), true);
        List<String> wrong = new ArrayList<>();
        Set<String> described = new TreeSet<>();
        for (String module : modules()) {
            if (module.equals("core") || module.equals(BENCHMARKS)) {
                continue;
            }
            for (String name : packagesOf(module).keySet()) {
                described.add(name);
                String row = rows.get(name);
                if (row == null || !row.trim().equals("`" + module + "`")) {
                    wrong.add("package " + name + " of " + module + " has no row naming its module (found: " + row + ")");
                }
            }
        }
        rows.forEach((name, module) -> {
            String cell = module.trim();
            boolean own = cell.equals("`" + BENCHMARKS + "`") || cell.equals("`starter`") || cell.equals("`bom`");
            if (!own && !described.contains(name)) {
                wrong.add("the row of " + name + " (" + cell + "), which is not a package of that module");
            }
        });
        assertThat(wrong).as("CONTRIBUTING.md's table of the other modules' packages against the tree").isEmpty();
    }

    @Test
    void everyPackageSaysItsJob() throws IOException {
        List<String> undocumented = new ArrayList<>();
        for (String module : modules()) {
            for (Path folder : packageFolders(module)) {
                if (!Files.exists(folder.resolve("package-info.java"))) {
                    undocumented.add(ROOT.relativize(folder).toString());
                }
            }
        }
        assertThat(undocumented).as("packages without a package-info.java").isEmpty();
    }

    /** The text of CONTRIBUTING.md from "## Code layout" to the next section. */
    private static String codeLayout() throws IOException {
        String text = Files.readString(ROOT.resolve("CONTRIBUTING.md"));
        Matcher section = Pattern.compile("(?s)\n## Code layout\n(.*?)(\n## |$)").matcher(text);
        assertThat(section.find()).as("CONTRIBUTING.md has a Code layout section").isTrue();
        return section.group(1);
    }

    /** The table of core's packages: the first one of the layout, headed "| package | its job | classes |". */
    private static String coreTable() throws IOException {
        return table("| package | its job | classes |");
    }

    /** The table of the other modules' packages, headed "| package | module | its job |". */
    private static String otherTable() throws IOException {
        return table("| package | module | its job |");
    }

    private static String table(String header) throws IOException {
        String layout = codeLayout();
        int at = layout.indexOf(header);
        assertThat(at).as("CONTRIBUTING.md's Code layout has a table headed " + header).isNotNegative();
        int end = layout.indexOf("\n\n", at);
        return layout.substring(at, end < 0 ? layout.length() : end);
    }

    /** Each row of {@code table} by its package: its second cell alone ({@code secondCell}), else all after the first. */
    private static Map<String, String> rows(String table, boolean secondCell) {
        Map<String, String> rows = new TreeMap<>();
        Matcher row = ROW.matcher(table);
        while (row.find()) {
            rows.put(row.group(1), secondCell ? row.group(2) : row.group(2) + "|" + row.group(3));
        }
        return rows;
    }

    /** Whether {@code type} is declared (nested) in a source of core's package {@code name}. */
    private static boolean declaredIn(String name, String type) {
        Path folder = ROOT.resolve("core/src/main/java").resolve(BASE + name.replace('.', '/'));
        Pattern declaration = Pattern.compile("\\b(class|interface|record|enum) " + type + "\\b");
        try (Stream<Path> files = Files.list(folder)) {
            for (Path source : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                if (declaration.matcher(Files.readString(source)).find()) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    /** The modules of the parent pom. */
    private static List<String> modules() throws IOException {
        Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(Files.readString(ROOT.resolve("pom.xml")));
        List<String> found = new ArrayList<>();
        while (module.find()) {
            found.add(module.group(1));
        }
        return found;
    }

    /** Each package of {@code module}'s main code, relative to {@code io.github.lockfreelog}, with its top-level classes. */
    private static TreeMap<String, Set<String>> packagesOf(String module) throws IOException {
        Path main = ROOT.resolve(module).resolve("src/main/java");
        TreeMap<String, Set<String>> found = new TreeMap<>();
        for (Path folder : packageFolders(module)) {
            String name = main.relativize(folder).toString().substring(BASE.length()).replace('/', '.');
            Set<String> classes = new TreeSet<>();
            try (Stream<Path> files = Files.list(folder)) {
                files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".java") && !f.equals("package-info.java"))
                        .forEach(f -> classes.add(f.substring(0, f.length() - ".java".length())));
            }
            found.put(name, classes);
        }
        return found;
    }

    /** The folders under {@code module}'s {@code src/main/java} that hold Java sources. */
    private static TreeSet<Path> packageFolders(String module) throws IOException {
        TreeSet<Path> folders = new TreeSet<>();
        Path main = ROOT.resolve(module).resolve("src/main/java");
        if (!Files.isDirectory(main)) {
            return folders;
        }
        try (Stream<Path> files = Files.walk(main)) {
            files.filter(f -> f.toString().endsWith(".java")).map(Path::getParent)
                    .filter(folder -> main.relativize(folder).toString().startsWith(BASE.substring(0, BASE.length() - 1)))
                    .forEach(folders::add);
        }
        return folders;
    }
}
