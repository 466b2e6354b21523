/*
 * frame-normalize: a frame's label with what differs from run to run of
 * the same program left out, so that "jitsym diff" matches a function's
 * frames across two recordings. The rules, for JIT code (jitdump and perf
 * map frames) only, as ELF and kernel symbols do not change between runs:
 *
 *  - the tier marker frameclass.h finds (frame_class.mark_off/len): V8's
 *    "JS:*fib" / "JS:~fib" / "JS:^fib" / "JS:+fib" are "JS:fib"; .NET's
 *    "Ns.T::M()[Tier0]" / "[OptimizedTier1]" are "Ns.T::M()";
 *  - V8's older kind prefixes name the same functions: "LazyCompile:",
 *    "Function:" and "InterpretedFunction:" become "JS:" ("Script:",
 *    "Eval:" stay: they name other code);
 *  - heap and mmap addresses, "0x" and 8 or more hex digits, become
 *    "0x?" (they move with ASLR); shorter ones (QEMU's "guest-0x401000",
 *    offsets) name code and stay;
 *  - pids in side-file names: "jitted-1234-56.so" is "jitted-PID-N.so",
 *    "perf-1234.map" "perf-PID.map", "jit-1234.dump" "jit-PID.dump".
 *
 * For every kind, fold's "--annotate" suffixes "_[j]", "_[k]" and "_[i]" go. The
 * source location after a V8 name ("/app/x.js:3:10") stays: it tells
 * apart functions of the same name.
 */
#ifndef JITSYM_FRAME_NORMALIZE_H
#define JITSYM_FRAME_NORMALIZE_H

#include <stddef.h>

#include "resolve/sample.h"

struct sbuf;

/* Append the normal form of a frame label (len bytes, as aggregate.h writes it) to sb. */
void frame_normalize(struct sbuf *sb, const char *label, size_t len, enum frame_kind kind);

#endif
