package io.github.lockfreelog.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * CONTRIBUTING.md's "Code layout" is where a contributor learns each module's and package's job, so it must name
 * every module of the build and every package of its main code, and every package must say its job in a
 * {@code package-info.java}. Read from the repository around this module (the tests run in {@code core/}).
 */
class ContributingLayoutTest {

    private static final Path ROOT = Path.of("..");
    private static final String BASE = "io/github/lockfreelog/";

    @Test
    void theCodeLayoutNamesEveryModule() throws IOException {
        String layout = codeLayout();
        assertThat(modules()).isNotEmpty()
                .allSatisfy(module -> assertThat(layout).as("CONTRIBUTING.md's Code layout names module %s", module)
                        .contains("`" + module + "`"));
    }

    @Test
    void theCodeLayoutNamesEveryPackage() throws IOException {
        String layout = codeLayout();
        TreeMap<String, String> packages = packages();
        assertThat(packages).containsKeys("logback.encoding", "drain");
        List<String> missing = new ArrayList<>();
        packages.forEach((name, module) -> {
            String row = module.equals("core") ? "| `" + name + "` |" : "`" + name + "`";
            if (!layout.contains(row)) {
                missing.add(name + " (" + module + ")");
            }
        });
        assertThat(missing).as("packages that CONTRIBUTING.md's Code layout does not name (core's in its table)").isEmpty();
    }

    @Test
    void everyPackageSaysItsJob() throws IOException {
        List<String> undocumented = new ArrayList<>();
        for (Path folder : packageFolders()) {
            if (!Files.exists(folder.resolve("package-info.java"))) {
                undocumented.add(ROOT.relativize(folder).toString());
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

    /** The modules of the parent pom. */
    private static List<String> modules() throws IOException {
        Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(Files.readString(ROOT.resolve("pom.xml")));
        List<String> found = new ArrayList<>();
        while (module.find()) {
            found.add(module.group(1));
        }
        return found;
    }

    /** Each package of main code, relative to {@code io.github.lockfreelog}, with its module. */
    private static TreeMap<String, String> packages() throws IOException {
        TreeMap<String, String> found = new TreeMap<>();
        for (Path folder : packageFolders()) {
            Path main = mainSources(folder);
            String name = main.relativize(folder).toString().substring(BASE.length()).replace('/', '.');
            found.put(name, ROOT.relativize(main).getName(0).toString());
        }
        return found;
    }

    /** The folders under each module's {@code src/main/java} that hold Java sources. */
    private static TreeSet<Path> packageFolders() throws IOException {
        TreeSet<Path> folders = new TreeSet<>();
        for (String module : modules()) {
            Path main = ROOT.resolve(module).resolve("src/main/java");
            if (!Files.isDirectory(main)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(main)) {
                files.filter(f -> f.toString().endsWith(".java")).map(Path::getParent)
                        .filter(folder -> main.relativize(folder).toString().startsWith(BASE.substring(0, BASE.length() - 1)))
                        .forEach(folders::add);
            }
        }
        return folders;
    }

    private static Path mainSources(Path folder) {
        Path p = folder;
        while (!p.endsWith("src/main/java")) {
            p = p.getParent();
        }
        return p;
    }
}
