package org.oooengine.core;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The packages of engine-common depend on each other one way (docs/architecture.md lists the order). */
@AnalyzeClasses(packages = "org.oooengine.core", importOptions = ImportOption.DoNotIncludeTests.class)
class PackageCyclesTest {
    @ArchTest
    static final ArchRule packages = PackageCycles.packagesOf("org.oooengine.core");

    @ArchTest
    static final ArchRule areas = PackageCycles.areasOf("org.oooengine.core");
}
