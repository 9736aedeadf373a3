package org.oooengine.core.tpcc;

import java.util.Random;

/**
 * The random values of the TPC-C specification (clause 4.3.2): uniform numbers, alphanumeric and
 * numeric strings of random length, the non-uniform NURand(A, x, y) with its run-time constants
 * C, and customer last names built from syllables.
 */
public final class TpccRandom {
    private static final String[] SYLLABLES = {"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"};
    private static final char[] ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();

    private final Random random;
    /** NURand's constant C for customer last names (A 255), customer ids (A 1023) and item ids (A 8191). */
    private final int cLast;
    private final int cId;
    private final int olIId;

    public TpccRandom(long seed) {
        this.random = new Random(seed);
        this.cLast = random.nextInt(256);
        this.cId = random.nextInt(1024);
        this.olIId = random.nextInt(8192);
    }

    /** A number in [x, y]. */
    public int uniform(int x, int y) {
        return x + random.nextInt(y - x + 1);
    }

    /** NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) mod (y - x + 1)) + x. */
    public int nonUniform(int a, int x, int y) {
        int c = switch (a) {
            case 255 -> cLast;
            case 1023 -> cId;
            case 8191 -> olIId;
            default -> throw new IllegalArgumentException("NURand with A = " + a);
        };
        return (((uniform(0, a) | uniform(x, y)) + c) % (y - x + 1)) + x;
    }

    /** A customer id as transactions choose it. */
    public int customerId() {
        return nonUniform(1023, 1, TpccGenerator.CUSTOMERS_PER_DISTRICT);
    }

    /** An item id as NewOrder chooses it. */
    public int itemId() {
        return nonUniform(8191, 1, TpccGenerator.ITEMS);
    }

    /** A random a-string of {@code x} to {@code y} characters. */
    public String alphanumeric(int x, int y) {
        char[] s = new char[uniform(x, y)];
        for (int i = 0; i < s.length; i++) {
            s[i] = ALPHANUMERIC[random.nextInt(ALPHANUMERIC.length)];
        }
        return new String(s);
    }

    /** A random n-string of {@code x} to {@code y} digits. */
    public String numeric(int x, int y) {
        char[] s = new char[uniform(x, y)];
        for (int i = 0; i < s.length; i++) {
            s[i] = (char) ('0' + random.nextInt(10));
        }
        return new String(s);
    }

    /** I_DATA and S_DATA: 26 to 50 characters, a tenth of them with "ORIGINAL" at a random place. */
    public String data() {
        String s = alphanumeric(26, 50);
        if (random.nextInt(10) != 0) {
            return s;
        }
        int at = random.nextInt(s.length() - 8 + 1);
        return s.substring(0, at) + "ORIGINAL" + s.substring(at + 8);
    }

    /** A zip code: four random digits and "11111". */
    public String zip() {
        return numeric(4, 4) + "11111";
    }

    /**
     * A fixed-point number in [x, y] units of its last decimal, as a DECIMAL column stores it
     * (unscaled: 0 to 2000 for a tax of 0.0000 to 0.2000 at scale 4).
     */
    public long decimal(long x, long y) {
        return x + (long) (random.nextDouble() * (y - x + 1));
    }

    /** The last name of number {@code n} in [0, 999]: its three digits' syllables. */
    public static String lastName(int n) {
        return SYLLABLES[n / 100] + SYLLABLES[n / 10 % 10] + SYLLABLES[n % 10];
    }

    /** A last name as loaded for a customer past the first thousand, or as Payment and OrderStatus choose it. */
    public String lastName() {
        return lastName(nonUniform(255, 0, 999));
    }

    /** A random permutation of 1..n (the customers of a district's orders). */
    public int[] permutation(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i + 1;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    public boolean percent(int p) {
        return random.nextInt(100) < p;
    }
}
