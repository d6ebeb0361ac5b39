package io.github.lockfreelog.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * What another user on the host does to a place lockfreelog shares with others, run as that user by {@link OtherUser}.
 * Arguments are steps, in order: {@code mkdir <path>}, {@code rename <path> <to>}, {@code link <path> <target>}, {@code file <path> <text>},
 * {@code fifo <path>}, {@code chmod <path> <mode, as rwx------>}. It prints {@code DONE} when every step worked, else
 * the step that failed and why.
 */
public final class CoTenant {

    private CoTenant() {
    }

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < args.length;) {
            String step = args[i++];
            Path path = Path.of(args[i++]);
            switch (step) {
                case "mkdir" -> Files.createDirectory(path);
                // rename(2) itself: JDK 25's plain Files.move of a folder first looks into it, which another user's
                // closed folder refuses, where the system call (and mv) may rename it
                case "rename" -> Files.move(path, Path.of(args[i++]), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                case "link" -> Files.createSymbolicLink(path, Path.of(args[i++]));
                case "file" -> Files.writeString(path, args[i++]);
                case "fifo" -> {
                    int status = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start().waitFor();
                    if (status != 0) {
                        System.out.println("FAILED mkfifo " + path + ": exit status " + status);
                        return;
                    }
                }
                case "chmod" -> Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(args[i++]));
                default -> {
                    System.out.println("FAILED unknown step " + step);
                    return;
                }
            }
        }
        System.out.println("DONE");
    }
}
