package org.oooengine.core.settings;

import java.util.ArrayList;
import java.util.List;

/** The settings one group declares, in the order it declares them. */
final class Declarations {
    private final List<Setting<?>> declared = new ArrayList<>();

    <T> Setting<T> add(Setting.Builder<T> builder) {
        Setting<T> s = builder.build();
        declared.add(s);
        return s;
    }

    List<Setting<?>> all() {
        return List.copyOf(declared);
    }
}
