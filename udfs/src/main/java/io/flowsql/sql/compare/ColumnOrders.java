package io.flowsql.sql.compare;

import java.util.ArrayList;
import java.util.List;

/**
 * The column orders worth trying when columns may be permuted: columns are sorted by their content,
 * and only columns with identical content (ties) may still swap places.
 */
final class ColumnOrders {

    private ColumnOrders() {}

    /** Every order that permutes only tied columns, or just the sorted order when there would be more than {@code cap}. */
    static List<int[]> withinTies(Integer[] sorted, String[] signature, int cap) {
        List<int[]> groups = new ArrayList<>();
        int start = 0;
        long count = 1;
        for (int i = 1; i <= sorted.length; i++) {
            if (i == sorted.length || !signature[sorted[i]].equals(signature[sorted[start]])) {
                int[] group = new int[i - start];
                for (int k = 0; k < group.length; k++) {
                    group[k] = sorted[start + k];
                }
                groups.add(group);
                count *= factorial(group.length, cap);
                count = Math.min(count, (long) cap + 1);
                start = i;
            }
        }
        List<int[]> orders = new ArrayList<>();
        if (count > cap) {
            int[] single = new int[sorted.length];
            for (int i = 0; i < single.length; i++) {
                single[i] = sorted[i];
            }
            orders.add(single);
            return orders;
        }
        expand(groups, 0, new ArrayList<>(), orders);
        return orders;
    }

    private static void expand(List<int[]> groups, int index, List<Integer> prefix, List<int[]> out) {
        if (index == groups.size()) {
            out.add(prefix.stream().mapToInt(Integer::intValue).toArray());
            return;
        }
        for (int[] permutation : permutations(groups.get(index))) {
            List<Integer> next = new ArrayList<>(prefix);
            for (int c : permutation) {
                next.add(c);
            }
            expand(groups, index + 1, next, out);
        }
    }

    private static List<int[]> permutations(int[] items) {
        List<int[]> out = new ArrayList<>();
        permute(items.clone(), 0, out);
        return out;
    }

    private static void permute(int[] items, int k, List<int[]> out) {
        if (k == items.length) {
            out.add(items.clone());
            return;
        }
        for (int i = k; i < items.length; i++) {
            swap(items, k, i);
            permute(items, k + 1, out);
            swap(items, k, i);
        }
    }

    private static void swap(int[] a, int i, int j) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }

    private static long factorial(int n, int cap) {
        long f = 1;
        for (int i = 2; i <= n && f <= cap; i++) {
            f *= i;
        }
        return f;
    }
}
