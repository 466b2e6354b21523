// MarkerLoop: a task repeated ITERATIONS times (default 50), each
// iteration a span of samply's marker file marker-PID-iter.txt in the
// working directory, one line per iteration as it ends (flushed):
//
//	START END iteration K
//
// START and END from System.nanoTime() (CLOCK_MONOTONIC on Linux, the clock
// of `perf record -k 1`), K from 1. The task is ROUNDS rounds of
// examples/java/Warmup.java's pipeline (Warmup.round: 32 small static
// methods of straight-line int code), the same work in every iteration:
// its methods start in HotSpot's interpreter and are compiled as their
// invocation counters pass the thresholds, so under -Xbatch (compile in
// the foreground) and the same thresholds the iterations at which they
// change tier are the same in every run. tests/live/t-markers-java.sh
// runs it so, for "jitsym tiers --by marker" and "jitsym timeline".
//
// Usage: java -cp DIR MarkerLoop [ITERATIONS [ROUNDS]] (Warmup.class in DIR).
import java.io.FileWriter;
import java.io.IOException;

public class MarkerLoop {
	// one iteration: ROUNDS rounds of the pipeline
	static int task(int first, int rounds) {
		int t = 0;
		for (int r = 0; r < rounds; r++)
			t += Warmup.round(first + r);
		return t;
	}

	public static void main(String[] args) throws IOException {
		int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 50;
		int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 20000;
		long pid = ProcessHandle.current().pid();
		int total = 0;
		// StringBuilder, not "+": string concatenation bootstraps
		// java.lang.invoke (invokedynamic), tens of ms of cold code
		String path = new StringBuilder("marker-").append(pid).append("-iter.txt").toString();
		try (FileWriter out = new FileWriter(path)) {
			StringBuilder line = new StringBuilder();
			for (int k = 1; k <= iterations; k++) {
				long start = System.nanoTime();
				total += task(k * rounds, rounds);
				long end = System.nanoTime();
				line.setLength(0);
				line.append(start).append(' ').append(end).append(" iteration ").append(k).append('\n');
				out.write(line.toString());
				out.flush();
			}
		}
		StringBuilder sb = new StringBuilder("MarkerLoop: ");
		sb.append(iterations).append(" iterations of ").append(rounds).append(" rounds, ").append(total);
		System.err.println(sb);
	}
}
