/*
 * srcline: the source lines of a resolved frame.
 *
 * Native code (FRAME_NATIVE) is looked up in DWARF through libdw, in the
 * files the frame's object view names (sample.h: its symfile, the debug
 * file or the binary; then its file, the binary, when the debug file has
 * no DWARF), so a frame alone is enough and no DSO is loaded here. When
 * the address lies in code the compiler inlined, every level is given: the innermost location
 * is the line table's, each outer one is the call site (DW_AT_call_file,
 * DW_AT_call_line) of the level inside it, and the last is the real,
 * out-of-line function. Functions are named as DWARF names them (C++ and
 * Rust linkage names demangled, without parameters); the frame's symbol
 * names the outermost when DWARF has none there (assembly). Each file's
 * Dwarf handle is kept open, and the result of each (file, address) is
 * cached, so a hot loop walks the DWARF once.
 *
 * JIT code (FRAME_JIT, FRAME_PERFMAP) uses the line table its jitdump's
 * JIT_CODE_DEBUG_INFO gave (see jitmap.h): one level, named after the
 * frame's symbol. Its address is jit->start + symoff, which for a caller
 * frame is the return address (elf_addr, for native frames, is already
 * the call site). A line is shown only where its file can have it:
 *  - a line without a file (its name was dropped as unusable, jit-name.h)
 *    is no line: the function's own file is not put in its place, since
 *    the line may be an inlined function's, of another script;
 *  - where the file the line table names is readable (an absolute path or
 *    file:// URL to a regular file, read once, read-only, never a FIFO),
 *    a line past its last line, or a column more than one past its line's
 *    last byte, is not shown (Node v20 names an inlined function's lines
 *    with its caller's script). An unreadable or empty file is not
 *    checked; the path is this machine's, --symfs or not. The
 *    cache counts these; srcline_cache__delete() says how many in one
 *    warning.
 *
 * Missing, stripped or corrupt DWARF gives no lines, never a crash and
 * never a message. Not thread-safe.
 */
#ifndef JITSYM_SRCLINE_H
#define JITSYM_SRCLINE_H

#include <stddef.h>
#include <stdint.h>

#include "resolve/sample.h"

struct strpool;
struct srcline_cache;

/* Longest inline chain kept for one address (deeper levels are dropped). */
#define SRCLINE_MAX_DEPTH 32

struct src_loc {
	const char *function;   /* interned; never NULL ("[unknown]" when DWARF has no name) */
	const char *file;       /* interned; as the jitdump gives it, or from DWARF made
	                           absolute with the unit's compilation directory */
	uint32_t line;          /* never 0 */
	uint32_t column;        /* 0 when unknown */
};

/* pool (borrowed) must outlive the cache and holds every string handed out. Never NULL. */
struct srcline_cache *srcline_cache__new(struct strpool *pool);
/*
 * For callers that look each address up once (pprof, per location): keep
 * no native answers, only the open files. Lookups answer the same.
 */
void srcline_cache__no_memo(struct srcline_cache *c);
/* Closes every file and frees the cached results (the warning above). Accepts NULL. */
void srcline_cache__delete(struct srcline_cache *c);

/*
 * Source locations of a frame: out[0] the innermost (an inlined callee,
 * when the address is in inlined code), the last the outermost (the real
 * function). Returns how many were filled (<= max); 0 when there is no
 * line info. Strings interned in pool.
 */
size_t srcline__lookup(struct srcline_cache *c, const struct frame *f, struct src_loc *out,
		       size_t max);

#endif
