package org.oooengine.core;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

/**
 * The rules of each module's {@code PackageCyclesTest}: the packages under a module's root package
 * depend on each other one way. A cycle ties packages together so that none can be understood,
 * tested or moved without the others.
 *
 * <p>Two granularities, as a cycle can hide from either: every package on its own (two packages
 * of one area needing each other), and every area, the classes directly in the root package being
 * one and each package below it with its sub-packages another (an area reaching back into one that
 * reaches it through a sub-package).
 *
 * <p>ArchUnit reads compiled classes: a use of another package's compile-time constant (a static
 * final String or number) is copied into the user and escapes these rules.
 */
public final class PackageCycles {
    private PackageCycles() {}

    /** No package under {@code root} (nor {@code root} itself) depends on one that depends on it. */
    public static ArchRule packagesOf(String root) {
        return slices().assignedFrom(new Slices(root, false)).should().beFreeOfCycles();
    }

    /** No area under {@code root} depends on one that depends on it. */
    public static ArchRule areasOf(String root) {
        return slices().assignedFrom(new Slices(root, true)).should().beFreeOfCycles();
    }

    private record Slices(String root, boolean areas) implements SliceAssignment {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String pkg = javaClass.getPackageName();
            if (pkg.equals(root)) {
                return SliceIdentifier.of(root);
            }
            if (!pkg.startsWith(root + ".")) {
                return SliceIdentifier.ignore();
            }
            if (!areas) {
                return SliceIdentifier.of(pkg);
            }
            int end = pkg.indexOf('.', root.length() + 1);
            return SliceIdentifier.of(end < 0 ? pkg : pkg.substring(0, end));
        }

        @Override
        public String getDescription() {
            return areas ? "the areas of " + root + " (each package below it with its sub-packages)"
                    : "the packages of " + root;
        }
    }
}
