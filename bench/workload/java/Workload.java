// bench/workload/java/Workload.java: a Java workload for jitsym's benchmark,
// profiled through the JVM's perf map (/tmp/perf-PID.map).
//
//   javac -d CLASSES Workload.java
//   java -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit \
//        -XX:+PreserveFramePointer -cp CLASSES Workload [SECONDS]
//
// Runs for SECONDS (default 2) on the main thread and one worker: a tree
// of calls through an interface with several implementations (so C1 and C2
// compile many methods and inline some), collections (HashMap, TreeMap,
// ArrayList sort with a comparator), strings (StringBuilder, String.format,
// split), streams with lambdas, and recursion. -XX:+PreserveFramePointer
// lets perf record -g walk JIT frames; -XX:+DumpPerfMapAtExit makes the JVM
// write the perf map of all compiled methods when it exits.
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

public final class Workload {
	interface Stage {
		long run(long x, int depth);
	}

	static final Stage[] STAGES = new Stage[8];

	static long next(long x, int depth) {
		if (depth <= 0)
			return x;
		Stage s = STAGES[(int) ((x >>> 7) & 7)];
		return s.run(x * 6364136223846793005L + 1442695040888963407L, depth - 1);
	}

	static final class Arith implements Stage {
		public long run(long x, int depth) {
			long a = x;
			for (int i = 0; i < 200; i++)
				a = a * 31 + i ^ (a >>> 13);
			return next(a, depth) + a;
		}
	}

	static final class Strings implements Stage {
		public long run(long x, int depth) {
			StringBuilder sb = new StringBuilder();
			for (int i = 0; i < 20; i++)
				sb.append((char) ('a' + (int) ((x >>> i) & 15))).append(i);
			String[] parts = sb.toString().split("[0-9]+");
			return next(x + parts.length + sb.length(), depth);
		}
	}

	static final class Formats implements Stage {
		public long run(long x, int depth) {
			String s = String.format("%d:%x:%s", x & 0xffff, x >>> 40, depth);
			return next(x ^ s.hashCode(), depth);
		}
	}

	static final class Maps implements Stage {
		public long run(long x, int depth) {
			Map<Integer, Long> m = new HashMap<>();
			for (int i = 0; i < 64; i++)
				m.merge((int) ((x >>> (i & 31)) & 63), (long) i, Long::sum);
			long t = 0;
			for (Map.Entry<Integer, Long> e : m.entrySet())
				t += e.getKey() * e.getValue();
			return next(x + t, depth);
		}
	}

	static final class Sorted implements Stage {
		public long run(long x, int depth) {
			List<long[]> l = new ArrayList<>();
			for (int i = 0; i < 48; i++)
				l.add(new long[] { (x * (i + 3)) % 1009, i });
			l.sort(Comparator.comparingLong((long[] p) -> p[0]).thenComparingLong(p -> p[1]));
			return next(x + l.get(0)[1], depth);
		}
	}

	static final class Trees implements Stage {
		public long run(long x, int depth) {
			TreeMap<Long, Integer> t = new TreeMap<>();
			for (int i = 0; i < 40; i++)
				t.put((x >>> (i % 40)) % 997, i);
			Long k = t.ceilingKey(x % 997);
			return next(x + (k == null ? 0 : k), depth);
		}
	}

	static final class Streams implements Stage {
		public long run(long x, int depth) {
			String s = IntStream.range(0, 32).map(i -> (int) ((x >>> i) & 7))
				.filter(v -> v != 3).mapToObj(Integer::toString)
				.collect(Collectors.joining(","));
			return next(x + s.length(), depth);
		}
	}

	static final class Recur implements Stage {
		static long fib(int n) {
			return n < 2 ? n : fib(n - 1) + fib(n - 2);
		}

		public long run(long x, int depth) {
			return next(x + fib(12 + (int) (x & 3)), depth);
		}
	}

	static long loop(long end, long seed) {
		long total = 0, x = seed;
		while (System.nanoTime() < end) {
			for (int i = 0; i < 100; i++) {
				x = x * 2862933555777941757L + 3037000493L;
				total += next(x, 6 + (int) ((x >>> 33) & 7));
			}
		}
		return total;
	}

	public static void main(String[] args) throws Exception {
		double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 2;
		STAGES[0] = new Arith();
		STAGES[1] = new Strings();
		STAGES[2] = new Formats();
		STAGES[3] = new Maps();
		STAGES[4] = new Sorted();
		STAGES[5] = new Trees();
		STAGES[6] = new Streams();
		STAGES[7] = new Recur();
		long end = System.nanoTime() + (long) (seconds * 1e9);
		long[] other = new long[1];
		Thread worker = new Thread(() -> other[0] = loop(end, 12345), "bench-worker");
		worker.start();
		long total = loop(end, 1);
		worker.join();
		System.out.println("Workload: " + seconds + " s, result " + (total ^ other[0]));
	}
}
