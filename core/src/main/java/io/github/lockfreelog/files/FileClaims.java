package io.github.lockfreelog.files;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which user of this JVM (an appender, by name) uses which file, so that two never share one: a log
 * file, an explicitly set journal. A file is known by its real path and by its folder's key with its
 * own name, so a second way to it is recognised: a symbolic link on the way resolves to the same
 * real path, and a bind mount of the folder has the same folder key. The name itself may not exist
 * yet.
 */
public final class FileClaims {

    private static final Map<Object, String> CLAIMED = new ConcurrentHashMap<>();

    private FileClaims() {
    }

    /** A file claimed by one user, released by {@link #close}. */
    public static final class Claim implements AutoCloseable {
        private final List<Object> keys;
        private final String owner;

        private Claim(List<Object> keys, String owner) {
            this.keys = keys;
            this.owner = owner;
        }

        @Override
        public void close() {
            keys.forEach(k -> CLAIMED.remove(k, owner));
        }
    }

    /** The answer to {@link #claim}: the claim, or the user who holds the file already. */
    public record Result(Claim claim, String heldBy) {
    }

    /**
     * Claims {@code file} (a real path, see {@link FileIdentity#realFile}) for {@code owner}.
     */
    public static Result claim(Path file, String owner) {
        List<Object> keys = keys(file);
        for (int i = 0; i < keys.size(); i++) {
            String held = CLAIMED.putIfAbsent(keys.get(i), owner);
            if (held != null) {
                for (int j = 0; j < i; j++) {
                    CLAIMED.remove(keys.get(j), owner);
                }
                return new Result(null, held);
            }
        }
        return new Result(new Claim(keys, owner), null);
    }

    private static List<Object> keys(Path file) {
        Path folder = file.getParent();
        Object folderKey = folder == null ? null : FileIdentity.ofTarget(folder);
        if (folderKey == null || folderKey == FileIdentity.ABSENT) {
            return List.of(file);
        }
        return List.of(file, List.of(folderKey, file.getFileName().toString()));
    }
}
