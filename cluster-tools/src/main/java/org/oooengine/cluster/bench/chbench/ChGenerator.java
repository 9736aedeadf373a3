package org.oooengine.cluster.bench.chbench;

import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.tpcc.TpccRandom;

/**
 * The rows CH-benCHmark adds to TPC-C's: 5 regions, 62 nations keyed by the character codes of
 * {@code [0-9A-Za-z]} (a customer's nation is the code of its state's first character) and 10,000
 * suppliers (a stock row's supplier is {@code (s_w_id * s_i_id) % 10000}). One supplier in 200
 * has a comment that mentions a complaint ("bad"), which Q16 leaves out. The same rows for the same seed.
 */
public final class ChGenerator {
    public static final int SUPPLIERS = 10_000;
    static final List<String> REGIONS = List.of("Africa", "America", "Asia", "Australia", "Europe");
    /** Nation names and their region (an index of {@link #REGIONS}); 62 of them, one per nation key. */
    private static final String[][] NATIONS = {
            {"Algeria", "0"}, {"Egypt", "0"}, {"Ethiopia", "0"}, {"Ghana", "0"}, {"Kenya", "0"}, {"Morocco", "0"},
            {"Nigeria", "0"}, {"Senegal", "0"}, {"South Africa", "0"}, {"Tanzania", "0"}, {"Uganda", "0"},
            {"Zambia", "0"}, {"Argentina", "1"}, {"Bolivia", "1"}, {"Brazil", "1"}, {"Canada", "1"}, {"Chile", "1"},
            {"Colombia", "1"}, {"Cuba", "1"}, {"Ecuador", "1"}, {"Mexico", "1"}, {"Peru", "1"},
            {"United States", "1"}, {"Uruguay", "1"}, {"Venezuela", "1"}, {"Bangladesh", "2"}, {"Cambodia", "2"},
            {"China", "2"}, {"India", "2"}, {"Indonesia", "2"}, {"Japan", "2"}, {"Korea", "2"}, {"Malaysia", "2"},
            {"Mongolia", "2"}, {"Nepal", "2"}, {"Pakistan", "2"}, {"Philippines", "2"}, {"Thailand", "2"},
            {"Vietnam", "2"}, {"Australia", "3"}, {"Fiji", "3"}, {"New Zealand", "3"}, {"Samoa", "3"}, {"Tonga", "3"},
            {"Austria", "4"}, {"Belgium", "4"}, {"Czechia", "4"}, {"Denmark", "4"}, {"Finland", "4"}, {"France", "4"},
            {"Germany", "4"}, {"Greece", "4"}, {"Ireland", "4"}, {"Italy", "4"}, {"Netherlands", "4"},
            {"Norway", "4"}, {"Poland", "4"}, {"Portugal", "4"}, {"Spain", "4"}, {"Sweden", "4"},
            {"Switzerland", "4"}, {"United Kingdom", "4"}};
    private static final int[] NATION_KEYS = nationKeys();

    private final long seed;

    public ChGenerator(long seed) {
        this.seed = seed;
    }

    private static int[] nationKeys() {
        int[] keys = new int[62];
        int i = 0;
        for (char c = '0'; c <= '9'; c++) {
            keys[i++] = c;
        }
        for (char c = 'A'; c <= 'Z'; c++) {
            keys[i++] = c;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            keys[i++] = c;
        }
        return keys;
    }

    /** (r_regionkey, r_name, r_comment). */
    public void regions(Consumer<Object[]> out) {
        TpccRandom r = new TpccRandom(seed * 31 + 101);
        for (int k = 0; k < REGIONS.size(); k++) {
            out.accept(new Object[] {k, REGIONS.get(k), r.alphanumeric(31, 115)});
        }
    }

    /** (n_nationkey, n_name, n_regionkey, n_comment). */
    public void nations(Consumer<Object[]> out) {
        TpccRandom r = new TpccRandom(seed * 31 + 102);
        for (int i = 0; i < NATIONS.length; i++) {
            out.accept(new Object[] {NATION_KEYS[i], NATIONS[i][0], Integer.parseInt(NATIONS[i][1]), r.alphanumeric(31, 114)});
        }
    }

    /** (su_suppkey, su_name, su_address, su_nationkey, su_phone, su_acctbal as cents, su_comment), keys 1 to 10,000. */
    public void suppliers(Consumer<Object[]> out) {
        TpccRandom r = new TpccRandom(seed * 31 + 103);
        for (int k = 1; k <= SUPPLIERS; k++) {
            String comment = r.alphanumeric(51, 101);
            if (r.uniform(1, 200) == 1) {
                int at = r.uniform(0, comment.length() - 3);
                comment = comment.substring(0, at) + "bad" + comment.substring(at + 3);
            }
            out.accept(new Object[] {k, "Supplier#" + String.format("%09d", k), r.alphanumeric(20, 40),
                    NATION_KEYS[r.uniform(0, NATION_KEYS.length - 1)], r.numeric(15, 15),
                    r.decimal(-99_999, 999_999_999), comment});
        }
    }
}
