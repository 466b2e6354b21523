/*
 * Kernel symbols from a kallsyms file, and the policy deciding which
 * kallsyms file may be trusted for a recording.
 *
 * A kallsyms line is "ADDR TYPE NAME" or "ADDR TYPE NAME\t[MODULE]". Like
 * perf, we keep types T t W w D d B b (text, weak, data, bss: checked with
 * perf 6.1 "perf script --kallsyms"; data symbols matter because they end
 * the text symbol before them) and drop the rest, names starting with '$'
 * (ARM mapping symbols) and address 0 (per-cpu offsets, or kptr_restrict).
 *
 * Symbol extents follow perf too, since kallsyms has no sizes:
 *  - a symbol ends where the next higher address starts;
 *  - of several symbols at one address the one listed last in the file
 *    wins (perf keeps the one its end fix-up gave a non-zero size);
 *  - the last symbol, and the last one before the core kernel/module
 *    boundary, end one page past the page boundary at or after their
 *    start: round_up(start, 4096) + 4096. perf applies that rule only between
 *    core kernel and modules and clips module symbols with the module's
 *    mapping; we have no mappings here, so we apply it at every change of
 *    module as well.
 *
 * Symbols handed out have their strings interned in the strpool given to
 * kernel_syms__load() or kernel_syms__new() (names on first use), and
 * live as long as it does.
 */
#ifndef JITSYM_KERNEL_H
#define JITSYM_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "resolve/sample.h"

struct strpool;
struct kernel_syms;

struct ksym {
	uint64_t start;
	uint64_t end;           /* exclusive */
	const char *name;
	const char *module;     /* "ext4" for "[ext4]"; NULL for core kernel */
	const char *dso;        /* what perf script prints, see ksym__dso_name() */
	char type;              /* kallsyms type letter: T t W w D d B b */
};

/* The DSO perf script prints for core kernel frames (UNKNOWN_LABEL for misses). */
#define KSYM_DSO_KERNEL  SAMPLE_DSO_KERNEL
/* Default kallsyms of the running kernel. */
#define KERNEL_PROC_KALLSYMS "/proc/kallsyms"

/*
 * Read and index a kallsyms file. Malformed lines are skipped with a
 * warning naming file and line. Returns NULL when the file cannot be read
 * (after error()) or holds no usable symbol, e.g. only zero addresses
 * because of kptr_restrict (after warning()); errno is set either way.
 */
struct kernel_syms *kernel_syms__load(const char *path, struct strpool *pool);
/*
 * The same, read when first needed: by kernel_syms__usable(), __find(),
 * __nr() or __at(), which print kernel_syms__load()'s messages then. A
 * file that gives no symbols leaves an empty set. Does no I/O; never NULL.
 */
struct kernel_syms *kernel_syms__new(const char *path, struct strpool *pool);
void kernel_syms__delete(struct kernel_syms *ks);   /* accepts NULL */
/* Whether the set has symbols (reading it first if needed). */
bool kernel_syms__usable(struct kernel_syms *ks);

/* The symbol covering addr, or NULL. O(log n). */
const struct ksym *kernel_syms__find(struct kernel_syms *ks, uint64_t addr);
/* Number of symbols kept (after dropping duplicates); index order = address. */
size_t kernel_syms__nr(struct kernel_syms *ks);
const struct ksym *kernel_syms__at(struct kernel_syms *ks, size_t idx);

/*
 * What perf script prints in parentheses for a kernel frame:
 * "[kernel.kallsyms]" for the core kernel, "[MODULE]" for a module symbol,
 * the symbol's own name for BPF programs ("[bpf]" in kallsyms; perf names
 * their DSO after the program), "[unknown]" for NULL. For example:
 *	ffffffff816b8f46 ksys_read+0x66 ([kernel.kallsyms])
 *	ffffffffc0001010 foo_fn+0x10 ([foo_bar])
 *	ffffffffc0008000 [unknown] ([unknown])
 * perf 6.1 prints misses differently by context (checked): with kernel
 * symbols loaded, a miss is "[unknown] ([unknown])", but "[unknown]
 * ([MODULE])" inside a module's MMAP range; with no kernel symbols at all,
 * every kernel frame is "[unknown] ([kernel.kallsyms])".
 */
const char *ksym__dso_name(const struct ksym *sym);

/*
 * Build id of the running kernel, from the GNU build-id note (name "GNU",
 * type 3) in /sys/kernel/notes. Returns its size (at most outsz bytes are
 * copied), or a negative errno: -ENOENT when there is no such note.
 */
int kernel__running_build_id(uint8_t *out, size_t outsz);
/* The same, from a buffer holding ELF notes; for tests and other sources. */
int kernel__notes_build_id(const void *notes, size_t len, uint8_t *out, size_t outsz);

/* Whether two build ids are equal, the longer one allowed extra zero bytes (padding). */
bool kernel__build_id_equal(const uint8_t *a, size_t asz, const uint8_t *b, size_t bsz);

/*
 * Whether the running kernel is the one a recording was made on: osrelease
 * (HEADER_OSRELEASE) must equal uname -r and, when the recording has a
 * [kernel.kallsyms] build id (build_id_size > 0), it must equal the running
 * kernel's. Build ids of different sizes match when the longer one only
 * adds zero bytes (old perf.data files pad build ids to 24 bytes).
 * osrelease NULL never matches. On a mismatch *why (if why is not NULL)
 * gets a short static reason for messages.
 */
bool kernel__running_matches(const char *osrelease, const uint8_t *build_id,
			     size_t build_id_size, const char **why);

/*
 * Choose the kallsyms file to use for a recording, in this order:
 * user_path (--kallsyms) if given; the copy perf record leaves in its
 * build-id cache, $HOME/.debug/[kernel.kallsyms]/BUILDID/kallsyms, when the
 * recording has a kernel build id; /proc/kallsyms when
 * kernel__running_matches(). Returns a heap string to free(), or NULL
 * after a warning saying why no kallsyms can be trusted.
 */
char *kernel__kallsyms_path(const char *user_path, const char *osrelease,
			    const uint8_t *build_id, size_t build_id_size);

#endif
