#include "common/common.h"
#include "resolve/demangle.h"
#include "common/sbuf.h"
#include "common/utf8.h"

#include <ctype.h>
#include <libiberty/demangle.h>

/*
 * OCaml native code names its functions "caml" + module path + name, with
 * "__" between path elements and "$xx" for bytes outside [A-Za-z0-9_]:
 * "camlStdlib__List__map_123" is Stdlib.List.map_123.
 */
static char *demangle_ocaml(const char *name)
{
	struct sbuf sb;
	const char *p;

	if (strncmp(name, "caml", 4) || !isupper((unsigned char)name[4]))
		return NULL;
	sbuf_init(&sb, SBUF_MAX_SYMNAME);
	for (p = name + 4; *p; ) {
		if (p[0] == '_' && p[1] == '_') {
			sbuf_addch(&sb, '.');
			p += 2;
		} else if (p[0] == '$' && hexval(p[1]) >= 0 && hexval(p[2]) >= 0) {
			sbuf_addch(&sb, (char)(hexval(p[1]) * 16 + hexval(p[2])));
			p += 3;
		} else {
			sbuf_addch(&sb, *p++);
		}
	}
	return sbuf_detach(&sb, NULL);
}

/* The legacy Rust escapes, "$LT$" and friends, that a C++ demangler leaves. */
static const struct {
	const char *seq;
	char c;
} rust_escapes[] = {
	{ "$SP$", '@' }, { "$BP$", '*' }, { "$RF$", '&' }, { "$LT$", '<' },
	{ "$GT$", '>' }, { "$LP$", '(' }, { "$RP$", ')' }, { "$C$", ',' },
};

/* Decode one "$...$" escape at p into sb; returns its length or 0. */
static size_t rust_unescape_one(struct sbuf *sb, const char *p)
{
	size_t i, n;
	int hi, lo;

	for (i = 0; i < ARRAY_SIZE(rust_escapes); i++) {
		n = strlen(rust_escapes[i].seq);
		if (!strncmp(p, rust_escapes[i].seq, n)) {
			sbuf_addch(sb, rust_escapes[i].c);
			return n;
		}
	}
	/* "$u7e$": one ASCII character by its code. */
	if (p[1] == 'u' && (hi = hexval(p[2])) >= 0 && (lo = hexval(p[3])) >= 0 &&
	    p[4] == '$') {
		sbuf_addch(sb, (char)(hi * 16 + lo));
		return 5;
	}
	return 0;
}

/*
 * libiberty decodes valid Rust legacy names itself; a name it took for C++
 * instead still ends in "::h<16 hex digits>". Drop that hash and decode the
 * escapes in place of the C++ text, as perf does. Returns false (and leaves
 * s alone) when s does not look like such a name.
 */
static bool rust_legacy_fixup(char **s)
{
	size_t len = strlen(*s), i, n;
	const char *p, *end;
	struct sbuf sb;

	if (len < 19 || strncmp(*s + len - 19, "::h", 3))
		return false;
	for (i = len - 16; i < len; i++)
		if (hexval((*s)[i]) < 0)
			return false;
	end = *s + len - 19;
	sbuf_init(&sb, SBUF_MAX_SYMNAME);
	for (p = *s; p < end; ) {
		if (*p == '$') {
			n = rust_unescape_one(&sb, p);
			if (!n) {
				sbuf_release(&sb);
				return false;
			}
			p += n;
		} else if (p[0] == '.' && p + 1 < end && p[1] == '.') {
			sbuf_addstr(&sb, "::");
			p += 2;
		} else {
			sbuf_addch(&sb, *p++);
		}
	}
	free(*s);
	*s = sbuf_detach(&sb, NULL);
	return true;
}

char *demangle__name(const char *name, unsigned int flags)
{
	int opts = (flags & DEMANGLE_PARAMS) ? (DMGL_PARAMS | DMGL_ANSI) : DMGL_NO_OPTS;
	char *out;

	/* Every mangling we know starts with '_' (C++, Rust) or "caml". */
	if (name[0] != '_')
		return demangle_ocaml(name);
	out = cplus_demangle(name, opts);
	if (out)
		rust_legacy_fixup(&out);
	return out;
}

bool demangle__is_costly(const char *name)
{
	return name[0] == '_' && (name[1] == 'Z' || name[1] == 'R');
}
