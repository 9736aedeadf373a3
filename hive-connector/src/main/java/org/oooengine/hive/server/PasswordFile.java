package org.oooengine.hive.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Users and passwords for SASL PLAIN: one {@code user:password} per line; blank lines and lines
 * starting with {@code #} are ignored. The password is everything after the first colon, so it
 * may itself contain colons.
 */
final class PasswordFile implements PlainCredentialsHandler.Authenticator {
    private final Map<String, byte[]> passwords;

    private PasswordFile(Map<String, byte[]> passwords) {
        this.passwords = passwords;
    }

    static PasswordFile load(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read password file " + file, e);
        }
        Map<String, byte[]> passwords = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": expected user:password");
            }
            passwords.put(line.substring(0, colon), line.substring(colon + 1).getBytes(StandardCharsets.UTF_8));
        }
        return new PasswordFile(passwords);
    }

    int size() {
        return passwords.size();
    }

    @Override
    public boolean authenticate(String user, String password) {
        byte[] expected = passwords.get(user);
        // Compare in constant time so response timing does not reveal how much of a password matched.
        return expected != null && MessageDigest.isEqual(expected, password.getBytes(StandardCharsets.UTF_8));
    }
}
