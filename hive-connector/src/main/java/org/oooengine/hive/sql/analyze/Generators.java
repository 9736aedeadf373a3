package org.oooengine.hive.sql.analyze;

import java.util.Locale;

/** The table-generating functions (Hive's UDTFs) the engine runs: explode and posexplode. */
final class Generators {
    private Generators() {
    }

    static boolean isGenerator(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.equals("explode") || n.equals("posexplode");
    }
}
