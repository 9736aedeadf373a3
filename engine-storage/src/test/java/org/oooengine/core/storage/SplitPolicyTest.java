package org.oooengine.core.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.KeyCodec;

/**
 * Where leaves split under each policy, and what that does to the fill of a tree that takes
 * TPC-C's order inserts (ascending order numbers within each warehouse and district): seed 001's
 * finding reproduced on a model of the leaf level.
 */
class SplitPolicyTest {
    private static final KeyCodec ORDER_KEY = new KeyCodec(new DataType[] {DataType.BIGINT, DataType.BIGINT, DataType.BIGINT});

    private static int[] sizes(int... bytes) {
        return bytes;
    }

    @Test
    void halfSplitsInTheMiddleByBytesWithinCapacity() {
        assertEquals(2, SplitPolicy.HALF.splitAt(new SplitPolicy.Split(sizes(10, 10, 10, 10), 1, 30, false, 0, 1, false)));
        // one large entry: the halves as even as the capacity lets them be
        assertEquals(3, SplitPolicy.HALF.splitAt(new SplitPolicy.Split(sizes(10, 10, 10, 60), 0, 60, false, 0, 1, false)));
        assertThrows(IllegalArgumentException.class,
                () -> SplitPolicy.HALF.splitAt(new SplitPolicy.Split(sizes(50, 50, 50), 0, 60, false, 0, 1, false)));
    }

    @Test
    void theRightEndOfTheTreeStartsANewPageWithTheNewEntryAloneExceptUnderHalf() {
        SplitPolicy.Split atTreeEnd = new SplitPolicy.Split(sizes(10, 10, 10, 10), 3, 30, true, 0, 1, true);
        assertEquals(3, SplitPolicy.RIGHTMOST.splitAt(atTreeEnd));
        assertEquals(3, SplitPolicy.PREFIX.splitAt(atTreeEnd));
        assertEquals(2, SplitPolicy.HALF.splitAt(atTreeEnd));
        // the end of a page inside the tree is no right end for the classic detector
        assertEquals(2, SplitPolicy.RIGHTMOST.splitAt(new SplitPolicy.Split(sizes(10, 10, 10, 10), 3, 30, false, 2, 3, true)));
    }

    @Test
    void rateLeavesTheRoomWhereRecentInsertsLanded() {
        // inserts bunched after the first entry: its side keeps the room, the other side fills to the run fill
        SplitPolicy.Split bunched = new SplitPolicy.Split(sizes(10, 10, 10, 10, 10, 10), 1, 50, false, 0, 1, false, 0.9,
                new int[] {8, 0, 0, 0, 0, 0});
        assertEquals(2, SplitPolicy.RATE.splitAt(bunched));
        assertEquals(3, SplitPolicy.HALF.splitAt(bunched));
        // inserts spread evenly: in the middle
        assertEquals(3, SplitPolicy.RATE.splitAt(new SplitPolicy.Split(sizes(10, 10, 10, 10, 10, 10), 1, 50, false, 0, 1,
                false, 0.9, new int[] {2, 2, 2, 2, 2, 2})));
        // too few inserts seen to go by: in the middle; a run: as prefix
        assertEquals(3, SplitPolicy.RATE.splitAt(new SplitPolicy.Split(sizes(10, 10, 10, 10, 10, 10), 1, 50, false, 0, 1,
                false, 0.9, new int[] {2, 0, 0, 0, 0, 0})));
        assertEquals(2, SplitPolicy.RATE.splitAt(new SplitPolicy.Split(sizes(10, 10, 10, 10), 1, 30, false, 2, 3, true)));
        // a run most recent inserts went into: as prefix; one among several growing prefixes: by the inserts
        SplitPolicy.Split oneRun = new SplitPolicy.Split(sizes(10, 10, 10, 10, 10, 10), 3, 50, false, 2, 3, true, 0.9,
                new int[] {0, 3, 3, 3, 0, 0});
        assertEquals(4, SplitPolicy.RATE.splitAt(oneRun));
        SplitPolicy.Split severalRuns = new SplitPolicy.Split(sizes(10, 10, 10, 10, 10, 10), 3, 50, false, 2, 3, true, 0.9,
                new int[] {4, 0, 1, 1, 0, 4});
        assertEquals(4, SplitPolicy.PREFIX.splitAt(severalRuns));
        assertEquals(3, SplitPolicy.RATE.splitAt(severalRuns), "room on both sides, where the inserts go");
        assertEquals(SplitPolicy.RATE, SplitPolicy.named("rate"));
    }

    @Test
    void prefixSplitsAfterAnInsertThatContinuesARunWithinAKeyPrefix() {
        // the new entry (slot 1) continues the page's run of inserts and shares (warehouse, district) with slot 0
        assertEquals(2, SplitPolicy.PREFIX.splitAt(new SplitPolicy.Split(sizes(10, 10, 10, 10), 1, 30, false, 2, 3, true)));
        // at the page's end, the run fills the page and the new entry goes on alone
        assertEquals(3, SplitPolicy.PREFIX.splitAt(new SplitPolicy.Split(sizes(10, 10, 10, 10), 3, 30, false, 2, 3, true)));
        // not a run: no run of inserts before it (at the page's end too: random inserts land there now and then),
        // a duplicate, a different first column, or a one-column key
        for (SplitPolicy.Split noRun : List.of(new SplitPolicy.Split(sizes(10, 10, 10, 10), 1, 30, false, 2, 3, false),
                new SplitPolicy.Split(sizes(10, 10, 10, 10), 3, 30, false, 2, 3, false),
                new SplitPolicy.Split(sizes(10, 10, 10, 10), 1, 30, false, 3, 3, true),
                new SplitPolicy.Split(sizes(10, 10, 10, 10), 1, 30, false, 0, 3, true),
                new SplitPolicy.Split(sizes(10, 10, 10, 10), 3, 30, false, 0, 1, true))) {
            assertEquals(2, SplitPolicy.PREFIX.splitAt(noRun), noRun.toString());
        }
        assertEquals(SplitPolicy.PREFIX, SplitPolicy.named("prefix"));
        assertThrows(IllegalArgumentException.class, () -> SplitPolicy.named("third"));
    }

    @Test
    void keysShareTheirLeadingColumns() {
        assertEquals(2, ORDER_KEY.sharedColumns(ORDER_KEY.encode(1L, 2L, 3L), ORDER_KEY.encode(1L, 2L, 4L)));
        assertEquals(3, ORDER_KEY.sharedColumns(ORDER_KEY.encode(1L, 2L, 3L), ORDER_KEY.encode(1L, 2L, 3L)));
        assertEquals(0, ORDER_KEY.sharedColumns(ORDER_KEY.encode(1L, 2L, 3L), ORDER_KEY.encode(2L, 2L, 3L)));
        KeyCodec named = new KeyCodec(new DataType[] {DataType.varchar(20), DataType.INT});
        assertEquals(1, named.sharedColumns(named.encode("a\u0000b", 1), named.encode("a\u0000b", 2)));
        assertEquals(0, named.sharedColumns(named.encode("a", 1), named.encode("ab", 1)));
    }

    /**
     * Orders inserted round-robin over 16 (warehouse, district) prefixes, each continuing its own
     * ascending order numbers, into a leaf level loaded full: the pages they grew are about half
     * full under HALF and RIGHTMOST (which never sees a right end here), nearly full under PREFIX.
     */
    @Test
    void ordersInsertedWithinPrefixesLeaveHalfFullPagesUnlessThePrefixPolicySplits() {
        double half = grownFill(SplitPolicy.HALF);
        double rightmost = grownFill(SplitPolicy.RIGHTMOST);
        double prefix = grownFill(SplitPolicy.PREFIX);
        assertTrue(half < 0.6 && rightmost < 0.6, "half " + half + ", rightmost " + rightmost);
        assertTrue(prefix > 0.95, "prefix " + prefix);
    }

    private static final int ENTRY = 40;
    private static final int CAPACITY = 4000;

    /** The leaf level as sorted pages of keys; the fill of the pages that hold inserted keys. */
    private static double grownFill(SplitPolicy policy) {
        List<List<byte[]>> pages = new ArrayList<>();
        List<Integer> lastInsert = new ArrayList<>();
        List<byte[]> page = new ArrayList<>();
        for (long prefix = 0; prefix < 16; prefix++) { // bulk load: 300 orders per district, pages full
            for (long order = 1; order <= 300; order++) {
                if (page.size() * ENTRY == CAPACITY) {
                    pages.add(page);
                    lastInsert.add(-1);
                    page = new ArrayList<>();
                }
                page.add(ORDER_KEY.encode(prefix / 4, prefix % 4, order));
            }
        }
        pages.add(page);
        lastInsert.add(-1);
        List<byte[]> inserted = new ArrayList<>();
        for (long order = 301; order <= 1300; order++) {
            for (long prefix = 0; prefix < 16; prefix++) {
                byte[] key = ORDER_KEY.encode(prefix / 4, prefix % 4, order);
                inserted.add(key);
                insert(pages, lastInsert, key, policy);
            }
        }
        long grownPages = 0;
        long bytes = 0;
        for (List<byte[]> p : pages) {
            if (p.stream().anyMatch(k -> inserted.stream().anyMatch(i -> Arrays.equals(i, k)))) {
                grownPages++;
                bytes += (long) p.size() * ENTRY;
            }
        }
        return bytes / (double) (grownPages * CAPACITY);
    }

    private static void insert(List<List<byte[]>> pages, List<Integer> lastInsert, byte[] key, SplitPolicy policy) {
        int at = pages.size() - 1;
        while (at > 0 && Arrays.compareUnsigned(pages.get(at).get(0), key) > 0) {
            at--;
        }
        List<byte[]> page = pages.get(at);
        int slot = 0;
        while (slot < page.size() && Arrays.compareUnsigned(page.get(slot), key) < 0) {
            slot++;
        }
        boolean afterLast = lastInsert.get(at) == slot - 1;
        page.add(slot, key);
        if (page.size() * ENTRY <= CAPACITY) {
            lastInsert.set(at, slot);
            return;
        }
        int[] sizes = new int[page.size()];
        Arrays.fill(sizes, ENTRY);
        int shared = slot == 0 ? 0 : ORDER_KEY.sharedColumns(page.get(slot - 1), key);
        int split = policy.splitAt(new SplitPolicy.Split(sizes, slot, CAPACITY, at == pages.size() - 1, shared, 3, afterLast));
        List<byte[]> right = new ArrayList<>(page.subList(split, page.size()));
        page.subList(split, page.size()).clear();
        pages.add(at + 1, right);
        lastInsert.add(at + 1, slot >= split ? slot - split : -1);
        lastInsert.set(at, slot < split ? slot : -1);
    }
}
