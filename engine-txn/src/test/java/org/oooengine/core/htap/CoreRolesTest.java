package org.oooengine.core.htap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.oooengine.core.htap.CoreRoles.Role;

/** Slots bound how many tasks of a role run at once, move between roles, and hold a role to its share of the cores. */
class CoreRolesTest {
    @Test
    void slotsLimitHowManyTasksOfARoleRunAtOnceAndMove() throws Exception {
        CoreRoles roles = new CoreRoles(Map.of(Role.OLTP, 1, Role.OLAP, 2, Role.LOG_SHIPPING, 1, Role.DISPATCH, 1));
        CoreRoles.Slot first = roles.enter(Role.OLTP);
        java.util.concurrent.atomic.AtomicBoolean ran = new java.util.concurrent.atomic.AtomicBoolean();
        Thread second = new Thread(() -> roles.run(Role.OLTP, () -> ran.set(true)));
        second.start();
        Thread.sleep(100);
        assertTrue(!ran.get(), "a second OLTP task ran on one slot");
        assertTrue(roles.move(Role.OLAP, Role.OLTP));
        second.join(10_000);
        assertTrue(ran.get(), "a slot moved to OLTP did not let the waiting task run");
        first.close();
        assertEquals(Map.of(Role.OLTP, 2, Role.OLAP, 1, Role.LOG_SHIPPING, 1, Role.DISPATCH, 1), roles.slots());
        assertTrue(!roles.move(Role.OLAP, Role.OLTP), "a role was left without a slot");
        CoreRoles.Use oltp = roles.sample().get(Role.OLTP);
        assertTrue(oltp.meanWaiting() > 0 && oltp.busy() > 0, oltp.toString());
    }

    /** A role held to its share of the cores pauses at its yields: one slot of eight of one core is an eighth of it. */
    @Test
    void aRoleUsesNoMoreThanItsShareOfTheCores() throws Exception {
        CoreRoles roles = new CoreRoles(Map.of(Role.OLTP, 5, Role.OLAP, 1, Role.LOG_SHIPPING, 1, Role.DISPATCH, 1));
        roles.shareCores(1);
        long start = System.nanoTime();
        long cpu = 0;
        try (CoreRoles.Slot s = roles.enter(Role.OLAP)) {
            var threads = java.lang.management.ManagementFactory.getThreadMXBean();
            long cpu0 = threads.getCurrentThreadCpuTime();
            while (System.nanoTime() - start < 1_000_000_000L) {
                long spin = System.nanoTime();
                while (System.nanoTime() - spin < 2_000_000L) {
                    Thread.onSpinWait();
                }
                s.yieldSlot();
            }
            cpu = threads.getCurrentThreadCpuTime() - cpu0;
        }
        double share = cpu / (double) (System.nanoTime() - start);
        assertTrue(share < 0.25, "OLAP used " + share + " of a core with 1 slot of 8");
        assertTrue(roles.sample().get(Role.OLAP).cpu() > 0);
    }
}
