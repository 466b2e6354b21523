/*
 * svg: what the SVG writers (out-flamegraph.c, out-tiers-svg.c) share, so
 * a tier looks the same in both: the palette of frame kinds, the XML
 * escaping of names and the page's head with its error counter.
 *
 * A kind has a colour range; a frame's colour is the point in its kind's
 * range picked by a hash of its name (deterministic: the same name, the
 * same colour), the legend's swatch the middle of the range.
 */
#ifndef JITSYM_SVG_H
#define JITSYM_SVG_H

#include <stddef.h>
#include <stdint.h>

#include "aggregate/frameclass.h"
#include "common/sbuf.h"

enum svg_kind {
	SVGK_ROOT,
	SVGK_PROCESS,
	SVGK_KERNEL,
	SVGK_NATIVE,
	SVGK_JIT_OPT,         /* V8 "JS:*": TurboFan; other optimising tiers */
	SVGK_JIT_MAGLEV,      /* V8 "JS:+" */
	SVGK_JIT_BASELINE,    /* V8 "JS:^": Sparkplug; other baseline tiers */
	SVGK_JIT_INTERP,      /* V8 "JS:~": Ignition; other interpreters */
	SVGK_JIT,             /* from a jitdump, no tier in the name */
	SVGK_PERFMAP,         /* from a perf map, no tier in the name */
	SVGK_UNKNOWN,
	SVGK_STUB,            /* JIT stubs, trampolines, builtins */
	SVGK_RUNTIME,         /* the runtime's own native code (GC, compiler) */
	SVGK_OFFCPU,          /* the [off-cpu] leaf of --on-off-cpu (offcpu.h) */
	SVGK_NR_KINDS,
};

/* The kind's name for a legend ("kernel", "baseline JIT", ...): runtime-neutral, as frameclass's categories. */
const char *svg__kind_name(enum svg_kind kind);

/* "#rrggbb": name's colour in kind's range; the middle of the range. */
void svg__frame_colour(enum svg_kind kind, const char *name, char buf[8]);
void svg__kind_colour(enum svg_kind kind, char buf[8]);
/* The j-th of m colours spread evenly through kind's range; m == 1: the middle. */
void svg__kind_shade(enum svg_kind kind, unsigned j, unsigned m, char buf[8]);

/*
 * A differential flame graph's colour for a change of ratio k (-1 to 1:
 * the change over the largest one): red for growth, blue for shrinking,
 * the deeper the nearer |k| is to 1; pale grey for 0.
 */
void svg__change_colour(double k, char buf[8]);

/* The kind a frameclass category (and its tier) is drawn as. */
enum svg_kind svg__category_kind(enum frame_category c, const char *tier);

/*
 * Append at most max characters (code points) of s, escaped for XML text
 * and attribute values; what XML cannot carry (bytes that are not UTF-8,
 * control characters, U+FFFE, U+FFFF) becomes U+FFFD.
 */
void svg__add_xml(struct sbuf *sb, const char *s, size_t max);
/* Characters in s as svg__add_xml() writes them. */
size_t svg__xml_chars(const char *s);
/* v with thousands separators: 1,234,567. */
void svg__add_count(struct sbuf *sb, uint64_t v);
/*
 * A time of ns nanoseconds in the unit that reads best, in three figures:
 * "850 ns", "1.23 us" (with the micro sign, U+00B5), "12.3 ms", "123 s";
 * from 1000 s up, whole seconds.
 */
void svg__add_ns(struct sbuf *sb, uint64_t ns);

/*
 * The start of an SVG page, written once for both writers: the XML
 * declaration, the <svg> element, comment (as "<!-- comment -->"), the
 * style sheet, the script that counts the page's errors (web/errors.js,
 * its "$p" made prefix and "$items" items: it shows "ITEMS=? errors=N" in
 * the #status element until the page's script sets PREFIXReport) and the
 * background. All strings are the caller's; they are written as they are.
 */
struct svg_page {
	int width, height;
	const char *font_family;
	int font_size;
	const char *comment;
	const char *style;     /* a style sheet: web_flamegraph_css, web_tiers_css */
	const char *prefix;    /* the script's names: "fg" for fgErrors, fgReport */
	const char *items;     /* what #status counts: "frames", "charts" */
};
void svg__add_page_head(struct sbuf *sb, const struct svg_page *page);

#endif
