package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** A queue of splits hands each out once, however many take from its two ends at once. */
class SplitQueuesTest {
    @Test
    void theOwnerAndThievesTakeEachSplitOnce() throws Exception {
        SplitQueues queues = new SplitQueues();
        int size = 10_000;
        List<Integer> taken = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            boolean back = t > 0; // the owner from the front, three thieves from the back
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                // whoever comes first makes the queue
                SplitQueues.Queue q = queues.of("scan-1", size);
                for (int i = back ? q.takeBack() : q.takeFront(); i >= 0; i = back ? q.takeBack() : q.takeFront()) {
                    taken.add(i);
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(size, taken.size());
        assertEquals(size, taken.stream().distinct().count());
        // a thief that asks once the queue ran dry hears so, rather than meeting a new one
        assertEquals(-1, queues.of("scan-1", size).takeBack());
        assertEquals(0, queues.of("scan-2", 0).left());
    }
}
