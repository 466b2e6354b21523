/*
 * native-demo: a CPU-bound program with a known call tree, profiled by the
 * live tests to check that jitsym and perf agree on native code.
 *
 * usage: native-demo [SECONDS]     (default 1; fractions allowed)
 *
 * NATIVE_DEMO_HASH_ROUNDS=N (1 to 100, default 1) makes hash_bytes do its
 * work N times over: a function made slower, for "jitsym diff" tests.
 *
 * Three threads repeat fixed, deterministic units of work until SECONDS
 * have passed (only the number of units depends on timing):
 *
 *   main thread, comm "native-demo":
 *     compute_unit -> stage_a -> mix_block -> hash_bytes    shared leaf, caller 1
 *                  -> stage_b -> hash_bytes                 shared leaf, caller 2
 *                  -> descend x 4..16 -> spin_leaf          recursion
 *                  -> demo_lib_checksum -> lib_fold_word    libdemo.so
 *                  -> demo_lib_apply -> step_callback       exe -> .so -> exe
 *   thread "demo sorter" (a comm with a space in it):
 *     sort_unit -> fill_keys                                leaf
 *               -> qsort -> ... -> cmp_keys                 libc calling back
 *               -> copy_unit -> memcpy                      libc leaf
 *   thread "demo-io":
 *     io_unit -> read_zero   -> read(2) on /dev/zero        kernel copy
 *             -> write_null  -> write(2) on /dev/null
 *             -> touch_pages -> mmap, page faults, munmap   kernel memory
 *             -> ask_parent  -> getppid(2)                  syscall entry
 *
 * Build with frame pointers so "perf record -g" unwinds user stacks:
 *   cc -O2 -g -fno-omit-frame-pointer -fPIC -shared \
 *      -Wl,-soname,libdemo.so -o libdemo.so libdemo.c
 *   cc -O2 -g -fno-omit-frame-pointer -pthread -o native-demo native-demo.c \
 *      -L. -ldemo -Wl,-rpath,'$ORIGIN'
 *
 * Exit status: 0 done, 1 a system call failed, 2 usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* noclone too: no "foo.constprop.0" or "foo.isra.0" copies in the profile. */
#ifdef __clang__
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noclone))
#endif

/*
 * gcc 12 sets up no frame in a leaf function that needs no stack, even with
 * -fno-omit-frame-pointer; a frame-pointer unwinder then loses the leaf's
 * caller. Asking for the frame address makes gcc build the frame.
 */
#define KEEP_FRAME() __asm__ volatile("" : : "r"(__builtin_frame_address(0)))

/* libdemo.so */
uint64_t demo_lib_checksum(const uint8_t *buf, size_t len);
uint64_t demo_lib_apply(uint64_t (*fn)(uint64_t), uint64_t seed,
			unsigned int rounds);

enum {
	BLOCK_SIZE = 64 * 1024,		/* bytes hashed per call */
	SPIN_ROUNDS = 60000,		/* iterations at the bottom of descend */
	APPLY_ROUNDS = 5000,		/* callbacks per demo_lib_apply */
	NR_KEYS = 16384,		/* keys sorted per sort_unit */
	COPY_SIZE = 1024 * 1024,	/* bytes per memcpy */
	COPIES = 8,			/* memcpys per copy_unit */
	IO_CHUNK = 64 * 1024,		/* bytes per read or write */
	IO_CALLS = 16,			/* reads and writes per io_unit */
	TOUCH_SIZE = 1024 * 1024,	/* bytes mapped and faulted in */
	PPID_CALLS = 2000,		/* getppid calls per io_unit */
};

struct worker {
	const char *name;		/* thread name, at most 15 chars */
	uint64_t (*unit)(uint64_t);	/* one deterministic unit of work */
	double deadline;		/* CLOCK_MONOTONIC seconds */
	unsigned long units;		/* out: units done */
	uint64_t result;		/* out: folded results */
};

static uint8_t block[BLOCK_SIZE];
static int zero_fd = -1, null_fd = -1;

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t xorshift(uint64_t x)
{
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

/* ---- main thread: compute ---- */

/* How many times hash_bytes goes over its bytes: NATIVE_DEMO_HASH_ROUNDS. */
static unsigned int hash_rounds = 1;

/* FNV-1a: the hot leaf with two callers (mix_block and stage_b). */
static NOINLINE uint64_t hash_bytes(const uint8_t *p, size_t n, uint64_t h)
{
	size_t i;
	unsigned int r;

	KEEP_FRAME();

	for (r = 0; r < hash_rounds; r++)
		for (i = 0; i < n; i++)
			h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

static NOINLINE uint64_t mix_block(uint64_t seed)
{
	uint64_t h = hash_bytes(block, BLOCK_SIZE, seed);

	__asm__ volatile("" : "+r"(h));
	return h;
}

static NOINLINE uint64_t stage_a(uint64_t seed)
{
	uint64_t h = mix_block(seed);

	__asm__ volatile("" : "+r"(h));
	return h ^ 0xa;
}

static NOINLINE uint64_t stage_b(uint64_t seed)
{
	uint64_t h = hash_bytes(block, BLOCK_SIZE / 2, ~seed);

	__asm__ volatile("" : "+r"(h));
	return h ^ 0xb;
}

static NOINLINE uint64_t spin_leaf(uint64_t x, unsigned int rounds)
{
	unsigned int i;

	KEEP_FRAME();

	for (i = 0; i < rounds; i++)
		x = xorshift(x) + i;
	return x;
}

static NOINLINE uint64_t descend(unsigned int depth, uint64_t x)
{
	uint64_t r;

	if (depth == 0)
		return spin_leaf(x, SPIN_ROUNDS);
	r = descend(depth - 1, x * 31 + depth);
	/* Work after the call keeps it from becoming a tail call (a loop). */
	__asm__ volatile("" : "+r"(r));
	return r + depth;
}

/* Called from libdemo.so's demo_lib_apply. */
static NOINLINE uint64_t step_callback(uint64_t v)
{
	int i;

	KEEP_FRAME();

	for (i = 0; i < 8; i++)
		v = xorshift(v) ^ (v >> 3);
	return v;
}

static NOINLINE uint64_t compute_unit(uint64_t n)
{
	uint64_t r = 0;

	r ^= stage_a(n);
	r ^= stage_b(n);
	r ^= descend(4 + n % 13, n);
	r ^= demo_lib_checksum(block, BLOCK_SIZE / 4);
	r ^= demo_lib_apply(step_callback, n + 1, APPLY_ROUNDS);
	return r;
}

/* ---- "demo sorter" thread: libc ---- */

static uint32_t keys[NR_KEYS];
static uint8_t copy_src[COPY_SIZE], copy_dst[COPY_SIZE];

static int cmp_keys(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	KEEP_FRAME();

	return (a > b) - (a < b);
}

static NOINLINE void fill_keys(uint64_t seed)
{
	uint64_t x = seed * 2654435761u + 1;
	int i;

	KEEP_FRAME();

	for (i = 0; i < NR_KEYS; i++) {
		x = xorshift(x);
		keys[i] = (uint32_t)(x >> 32);
	}
}

static NOINLINE uint64_t copy_unit(uint64_t n)
{
	int i;

	for (i = 0; i < COPIES; i++) {
		copy_src[(n + i) % COPY_SIZE] = (uint8_t)i;
		memcpy(copy_dst, copy_src, COPY_SIZE);
		__asm__ volatile("" : : "r"(copy_dst) : "memory");
	}
	return copy_dst[n % COPY_SIZE];
}

static NOINLINE uint64_t sort_unit(uint64_t n)
{
	fill_keys(n);
	qsort(keys, NR_KEYS, sizeof(keys[0]), cmp_keys);
	return keys[NR_KEYS / 2] ^ copy_unit(n);
}

/* ---- "demo-io" thread: system calls ---- */

static NOINLINE int read_zero(uint8_t *buf)
{
	int i;

	for (i = 0; i < IO_CALLS; i++)
		if (read(zero_fd, buf, IO_CHUNK) != IO_CHUNK)
			return -1;
	return 0;
}

static NOINLINE int write_null(const uint8_t *buf)
{
	int i;

	for (i = 0; i < IO_CALLS; i++)
		if (write(null_fd, buf, IO_CHUNK) != IO_CHUNK)
			return -1;
	return 0;
}

static NOINLINE int touch_pages(uint64_t n)
{
	volatile uint8_t *p;
	size_t off;

	p = mmap(NULL, TOUCH_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	for (off = 0; off < TOUCH_SIZE; off += 4096)
		p[off] = (uint8_t)(n + off);
	return munmap((void *)p, TOUCH_SIZE);
}

static NOINLINE uint64_t ask_parent(void)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < PPID_CALLS; i++)
		sum += (uint64_t)getppid();
	return sum;
}

static NOINLINE uint64_t io_unit(uint64_t n)
{
	static uint8_t buf[IO_CHUNK];

	if (read_zero(buf) || write_null(buf) || touch_pages(n)) {
		/* A demo: a failing system call ends the run. */
		perror("native-demo: i/o unit failed");
		exit(1);
	}
	return ask_parent() + buf[n % IO_CHUNK];
}

/* ---- driver ---- */

static void *worker_run(void *arg)
{
	struct worker *w = arg;

	if (w->name)
		pthread_setname_np(pthread_self(), w->name);
	do {
		w->result ^= w->unit(w->units);
		w->units++;
	} while (now_sec() < w->deadline);
	return NULL;
}

static int parse_seconds(int argc, char **argv, double *secs)
{
	char *end;

	*secs = 1.0;
	if (argc > 2)
		return -1;
	if (argc < 2)
		return 0;
	errno = 0;
	*secs = strtod(argv[1], &end);
	if (errno || end == argv[1] || *end || !(*secs > 0 && *secs <= 3600))
		return -1;
	return 0;
}

static int parse_rounds(void)
{
	const char *v = getenv("NATIVE_DEMO_HASH_ROUNDS");
	char *end;
	unsigned long n;

	if (!v)
		return 0;
	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || end == v || *end || n < 1 || n > 100)
		return -1;
	hash_rounds = (unsigned int)n;
	return 0;
}

static int open_devices(void)
{
	zero_fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	if (zero_fd < 0) {
		perror("native-demo: cannot open '/dev/zero'");
		return -1;
	}
	null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null_fd < 0) {
		perror("native-demo: cannot open '/dev/null'");
		return -1;
	}
	return 0;
}

static void fill_inputs(void)
{
	uint64_t x = 0x123456789abcdefULL;
	size_t i;

	for (i = 0; i < BLOCK_SIZE; i++) {
		x = xorshift(x);
		block[i] = (uint8_t)x;
	}
	memset(copy_src, 0x5a, sizeof(copy_src));
}

int main(int argc, char **argv)
{
	struct worker w[] = {
		{ .name = NULL, .unit = compute_unit },
		{ .name = "demo sorter", .unit = sort_unit },
		{ .name = "demo-io", .unit = io_unit },
	};
	pthread_t tid[2];
	double secs, deadline;
	uint64_t sum = 0;
	int i, err;

	if (parse_seconds(argc, argv, &secs) || parse_rounds()) {
		fprintf(stderr, "usage: [NATIVE_DEMO_HASH_ROUNDS=1..100] native-demo [SECONDS]\n");
		return 2;
	}
	if (open_devices())
		return 1;
	fill_inputs();

	deadline = now_sec() + secs;
	for (i = 0; i < 3; i++)
		w[i].deadline = deadline;
	for (i = 0; i < 2; i++) {
		err = pthread_create(&tid[i], NULL, worker_run, &w[i + 1]);
		if (err) {
			fprintf(stderr, "native-demo: cannot create thread: %s\n",
				strerror(err));
			return 1;
		}
	}
	worker_run(&w[0]);
	for (i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);

	for (i = 0; i < 3; i++)
		sum ^= w[i].result;
	/* stderr: stdout may be perf's pipe-mode output (perf record -o -) */
	fprintf(stderr, "native-demo: %g s, units %lu/%lu/%lu, result %016llx\n", secs,
	       w[0].units, w[1].units, w[2].units, (unsigned long long)sum);
	return 0;
}
