package io.flowsql.job;

import shark.CloseableHeapGraph;
import shark.GcRoot;
import shark.HeapField;
import shark.HeapObject;
import shark.HprofHeapGraph;
import shark.HprofRecord.HeapDumpRecord.ObjectRecord.ClassDumpRecord;
import shark.HprofRecordTag;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The shortest path from a GC root to each object of a JVM heap dump ({@code jcmd PID GC.heap_dump FILE}) that a test
 * names, as a heap analyser shows it: a dev tool for finding what keeps an ended job's class loader alive. The graph is
 * the JVM's: an instance holds its class, a class its loader, super class and static fields, an array its elements;
 * the referent of a weak or phantom reference holds nothing. A path that needs a soft reference (or an object waiting
 * for its finalizer) is searched only when no strong path exists, and is named so: such an object goes at the next GC
 * under memory pressure.
 */
final class HeapRootPaths {
    private static final long UNSEEN = -2;
    private static final long ROOT = -1;

    private final CloseableHeapGraph graph;
    private final Map<Long, String> rootNames = new HashMap<>();

    private HeapRootPaths(CloseableHeapGraph graph) {
        this.graph = graph;
    }

    /**
     * By hand, on a dump kept by the cluster test (or any): {@code HeapRootPaths FILE.hprof CLASS-NAME-REGEX} prints the
     * path to every instance whose class name the regex finds (the test classpath: {@code mvn -pl job
     * dependency:build-classpath} plus job/target/test-classes).
     */
    public static void main(String[] args) throws IOException {
        java.util.regex.Pattern names = java.util.regex.Pattern.compile(args[1]);
        report(Path.of(args[0]), i -> names.matcher(i.getInstanceClassName()).find(),
                i -> i.instanceOf("java.net.URLClassLoader") ? urls(i) : "").forEach(System.out::println);
    }

    /**
     * One report per object of the dump that {@code target} accepts: what it is, {@code describe}'s words about it, and
     * its shortest path from a GC root, one hop a line.
     */
    static List<String> report(Path hprof, Predicate<HeapObject.HeapInstance> target,
                               Function<HeapObject.HeapInstance, String> describe) throws IOException {
        EnumSet<HprofRecordTag> roots = EnumSet.noneOf(HprofRecordTag.class);
        for (HprofRecordTag tag : HprofRecordTag.values()) {
            if (tag.name().startsWith("ROOT_")) {
                roots.add(tag);
            }
        }
        try (CloseableHeapGraph graph = HprofHeapGraph.Companion.openHeapGraph(hprof.toFile(), null, roots)) {
            return new HeapRootPaths(graph).reportAll(target, describe);
        }
    }

    private List<String> reportAll(Predicate<HeapObject.HeapInstance> target,
                                   Function<HeapObject.HeapInstance, String> describe) {
        List<HeapObject.HeapInstance> targets = new ArrayList<>();
        for (Iterator<HeapObject.HeapInstance> it = graph.getInstances().iterator(); it.hasNext(); ) {
            HeapObject.HeapInstance instance = it.next();
            if (target.test(instance)) {
                targets.add(instance);
            }
        }
        List<String> reports = new ArrayList<>();
        if (targets.isEmpty()) {
            return reports;
        }
        Parents strong = search(false);
        Parents soft = null;
        for (HeapObject.HeapInstance t : targets) {
            StringBuilder out = new StringBuilder(t.getInstanceClassName()).append('@')
                    .append(Long.toHexString(t.getObjectId())).append(' ').append(describe.apply(t)).append('\n');
            Parents parents = strong;
            if (strong.get(t) == UNSEEN) {
                soft = soft == null ? search(true) : soft;
                parents = soft;
                out.append(soft.get(t) == UNSEEN ? "  no path from a GC root in the dump\n"
                        : "  reachable only through a soft reference or a finalizer:\n");
            }
            if (parents.get(t) != UNSEEN) {
                out.append(path(parents, t));
            }
            reports.add(out.toString());
        }
        return reports;
    }

    /** Breadth first from every GC root; the parent (object id) of each object reached ({@code ROOT} for a root). */
    private Parents search(boolean throughSoft) {
        Parents parent = new Parents(graph.getObjectCount());
        ArrayDeque<HeapObject> queue = new ArrayDeque<>();
        Map<Integer, String> threads = threadNamesBySerial();
        for (GcRoot root : graph.getGcRoots()) {
            HeapObject object = graph.findObjectByIdOrNull(root.getId());
            if (object != null && parent.get(object) == UNSEEN) {
                parent.set(object, ROOT);
                rootNames.put(object.getObjectId(), rootName(root, threads));
                queue.add(object);
            }
        }
        while (!queue.isEmpty()) {
            HeapObject object = queue.poll();
            forEachReference(object, throughSoft, false, (label, id) -> {
                HeapObject next = graph.findObjectByIdOrNull(id);
                if (next != null && parent.get(next) == UNSEEN) {
                    parent.set(next, object.getObjectId());
                    queue.add(next);
                }
            });
        }
        return parent;
    }

    private String path(Parents parent, HeapObject target) {
        List<HeapObject> hops = new ArrayList<>();
        for (HeapObject at = target; at != null; ) {
            hops.add(0, at);
            long up = parent.get(at);
            at = up == ROOT ? null : graph.findObjectById(up);
        }
        StringBuilder out = new StringBuilder("  GC root ").append(rootNames.getOrDefault(hops.get(0).getObjectId(), "?")).append('\n');
        for (int i = 0; i < hops.size(); i++) {
            HeapObject object = hops.get(i);
            out.append("  ").append(i == 0 ? "   " : "-> ").append(name(object));
            if (i + 1 < hops.size()) {
                long nextId = hops.get(i + 1).getObjectId();
                String[] label = {"?"};
                forEachReference(object, true, true, (l, id) -> {
                    if (id == nextId && "?".equals(label[0])) {
                        label[0] = l;
                    }
                });
                out.append("  .").append(label[0]);
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String name(HeapObject object) {
        if (object instanceof HeapObject.HeapClass c) {
            return "class " + c.getName();
        }
        if (object instanceof HeapObject.HeapInstance i) {
            String text = i.instanceOf("java.lang.Thread") ? " \"" + threadName(i) + "\"" : "";
            return i.getInstanceClassName() + text;
        }
        if (object instanceof HeapObject.HeapObjectArray a) {
            return a.getArrayClassName();
        }
        return object.toString();
    }

    /** The parent's object id of each object reached, by object index (indexes are not bounded by the object count). */
    private static final class Parents {
        private long[] parent;

        Parents(int expected) {
            parent = new long[Math.max(16, expected)];
            Arrays.fill(parent, UNSEEN);
        }

        long get(HeapObject object) {
            int index = object.getObjectIndex();
            return index < parent.length ? parent[index] : UNSEEN;
        }

        void set(HeapObject object, long parentId) {
            int index = object.getObjectIndex();
            if (index >= parent.length) {
                int old = parent.length;
                parent = Arrays.copyOf(parent, Math.max(index + 1, old + old / 2));
                Arrays.fill(parent, old, parent.length, UNSEEN);
            }
            parent[index] = parentId;
        }
    }

    private interface ReferenceSink {
        void accept(String label, long objectId);
    }

    /**
     * Every object {@code object} keeps alive, with the name of the field (or element, or class link) that holds it when
     * {@code named}.
     */
    private static void forEachReference(HeapObject object, boolean throughSoft, boolean named, ReferenceSink sink) {
        if (object instanceof HeapObject.HeapClass c) {
            ClassDumpRecord record = c.readRecord();
            sink.accept("<class loader>", record.getClassLoaderId());
            sink.accept("<super class>", record.getSuperclassId());
            sink.accept("<protection domain>", record.getProtectionDomainId());
            for (Iterator<HeapField> it = c.readStaticFields().iterator(); it.hasNext(); ) {
                HeapField field = it.next();
                Long id = field.getValue().getAsNonNullObjectId();
                if (id != null) {
                    sink.accept(named ? "static " + field.getName() : "", id);
                }
            }
        } else if (object instanceof HeapObject.HeapInstance i) {
            sink.accept("<class>", i.getInstanceClassId());
            boolean referentHolds = throughSoft && (i.instanceOf("java.lang.ref.SoftReference")
                    || i.instanceOf("java.lang.ref.FinalReference"));
            for (Iterator<HeapField> it = i.readFields().iterator(); it.hasNext(); ) {
                HeapField field = it.next();
                Long id = field.getValue().getAsNonNullObjectId();
                if (id == null) {
                    continue;
                }
                boolean ofReference = "java.lang.ref.Reference".equals(field.getDeclaringClass().getName());
                if (ofReference && ("discovered".equals(field.getName())
                        || ("referent".equals(field.getName()) && !referentHolds))) {
                    continue;
                }
                sink.accept(named ? field.getDeclaringClass().getSimpleName() + "." + field.getName() : "", id);
            }
        } else if (object instanceof HeapObject.HeapObjectArray a) {
            sink.accept("<class>", a.getArrayClassId());
            long[] elements = a.readRecord().getElementIds();
            for (int k = 0; k < elements.length; k++) {
                if (elements[k] != 0) {
                    sink.accept(named ? "[" + k + "]" : "", elements[k]);
                }
            }
        } // a primitive array holds nothing but its class, the JVM's own
    }

    private Map<Integer, String> threadNamesBySerial() {
        Map<Integer, String> names = new HashMap<>();
        for (GcRoot root : graph.getGcRoots()) {
            if (root instanceof GcRoot.ThreadObject t && graph.findObjectByIdOrNull(t.getId()) instanceof HeapObject.HeapInstance thread) {
                names.put(t.getThreadSerialNumber(), threadName(thread));
            }
        }
        return names;
    }

    private static String rootName(GcRoot root, Map<Integer, String> threads) {
        String kind = root.getClass().getSimpleName();
        if (root instanceof GcRoot.JavaFrame f) {
            return kind + " of thread \"" + threads.getOrDefault(f.getThreadSerialNumber(), "?") + "\" frame " + f.getFrameNumber();
        }
        return kind;
    }

    private static String threadName(HeapObject.HeapInstance thread) {
        HeapField name = thread.readField("java.lang.Thread", "name");
        String text = name == null ? null : name.getValue().readAsJavaString();
        return text == null ? "?" : text;
    }

    /** The URLs of a URLClassLoader instance of the dump (its {@code ucp.path}), e.g. the job's blob files. */
    static String urls(HeapObject.HeapInstance loader) {
        HeapField ucp = loader.readField("java.net.URLClassLoader", "ucp");
        HeapObject.HeapInstance classPath = ucp == null ? null : ucp.getValueAsInstance();
        HeapField path = classPath == null ? null : classPath.readField("jdk.internal.loader.URLClassPath", "path");
        HeapObject.HeapInstance list = path == null ? null : path.getValueAsInstance();
        if (list == null) {
            return "[]";
        }
        List<String> out = new ArrayList<>();
        HeapObject.HeapObjectArray data = list.readField("java.util.ArrayList", "elementData").getValueAsObjectArray();
        int size = list.readField("java.util.ArrayList", "size").getValue().getAsInt();
        long[] ids = data.readRecord().getElementIds();
        for (int k = 0; k < size; k++) {
            HeapObject url = loader.getGraph().findObjectByIdOrNull(ids[k]);
            if (url instanceof HeapObject.HeapInstance u) {
                HeapField file = u.readField("java.net.URL", "path");
                out.add(file == null ? "?" : file.getValue().readAsJavaString());
            }
        }
        return out.toString();
    }
}
