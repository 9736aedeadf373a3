package org.oooengine.core.workloads;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import org.oooengine.core.PackageCycles;

/**
 * The packages of engine-workloads depend on each other one way (docs/architecture.md lists the order). Only
 * this module's packages are read: those of the modules below it are theirs to check, and Maven
 * refuses a module cycle.
 */
@AnalyzeClasses(packages = {"org.oooengine.core.tpch", "org.oooengine.core.tpcds"}, importOptions = ImportOption.DoNotIncludeTests.class)
class PackageCyclesTest {
    @ArchTest
    static final ArchRule packages = PackageCycles.packagesOf("org.oooengine.core");

    @ArchTest
    static final ArchRule areas = PackageCycles.areasOf("org.oooengine.core");
}
