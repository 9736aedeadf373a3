package org.oooengine.core.storage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Checks a B+tree's invariants, page by page from the root: every page at the level its parent
 * expects; keys strictly increasing in each page; every key of a child (its first key included,
 * kept at or below everything under it) at or above its separator and below the next one; the leaves, walked by their links from the first, exactly the
 * leaves in key order, the last one the meta page's; the entries counted as the meta page says.
 * Reads through the tree's buffer pool, so every page's checksum is checked too.
 */
public final class BTreeChecker {
    private final BTree tree;
    private final List<String> problems = new ArrayList<>();
    private final List<Long> leavesInOrder = new ArrayList<>();
    private long entries;

    private BTreeChecker(BTree tree) {
        this.tree = tree;
    }

    /** What is wrong with {@code tree}; empty when nothing is. */
    public static List<String> problems(BTree tree) {
        BTreeChecker c = new BTreeChecker(tree);
        c.run();
        return c.problems;
    }

    private void run() {
        TreeMeta meta = tree.meta();
        Page root = tree.page(meta.root()).join();
        visit(root, root.level(), null, null);
        if (entries != meta.entryCount()) {
            problems.add("the meta page counts " + meta.entryCount() + " entries, the leaves hold " + entries);
        }
        if (!leavesInOrder.isEmpty()) {
            if (leavesInOrder.get(0) != meta.firstLeaf()) {
                problems.add("the first leaf is page " + leavesInOrder.get(0) + ", the meta page says " + meta.firstLeaf());
            }
            long last = leavesInOrder.get(leavesInOrder.size() - 1);
            if (last != meta.lastLeaf()) {
                problems.add("the last leaf is page " + last + ", the meta page says " + meta.lastLeaf());
            }
        }
        List<Long> linked = new ArrayList<>();
        for (long p = meta.firstLeaf(); p >= 0 && linked.size() <= leavesInOrder.size(); p = tree.page(p).join().next()) {
            linked.add(p);
        }
        if (!linked.equals(leavesInOrder)) {
            problems.add("the leaves linked from the first are " + abbreviated(linked) + ", in key order they are "
                    + abbreviated(leavesInOrder));
        }
    }

    /** Checks {@code page} and what is under it: its keys within [low, high) (null: unbounded). */
    private void visit(Page page, int level, byte[] low, byte[] high) {
        String where = "page " + page.pageNo();
        if (page.level() != level) {
            problems.add(where + " is at level " + page.level() + " where level " + level + " was expected");
            return;
        }
        if (page.isLeaf() != (level == 0)) {
            problems.add(where + " at level " + level + " is " + (page.isLeaf() ? "a leaf" : "not a leaf"));
            return;
        }
        for (int i = 0; i < page.count(); i++) {
            byte[] key = page.key(i);
            if (i > 0 && Arrays.compareUnsigned(page.key(i - 1), key) >= 0) {
                problems.add(where + ": key " + i + " is not above key " + (i - 1));
            }
            if (low != null && Arrays.compareUnsigned(key, low) < 0 || high != null && Arrays.compareUnsigned(key, high) >= 0) {
                problems.add(where + ": key " + i + " is outside the range its parent gives the page");
            }
        }
        if (page.isLeaf()) {
            leavesInOrder.add(page.pageNo());
            entries += page.count();
            return;
        }
        if (page.count() == 0) {
            problems.add(where + " is an internal page without children");
            return;
        }
        for (int i = 0; i < page.count(); i++) {
            byte[] childLow = i == 0 ? low : page.key(i);
            byte[] childHigh = i + 1 < page.count() ? page.key(i + 1) : high;
            visit(tree.page(page.child(i)).join(), level - 1, childLow, childHigh);
        }
    }

    private static String abbreviated(List<Long> pages) {
        return pages.size() <= 12 ? pages.toString()
                : pages.subList(0, 6) + "..." + pages.subList(pages.size() - 6, pages.size()) + " (" + pages.size() + ")";
    }
}
