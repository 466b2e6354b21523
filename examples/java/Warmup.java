// A Java workload that warms up, for "jitsym tiers": one task repeated
// for a fixed number of rounds, each round passing a value through the same
// pipeline of distinct small static methods ("stages", straight-line int
// code; they differ only in their constants). Every stage starts in
// HotSpot's template interpreter ("Interpreter" in the perf map), then is
// compiled by C1 and C2 as its invocation counters pass their thresholds,
// so the time spent interpreting falls round by round.
//
// HotSpot tiers a method up by its invocation and backedge counts, not by
// the clock: run with -Xbatch (compile in the foreground) the rounds at
// which the stages change tier are the same in every run.
// tests/live/t-tiers-java.sh runs it that way.
//
// This file was generated (the stage bodies); edit the generator in the
// comment at the end rather than the stages by hand.
//
// Usage: java Warmup.java [ROUNDS] (default 300000).
public class Warmup {
	static int stage0(int x) {
		int s = (x ^ 0) & 0x3fffffff;
		s = ((s & 0xffff) * 31 + (s >> 1) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 33 + (s >> 2) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 35 + (s >> 3) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 37 + (s >> 4) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 39 + (s >> 5) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 41 + (s >> 1) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 43 + (s >> 2) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 45 + (s >> 3) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 47 + (s >> 4) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 49 + (s >> 5) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 51 + (s >> 1) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 53 + (s >> 2) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 55 + (s >> 3) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 57 + (s >> 4) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 59 + (s >> 5) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 61 + (s >> 1) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 63 + (s >> 2) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 65 + (s >> 3) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 67 + (s >> 4) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 69 + (s >> 5) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 71 + (s >> 1) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 73 + (s >> 2) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 3) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 4) + 23) & 0x3fffffff;
		return s;
	}
	static int stage1(int x) {
		int s = (x ^ 1) & 0x3fffffff;
		s = ((s & 0xffff) * 33 + (s >> 1) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 35 + (s >> 2) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 37 + (s >> 3) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 39 + (s >> 4) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 41 + (s >> 5) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 43 + (s >> 1) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 45 + (s >> 2) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 47 + (s >> 3) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 49 + (s >> 4) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 51 + (s >> 5) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 53 + (s >> 1) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 55 + (s >> 2) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 57 + (s >> 3) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 59 + (s >> 4) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 61 + (s >> 5) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 63 + (s >> 1) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 65 + (s >> 2) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 67 + (s >> 3) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 69 + (s >> 4) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 71 + (s >> 5) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 73 + (s >> 1) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 2) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 3) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 4) + 22) & 0x3fffffff;
		return s;
	}
	static int stage2(int x) {
		int s = (x ^ 2) & 0x3fffffff;
		s = ((s & 0xffff) * 35 + (s >> 1) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 37 + (s >> 2) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 39 + (s >> 3) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 41 + (s >> 4) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 43 + (s >> 5) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 45 + (s >> 1) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 47 + (s >> 2) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 49 + (s >> 3) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 51 + (s >> 4) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 53 + (s >> 5) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 55 + (s >> 1) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 57 + (s >> 2) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 59 + (s >> 3) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 61 + (s >> 4) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 63 + (s >> 5) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 65 + (s >> 1) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 67 + (s >> 2) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 69 + (s >> 3) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 71 + (s >> 4) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 73 + (s >> 5) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 1) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 2) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 3) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 4) + 21) & 0x3fffffff;
		return s;
	}
	static int stage3(int x) {
		int s = (x ^ 3) & 0x3fffffff;
		s = ((s & 0xffff) * 37 + (s >> 1) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 39 + (s >> 2) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 41 + (s >> 3) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 43 + (s >> 4) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 45 + (s >> 5) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 47 + (s >> 1) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 49 + (s >> 2) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 51 + (s >> 3) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 53 + (s >> 4) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 55 + (s >> 5) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 57 + (s >> 1) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 59 + (s >> 2) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 61 + (s >> 3) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 63 + (s >> 4) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 65 + (s >> 5) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 67 + (s >> 1) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 69 + (s >> 2) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 71 + (s >> 3) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 73 + (s >> 4) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 5) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 1) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 2) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 3) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 4) + 20) & 0x3fffffff;
		return s;
	}
	static int stage4(int x) {
		int s = (x ^ 4) & 0x3fffffff;
		s = ((s & 0xffff) * 39 + (s >> 1) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 41 + (s >> 2) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 43 + (s >> 3) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 45 + (s >> 4) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 47 + (s >> 5) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 49 + (s >> 1) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 51 + (s >> 2) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 53 + (s >> 3) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 55 + (s >> 4) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 57 + (s >> 5) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 59 + (s >> 1) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 61 + (s >> 2) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 63 + (s >> 3) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 65 + (s >> 4) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 67 + (s >> 5) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 69 + (s >> 1) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 71 + (s >> 2) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 73 + (s >> 3) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 4) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 5) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 1) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 2) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 3) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 4) + 19) & 0x3fffffff;
		return s;
	}
	static int stage5(int x) {
		int s = (x ^ 5) & 0x3fffffff;
		s = ((s & 0xffff) * 41 + (s >> 1) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 43 + (s >> 2) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 45 + (s >> 3) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 47 + (s >> 4) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 49 + (s >> 5) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 51 + (s >> 1) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 53 + (s >> 2) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 55 + (s >> 3) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 57 + (s >> 4) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 59 + (s >> 5) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 61 + (s >> 1) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 63 + (s >> 2) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 65 + (s >> 3) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 67 + (s >> 4) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 69 + (s >> 5) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 71 + (s >> 1) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 73 + (s >> 2) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 3) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 4) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 5) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 1) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 2) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 3) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 4) + 18) & 0x3fffffff;
		return s;
	}
	static int stage6(int x) {
		int s = (x ^ 6) & 0x3fffffff;
		s = ((s & 0xffff) * 43 + (s >> 1) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 45 + (s >> 2) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 47 + (s >> 3) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 49 + (s >> 4) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 51 + (s >> 5) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 53 + (s >> 1) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 55 + (s >> 2) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 57 + (s >> 3) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 59 + (s >> 4) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 61 + (s >> 5) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 63 + (s >> 1) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 65 + (s >> 2) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 67 + (s >> 3) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 69 + (s >> 4) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 71 + (s >> 5) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 73 + (s >> 1) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 2) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 3) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 4) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 5) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 1) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 2) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 3) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 4) + 17) & 0x3fffffff;
		return s;
	}
	static int stage7(int x) {
		int s = (x ^ 7) & 0x3fffffff;
		s = ((s & 0xffff) * 45 + (s >> 1) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 47 + (s >> 2) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 49 + (s >> 3) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 51 + (s >> 4) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 53 + (s >> 5) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 55 + (s >> 1) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 57 + (s >> 2) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 59 + (s >> 3) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 61 + (s >> 4) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 63 + (s >> 5) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 65 + (s >> 1) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 67 + (s >> 2) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 69 + (s >> 3) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 71 + (s >> 4) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 73 + (s >> 5) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 1) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 2) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 3) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 4) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 5) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 1) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 2) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 3) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 4) + 16) & 0x3fffffff;
		return s;
	}
	static int stage8(int x) {
		int s = (x ^ 8) & 0x3fffffff;
		s = ((s & 0xffff) * 47 + (s >> 1) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 49 + (s >> 2) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 51 + (s >> 3) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 53 + (s >> 4) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 55 + (s >> 5) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 57 + (s >> 1) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 59 + (s >> 2) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 61 + (s >> 3) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 63 + (s >> 4) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 65 + (s >> 5) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 67 + (s >> 1) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 69 + (s >> 2) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 71 + (s >> 3) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 73 + (s >> 4) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 5) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 1) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 2) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 3) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 4) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 5) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 1) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 2) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 3) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 4) + 31) & 0x3fffffff;
		return s;
	}
	static int stage9(int x) {
		int s = (x ^ 9) & 0x3fffffff;
		s = ((s & 0xffff) * 49 + (s >> 1) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 51 + (s >> 2) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 53 + (s >> 3) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 55 + (s >> 4) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 57 + (s >> 5) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 59 + (s >> 1) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 61 + (s >> 2) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 63 + (s >> 3) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 65 + (s >> 4) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 67 + (s >> 5) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 69 + (s >> 1) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 71 + (s >> 2) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 73 + (s >> 3) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 4) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 5) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 1) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 2) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 3) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 4) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 5) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 1) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 2) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 3) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 4) + 30) & 0x3fffffff;
		return s;
	}
	static int stage10(int x) {
		int s = (x ^ 10) & 0x3fffffff;
		s = ((s & 0xffff) * 51 + (s >> 1) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 53 + (s >> 2) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 55 + (s >> 3) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 57 + (s >> 4) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 59 + (s >> 5) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 61 + (s >> 1) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 63 + (s >> 2) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 65 + (s >> 3) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 67 + (s >> 4) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 69 + (s >> 5) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 71 + (s >> 1) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 73 + (s >> 2) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 3) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 4) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 5) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 1) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 2) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 3) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 4) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 5) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 1) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 2) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 3) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 97 + (s >> 4) + 29) & 0x3fffffff;
		return s;
	}
	static int stage11(int x) {
		int s = (x ^ 11) & 0x3fffffff;
		s = ((s & 0xffff) * 53 + (s >> 1) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 55 + (s >> 2) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 57 + (s >> 3) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 59 + (s >> 4) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 61 + (s >> 5) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 63 + (s >> 1) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 65 + (s >> 2) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 67 + (s >> 3) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 69 + (s >> 4) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 71 + (s >> 5) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 73 + (s >> 1) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 2) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 3) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 4) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 5) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 1) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 2) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 3) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 4) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 5) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 1) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 2) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 97 + (s >> 3) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 99 + (s >> 4) + 28) & 0x3fffffff;
		return s;
	}
	static int stage12(int x) {
		int s = (x ^ 12) & 0x3fffffff;
		s = ((s & 0xffff) * 55 + (s >> 1) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 57 + (s >> 2) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 59 + (s >> 3) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 61 + (s >> 4) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 63 + (s >> 5) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 65 + (s >> 1) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 67 + (s >> 2) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 69 + (s >> 3) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 71 + (s >> 4) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 73 + (s >> 5) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 1) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 2) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 3) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 4) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 5) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 1) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 2) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 3) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 4) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 5) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 1) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 97 + (s >> 2) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 99 + (s >> 3) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 101 + (s >> 4) + 27) & 0x3fffffff;
		return s;
	}
	static int stage13(int x) {
		int s = (x ^ 13) & 0x3fffffff;
		s = ((s & 0xffff) * 57 + (s >> 1) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 59 + (s >> 2) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 61 + (s >> 3) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 63 + (s >> 4) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 65 + (s >> 5) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 67 + (s >> 1) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 69 + (s >> 2) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 71 + (s >> 3) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 73 + (s >> 4) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 5) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 1) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 2) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 3) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 4) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 5) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 1) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 2) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 3) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 4) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 5) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 97 + (s >> 1) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 99 + (s >> 2) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 101 + (s >> 3) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 103 + (s >> 4) + 26) & 0x3fffffff;
		return s;
	}
	static int stage14(int x) {
		int s = (x ^ 14) & 0x3fffffff;
		s = ((s & 0xffff) * 59 + (s >> 1) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 61 + (s >> 2) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 63 + (s >> 3) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 65 + (s >> 4) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 67 + (s >> 5) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 69 + (s >> 1) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 71 + (s >> 2) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 73 + (s >> 3) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 4) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 5) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 1) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 2) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 3) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 4) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 5) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 1) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 2) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 3) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 4) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 97 + (s >> 5) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 99 + (s >> 1) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 101 + (s >> 2) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 103 + (s >> 3) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 105 + (s >> 4) + 25) & 0x3fffffff;
		return s;
	}
	static int stage15(int x) {
		int s = (x ^ 15) & 0x3fffffff;
		s = ((s & 0xffff) * 61 + (s >> 1) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 63 + (s >> 2) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 65 + (s >> 3) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 67 + (s >> 4) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 69 + (s >> 5) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 71 + (s >> 1) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 73 + (s >> 2) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 3) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 4) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 5) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 1) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 2) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 3) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 4) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 5) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 1) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 2) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 3) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 97 + (s >> 4) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 99 + (s >> 5) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 101 + (s >> 1) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 103 + (s >> 2) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 105 + (s >> 3) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 107 + (s >> 4) + 24) & 0x3fffffff;
		return s;
	}
	static int stage16(int x) {
		int s = (x ^ 16) & 0x3fffffff;
		s = ((s & 0xffff) * 63 + (s >> 1) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 65 + (s >> 2) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 67 + (s >> 3) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 69 + (s >> 4) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 71 + (s >> 5) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 73 + (s >> 1) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 2) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 3) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 4) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 5) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 1) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 2) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 3) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 4) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 5) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 1) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 2) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 97 + (s >> 3) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 99 + (s >> 4) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 101 + (s >> 5) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 103 + (s >> 1) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 105 + (s >> 2) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 107 + (s >> 3) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 109 + (s >> 4) + 7) & 0x3fffffff;
		return s;
	}
	static int stage17(int x) {
		int s = (x ^ 17) & 0x3fffffff;
		s = ((s & 0xffff) * 65 + (s >> 1) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 67 + (s >> 2) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 69 + (s >> 3) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 71 + (s >> 4) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 73 + (s >> 5) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 1) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 2) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 3) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 4) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 5) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 1) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 2) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 3) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 4) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 5) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 1) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 97 + (s >> 2) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 99 + (s >> 3) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 101 + (s >> 4) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 103 + (s >> 5) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 105 + (s >> 1) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 107 + (s >> 2) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 109 + (s >> 3) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 111 + (s >> 4) + 6) & 0x3fffffff;
		return s;
	}
	static int stage18(int x) {
		int s = (x ^ 18) & 0x3fffffff;
		s = ((s & 0xffff) * 67 + (s >> 1) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 69 + (s >> 2) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 71 + (s >> 3) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 73 + (s >> 4) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 5) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 1) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 2) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 3) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 4) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 5) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 1) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 2) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 3) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 4) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 5) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 97 + (s >> 1) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 99 + (s >> 2) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 101 + (s >> 3) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 103 + (s >> 4) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 105 + (s >> 5) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 107 + (s >> 1) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 109 + (s >> 2) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 111 + (s >> 3) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 113 + (s >> 4) + 5) & 0x3fffffff;
		return s;
	}
	static int stage19(int x) {
		int s = (x ^ 19) & 0x3fffffff;
		s = ((s & 0xffff) * 69 + (s >> 1) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 71 + (s >> 2) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 73 + (s >> 3) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 4) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 5) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 1) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 2) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 3) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 4) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 5) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 1) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 2) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 3) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 4) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 97 + (s >> 5) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 99 + (s >> 1) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 101 + (s >> 2) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 103 + (s >> 3) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 105 + (s >> 4) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 107 + (s >> 5) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 109 + (s >> 1) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 111 + (s >> 2) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 113 + (s >> 3) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 115 + (s >> 4) + 4) & 0x3fffffff;
		return s;
	}
	static int stage20(int x) {
		int s = (x ^ 20) & 0x3fffffff;
		s = ((s & 0xffff) * 71 + (s >> 1) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 73 + (s >> 2) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 3) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 4) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 5) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 1) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 2) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 3) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 4) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 5) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 1) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 2) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 3) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 97 + (s >> 4) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 99 + (s >> 5) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 101 + (s >> 1) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 103 + (s >> 2) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 105 + (s >> 3) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 107 + (s >> 4) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 109 + (s >> 5) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 111 + (s >> 1) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 113 + (s >> 2) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 115 + (s >> 3) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 117 + (s >> 4) + 3) & 0x3fffffff;
		return s;
	}
	static int stage21(int x) {
		int s = (x ^ 21) & 0x3fffffff;
		s = ((s & 0xffff) * 73 + (s >> 1) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 2) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 3) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 4) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 5) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 1) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 2) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 3) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 4) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 5) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 1) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 2) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 97 + (s >> 3) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 99 + (s >> 4) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 101 + (s >> 5) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 103 + (s >> 1) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 105 + (s >> 2) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 107 + (s >> 3) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 109 + (s >> 4) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 111 + (s >> 5) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 113 + (s >> 1) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 115 + (s >> 2) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 117 + (s >> 3) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 119 + (s >> 4) + 2) & 0x3fffffff;
		return s;
	}
	static int stage22(int x) {
		int s = (x ^ 22) & 0x3fffffff;
		s = ((s & 0xffff) * 75 + (s >> 1) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 2) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 3) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 4) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 5) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 1) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 2) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 3) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 4) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 5) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 1) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 97 + (s >> 2) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 99 + (s >> 3) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 101 + (s >> 4) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 103 + (s >> 5) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 105 + (s >> 1) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 107 + (s >> 2) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 109 + (s >> 3) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 111 + (s >> 4) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 113 + (s >> 5) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 115 + (s >> 1) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 117 + (s >> 2) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 119 + (s >> 3) + 0) & 0x3fffffff;
		s = ((s & 0xffff) * 121 + (s >> 4) + 1) & 0x3fffffff;
		return s;
	}
	static int stage23(int x) {
		int s = (x ^ 23) & 0x3fffffff;
		s = ((s & 0xffff) * 77 + (s >> 1) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 2) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 3) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 4) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 5) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 1) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 2) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 3) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 4) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 5) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 97 + (s >> 1) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 99 + (s >> 2) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 101 + (s >> 3) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 103 + (s >> 4) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 105 + (s >> 5) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 107 + (s >> 1) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 109 + (s >> 2) + 7) & 0x3fffffff;
		s = ((s & 0xffff) * 111 + (s >> 3) + 6) & 0x3fffffff;
		s = ((s & 0xffff) * 113 + (s >> 4) + 5) & 0x3fffffff;
		s = ((s & 0xffff) * 115 + (s >> 5) + 4) & 0x3fffffff;
		s = ((s & 0xffff) * 117 + (s >> 1) + 3) & 0x3fffffff;
		s = ((s & 0xffff) * 119 + (s >> 2) + 2) & 0x3fffffff;
		s = ((s & 0xffff) * 121 + (s >> 3) + 1) & 0x3fffffff;
		s = ((s & 0xffff) * 123 + (s >> 4) + 0) & 0x3fffffff;
		return s;
	}
	static int stage24(int x) {
		int s = (x ^ 24) & 0x3fffffff;
		s = ((s & 0xffff) * 79 + (s >> 1) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 2) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 3) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 4) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 5) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 1) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 2) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 3) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 4) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 97 + (s >> 5) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 99 + (s >> 1) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 101 + (s >> 2) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 103 + (s >> 3) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 105 + (s >> 4) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 107 + (s >> 5) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 109 + (s >> 1) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 111 + (s >> 2) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 113 + (s >> 3) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 115 + (s >> 4) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 117 + (s >> 5) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 119 + (s >> 1) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 121 + (s >> 2) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 123 + (s >> 3) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 125 + (s >> 4) + 15) & 0x3fffffff;
		return s;
	}
	static int stage25(int x) {
		int s = (x ^ 25) & 0x3fffffff;
		s = ((s & 0xffff) * 81 + (s >> 1) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 2) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 3) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 4) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 5) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 1) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 2) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 3) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 97 + (s >> 4) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 99 + (s >> 5) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 101 + (s >> 1) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 103 + (s >> 2) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 105 + (s >> 3) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 107 + (s >> 4) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 109 + (s >> 5) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 111 + (s >> 1) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 113 + (s >> 2) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 115 + (s >> 3) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 117 + (s >> 4) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 119 + (s >> 5) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 121 + (s >> 1) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 123 + (s >> 2) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 125 + (s >> 3) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 127 + (s >> 4) + 14) & 0x3fffffff;
		return s;
	}
	static int stage26(int x) {
		int s = (x ^ 26) & 0x3fffffff;
		s = ((s & 0xffff) * 83 + (s >> 1) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 2) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 3) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 4) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 5) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 1) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 2) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 97 + (s >> 3) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 99 + (s >> 4) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 101 + (s >> 5) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 103 + (s >> 1) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 105 + (s >> 2) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 107 + (s >> 3) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 109 + (s >> 4) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 111 + (s >> 5) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 113 + (s >> 1) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 115 + (s >> 2) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 117 + (s >> 3) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 119 + (s >> 4) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 121 + (s >> 5) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 123 + (s >> 1) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 125 + (s >> 2) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 127 + (s >> 3) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 129 + (s >> 4) + 13) & 0x3fffffff;
		return s;
	}
	static int stage27(int x) {
		int s = (x ^ 27) & 0x3fffffff;
		s = ((s & 0xffff) * 85 + (s >> 1) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 2) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 3) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 4) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 5) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 1) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 97 + (s >> 2) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 99 + (s >> 3) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 101 + (s >> 4) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 103 + (s >> 5) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 105 + (s >> 1) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 107 + (s >> 2) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 109 + (s >> 3) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 111 + (s >> 4) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 113 + (s >> 5) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 115 + (s >> 1) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 117 + (s >> 2) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 119 + (s >> 3) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 121 + (s >> 4) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 123 + (s >> 5) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 125 + (s >> 1) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 127 + (s >> 2) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 129 + (s >> 3) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 131 + (s >> 4) + 12) & 0x3fffffff;
		return s;
	}
	static int stage28(int x) {
		int s = (x ^ 28) & 0x3fffffff;
		s = ((s & 0xffff) * 87 + (s >> 1) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 2) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 3) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 4) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 5) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 97 + (s >> 1) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 99 + (s >> 2) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 101 + (s >> 3) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 103 + (s >> 4) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 105 + (s >> 5) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 107 + (s >> 1) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 109 + (s >> 2) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 111 + (s >> 3) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 113 + (s >> 4) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 115 + (s >> 5) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 117 + (s >> 1) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 119 + (s >> 2) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 121 + (s >> 3) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 123 + (s >> 4) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 125 + (s >> 5) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 127 + (s >> 1) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 129 + (s >> 2) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 131 + (s >> 3) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 133 + (s >> 4) + 11) & 0x3fffffff;
		return s;
	}
	static int stage29(int x) {
		int s = (x ^ 29) & 0x3fffffff;
		s = ((s & 0xffff) * 89 + (s >> 1) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 2) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 3) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 4) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 97 + (s >> 5) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 99 + (s >> 1) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 101 + (s >> 2) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 103 + (s >> 3) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 105 + (s >> 4) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 107 + (s >> 5) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 109 + (s >> 1) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 111 + (s >> 2) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 113 + (s >> 3) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 115 + (s >> 4) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 117 + (s >> 5) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 119 + (s >> 1) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 121 + (s >> 2) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 123 + (s >> 3) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 125 + (s >> 4) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 127 + (s >> 5) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 129 + (s >> 1) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 131 + (s >> 2) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 133 + (s >> 3) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 135 + (s >> 4) + 10) & 0x3fffffff;
		return s;
	}
	static int stage30(int x) {
		int s = (x ^ 30) & 0x3fffffff;
		s = ((s & 0xffff) * 91 + (s >> 1) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 2) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 3) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 97 + (s >> 4) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 99 + (s >> 5) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 101 + (s >> 1) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 103 + (s >> 2) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 105 + (s >> 3) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 107 + (s >> 4) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 109 + (s >> 5) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 111 + (s >> 1) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 113 + (s >> 2) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 115 + (s >> 3) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 117 + (s >> 4) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 119 + (s >> 5) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 121 + (s >> 1) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 123 + (s >> 2) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 125 + (s >> 3) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 127 + (s >> 4) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 129 + (s >> 5) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 131 + (s >> 1) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 133 + (s >> 2) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 135 + (s >> 3) + 8) & 0x3fffffff;
		s = ((s & 0xffff) * 137 + (s >> 4) + 9) & 0x3fffffff;
		return s;
	}
	static int stage31(int x) {
		int s = (x ^ 31) & 0x3fffffff;
		s = ((s & 0xffff) * 93 + (s >> 1) + 31) & 0x3fffffff;
		s = ((s & 0xffff) * 95 + (s >> 2) + 30) & 0x3fffffff;
		s = ((s & 0xffff) * 97 + (s >> 3) + 29) & 0x3fffffff;
		s = ((s & 0xffff) * 99 + (s >> 4) + 28) & 0x3fffffff;
		s = ((s & 0xffff) * 101 + (s >> 5) + 27) & 0x3fffffff;
		s = ((s & 0xffff) * 103 + (s >> 1) + 26) & 0x3fffffff;
		s = ((s & 0xffff) * 105 + (s >> 2) + 25) & 0x3fffffff;
		s = ((s & 0xffff) * 107 + (s >> 3) + 24) & 0x3fffffff;
		s = ((s & 0xffff) * 109 + (s >> 4) + 23) & 0x3fffffff;
		s = ((s & 0xffff) * 111 + (s >> 5) + 22) & 0x3fffffff;
		s = ((s & 0xffff) * 113 + (s >> 1) + 21) & 0x3fffffff;
		s = ((s & 0xffff) * 115 + (s >> 2) + 20) & 0x3fffffff;
		s = ((s & 0xffff) * 117 + (s >> 3) + 19) & 0x3fffffff;
		s = ((s & 0xffff) * 119 + (s >> 4) + 18) & 0x3fffffff;
		s = ((s & 0xffff) * 121 + (s >> 5) + 17) & 0x3fffffff;
		s = ((s & 0xffff) * 123 + (s >> 1) + 16) & 0x3fffffff;
		s = ((s & 0xffff) * 125 + (s >> 2) + 15) & 0x3fffffff;
		s = ((s & 0xffff) * 127 + (s >> 3) + 14) & 0x3fffffff;
		s = ((s & 0xffff) * 129 + (s >> 4) + 13) & 0x3fffffff;
		s = ((s & 0xffff) * 131 + (s >> 5) + 12) & 0x3fffffff;
		s = ((s & 0xffff) * 133 + (s >> 1) + 11) & 0x3fffffff;
		s = ((s & 0xffff) * 135 + (s >> 2) + 10) & 0x3fffffff;
		s = ((s & 0xffff) * 137 + (s >> 3) + 9) & 0x3fffffff;
		s = ((s & 0xffff) * 139 + (s >> 4) + 8) & 0x3fffffff;
		return s;
	}
	static int round(int r) {
		int x = r;
		x = stage0(x);
		x = stage1(x);
		x = stage2(x);
		x = stage3(x);
		x = stage4(x);
		x = stage5(x);
		x = stage6(x);
		x = stage7(x);
		x = stage8(x);
		x = stage9(x);
		x = stage10(x);
		x = stage11(x);
		x = stage12(x);
		x = stage13(x);
		x = stage14(x);
		x = stage15(x);
		x = stage16(x);
		x = stage17(x);
		x = stage18(x);
		x = stage19(x);
		x = stage20(x);
		x = stage21(x);
		x = stage22(x);
		x = stage23(x);
		x = stage24(x);
		x = stage25(x);
		x = stage26(x);
		x = stage27(x);
		x = stage28(x);
		x = stage29(x);
		x = stage30(x);
		x = stage31(x);
		return x;
	}

	public static void main(String[] args) {
		int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 300000;
		int total = 0;
		for (int r = 0; r < rounds; r++)
			total += round(r);
		// a StringBuilder, not "+": string concatenation bootstraps
		// java.lang.invoke (invokedynamic), tens of ms of cold code
		// interpreted at the end of the run
		StringBuilder sb = new StringBuilder("Warmup: ");
		sb.append(rounds).append(" rounds of 32 stages, ").append(total);
		System.err.println(sb);
	}
}
/*
 * Generator (python3):
 *   for i in range(32): stage{i}(x): s = (x ^ i) & 0x3fffffff, then 24 times
 *   (k = 0..23): s = ((s & 0xffff) * (31 + 2 * ((i + k) % 97)) + (s >> (1 + k % 5)) + (k ^ i)) & 0x3fffffff
 */
