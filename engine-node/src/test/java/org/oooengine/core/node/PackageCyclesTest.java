package org.oooengine.core.node;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import org.oooengine.core.PackageCycles;

/**
 * The packages of engine-node depend on each other one way (docs/architecture.md lists the order). Only
 * this module's packages are read: those of the modules below it are theirs to check, and Maven
 * refuses a module cycle.
 */
@AnalyzeClasses(packages = {"org.oooengine.core.net", "org.oooengine.core.cluster"}, importOptions = ImportOption.DoNotIncludeTests.class)
class PackageCyclesTest {
    @ArchTest
    static final ArchRule packages = PackageCycles.packagesOf("org.oooengine.core");

    @ArchTest
    static final ArchRule areas = PackageCycles.areasOf("org.oooengine.core");
}
