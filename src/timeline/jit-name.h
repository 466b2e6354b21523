/*
 * jit-name: the strings a JIT runtime writes into its side files (function
 * names, debug-info file names), made safe where a loader reads them.
 * Function names keep every frame: each control byte (< 0x20, 0x7f) is
 * written as "\xNN". File names are all or nothing: one that is empty,
 * holds a control byte or is not valid UTF-8 is no file name.
 */
#ifndef JITSYM_JIT_NAME_H
#define JITSYM_JIT_NAME_H

#include <stdbool.h>
#include <stddef.h>

struct sbuf;

/*
 * name with each control byte as "\xNN", in out (reset first; out's cap
 * applies). Returns how many bytes were replaced: 0 means out holds name.
 */
size_t jit_name__clean(const char *name, struct sbuf *out);

/* Whether file is a usable file name: non-empty, printable, valid UTF-8. */
bool jit_name__file_ok(const char *file);

/*
 * The source path a function name carries in its last word, V8's
 * "JS:~fib /app/hot.js:3:10" or "LazyCompile:*f file:///a.mjs:1": its
 * start, its length (the ":LINE[:COLUMN]" left off) in *len; NULL when the
 * name carries none (no blank, or no ":LINE" after the path).
 */
const char *jit_name__path(const char *name, size_t *len);

#endif
