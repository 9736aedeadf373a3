package org.oooengine.core.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.oooengine.core.storage.Directories;

/**
 * The shared secret that makes a process a cluster member. On connect the server sends a random
 * nonce; the client answers with HMAC-SHA256(secret, nonce). The secret itself never crosses the
 * wire, and a recorded answer is useless for the next connection's nonce.
 */
public final class ClusterSecret {
    public static final int NONCE_BYTES = 32;
    private static final String ALGORITHM = "HmacSHA256";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] key;

    public ClusterSecret(byte[] key) {
        if (key.length < 16) {
            throw new IllegalArgumentException("a cluster secret needs at least 16 bytes, got " + key.length);
        }
        this.key = key.clone();
    }

    /** A new random secret. */
    public static ClusterSecret generate() {
        byte[] k = new byte[32];
        RANDOM.nextBytes(k);
        return new ClusterSecret(k);
    }

    /** The key itself, for a channel that keeps secrets (e.g. a MapReduce job's credentials). */
    public byte[] key() {
        return key.clone();
    }

    /** Reads a secret file: the key as hex on one line. */
    public static ClusterSecret read(Path file) {
        try {
            String hex = Files.readString(file, StandardCharsets.US_ASCII).strip();
            return new ClusterSecret(HexFormat.of().parseHex(hex));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the cluster secret " + file, e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("cluster secret " + file + " is not a hex key: " + e.getMessage(), e);
        }
    }

    /** Writes the secret readable by its owner only. */
    public void write(Path file) {
        try {
            Directories.writePrivate(file, HexFormat.of().formatHex(key) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the cluster secret " + file, e);
        }
    }

    public static byte[] nonce() {
        byte[] n = new byte[NONCE_BYTES];
        RANDOM.nextBytes(n);
        return n;
    }

    public byte[] sign(byte[] nonce) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(key, ALGORITHM));
            return mac.doFinal(nonce);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is not available", e);
        }
    }

    /** Constant-time check of a client's answer. */
    public boolean verify(byte[] nonce, byte[] answer) {
        return MessageDigest.isEqual(sign(nonce), answer);
    }
}
