/*
 * Demangling of native symbol names, the way perf script shows them.
 *
 * C++ (Itanium ABI) and Rust (legacy "_ZN...17h<hash>E" and v0 "_R...")
 * go through libiberty's cplus_demangle(); OCaml names ("camlModule__fn_12")
 * are decoded here. Like perf, a Rust legacy hash ("::h0123456789abcdef")
 * is dropped, and parameter lists are shown only on request (perf shows
 * them with -v only).
 */
#ifndef JITSYM_DEMANGLE_H
#define JITSYM_DEMANGLE_H

#include <stdbool.h>

enum demangle_flags {
	DEMANGLE_PARAMS = 1 << 0,   /* "ns::f(int, char const*)" rather than "ns::f" */
};

/*
 * The demangled form of name as a fresh heap string (free() it), or NULL
 * when name is not a mangled name this module knows. name must not be NULL.
 */
char *demangle__name(const char *name, unsigned int flags);

/*
 * Whether demangle__name() may have to parse name as C++ or Rust ("_Z...",
 * "_R..."): the costly case. Other names it returns quickly, mostly NULL.
 */
bool demangle__is_costly(const char *name);

#endif
