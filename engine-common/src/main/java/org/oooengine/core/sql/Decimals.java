package org.oooengine.core.sql;

import java.math.BigDecimal;

/**
 * Decimals from their stored form. Most stored decimals are small (quantities, discounts, tax
 * rates), and a scan would otherwise make a new object per value per row: those come from a
 * table made once per scale.
 */
public final class Decimals {
    private static final int CACHED = 1 << 14;
    private static final int MAX_CACHED_SCALE = 4;
    private static final BigDecimal[][] SMALL = new BigDecimal[MAX_CACHED_SCALE + 1][];

    static {
        for (int scale = 0; scale <= MAX_CACHED_SCALE; scale++) {
            BigDecimal[] values = new BigDecimal[CACHED];
            for (int i = 0; i < CACHED; i++) {
                values[i] = BigDecimal.valueOf(i, scale);
            }
            SMALL[scale] = values;
        }
    }

    private Decimals() {
    }

    /** {@code unscaled} × 10^-{@code scale}. */
    public static BigDecimal of(long unscaled, int scale) {
        if (unscaled >= 0 && unscaled < CACHED && scale >= 0 && scale <= MAX_CACHED_SCALE) {
            return SMALL[scale][(int) unscaled];
        }
        return BigDecimal.valueOf(unscaled, scale);
    }
}
