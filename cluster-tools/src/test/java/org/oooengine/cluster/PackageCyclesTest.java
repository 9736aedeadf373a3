package org.oooengine.cluster;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import org.oooengine.core.PackageCycles;

/** The packages of cluster-tools depend on each other one way (docs/architecture.md lists the order). */
@AnalyzeClasses(packages = "org.oooengine.cluster", importOptions = ImportOption.DoNotIncludeTests.class)
class PackageCyclesTest {
    @ArchTest
    static final ArchRule packages = PackageCycles.packagesOf("org.oooengine.cluster");

    @ArchTest
    static final ArchRule areas = PackageCycles.areasOf("org.oooengine.cluster");
}
