package org.oooengine.optimizer.scaling;

/**
 * The slowest of {@code n} nodes: a parallel step ends when its last node does. With each node's
 * time drawn around the mean with coefficient of variation {@code cv} (normal, independent), the
 * expected maximum of {@code n} is the mean times {@code 1 + cv·E[max of n standard normals]},
 * the latter by Blom's approximation {@code Φ⁻¹((n − 0.375)/(n + 0.25))}: 0 for one node, about
 * 1.05 for 4 (exactly 1.03), 2.0 for 32, 2.6 for 128.
 */
public final class Stragglers {
    private Stragglers() {
    }

    /** Expected maximum of {@code n} independent standard normal draws (0 for one). */
    public static double expectedMaxOfNormals(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be positive, got " + n);
        }
        return n == 1 ? 0 : inverseNormal((n - 0.375) / (n + 0.25));
    }

    /** How much longer than the mean node the slowest of {@code n} takes. */
    public static double factor(int n, double cv) {
        if (cv < 0) {
            throw new IllegalArgumentException("coefficient of variation cannot be negative, got " + cv);
        }
        return 1 + cv * expectedMaxOfNormals(n);
    }

    /** Φ⁻¹(p), Acklam's rational approximation (relative error below 1.2e-9). */
    static double inverseNormal(double p) {
        if (!(p > 0 && p < 1)) {
            throw new IllegalArgumentException("p must be in (0, 1), got " + p);
        }
        double[] a = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02,
            -3.066479806614716e+01, 2.506628277459239e+00};
        double[] b = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01,
            -1.328068155288572e+01};
        double[] c = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00,
            4.374664141464968e+00, 2.938163982698783e+00};
        double[] d = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00};
        double low = 0.02425;
        if (p < low) {
            double q = Math.sqrt(-2 * Math.log(p));
            return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                    / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
        }
        if (p > 1 - low) {
            return -inverseNormal(1 - p);
        }
        double q = p - 0.5;
        double r = q * q;
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
                / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    }
}
