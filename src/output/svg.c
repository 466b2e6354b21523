#include "common/common.h"
#include "output/svg.h"
#include "common/utf8.h"
#include "output/web.h"

/* A colour range per kind: hue in degrees, saturation and lightness in percent. */
static const struct svg_style {
	const char *name;
	int hue, hue_span;
	int sat;
	int light, light_span;
} styles[SVGK_NR_KINDS] = {
	[SVGK_ROOT]         = { "all samples",                      220,  0, 12, 80, 0 },
	[SVGK_PROCESS]      = { "process",                          220, 12, 22, 76, 6 },
	[SVGK_KERNEL]       = { "kernel",                            26, 14, 88, 56, 8 },
	[SVGK_NATIVE]       = { "native",                           352, 16, 74, 62, 8 },
	[SVGK_JIT_OPT]      = { "optimizing JIT",                    98, 26, 56, 50, 8 },
	[SVGK_JIT_MAGLEV]   = { "optimizing JIT: V8 Maglev",        150, 16, 52, 50, 8 },
	[SVGK_JIT_BASELINE] = { "baseline JIT",                     180, 12, 56, 55, 8 },
	[SVGK_JIT_INTERP]   = { "interpreted",                      206, 16, 78, 70, 8 },
	[SVGK_JIT]          = { "JIT, no tier known (jitdump)",      66, 14, 66, 50, 8 },
	[SVGK_PERFMAP]      = { "JIT, no tier known (perf map)",    270, 20, 56, 72, 8 },
	[SVGK_UNKNOWN]      = { "unknown",                            0,  0,  0, 74, 8 },
	[SVGK_STUB]         = { "JIT stubs, builtins",               44, 12, 84, 62, 8 },
	[SVGK_RUNTIME]      = { "runtime (GC, compiler, ...)",      318, 14, 34, 58, 8 },
	[SVGK_OFFCPU]       = { "off-CPU (blocked, waiting)",       215,  0, 70, 58, 0 },
};

const char *svg__kind_name(enum svg_kind kind)
{
	return kind < SVGK_NR_KINDS ? styles[kind].name : "?";
}

/* ---- colour ------------------------------------------------------------ */

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;    /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* "#rrggbb" of hue h (0-359 degrees), saturation s and lightness l (percent). */
static void hsl_hex(int h, int s, int l, char buf[8])
{
	double sat = s / 100.0, light = l / 100.0, c, x, m, f, rgb[3];
	double d = 2 * light - 1;

	c = (1 - (d < 0 ? -d : d)) * sat;
	f = (h % 120) / 60.0 - 1;
	x = c * (1 - (f < 0 ? -f : f));
	m = light - c / 2;
	switch (h / 60) {
	case 0: rgb[0] = c, rgb[1] = x, rgb[2] = 0; break;
	case 1: rgb[0] = x, rgb[1] = c, rgb[2] = 0; break;
	case 2: rgb[0] = 0, rgb[1] = c, rgb[2] = x; break;
	case 3: rgb[0] = 0, rgb[1] = x, rgb[2] = c; break;
	case 4: rgb[0] = x, rgb[1] = 0, rgb[2] = c; break;
	default: rgb[0] = c, rgb[1] = 0, rgb[2] = x; break;
	}
	snprintf(buf, 8, "#%02x%02x%02x", (unsigned)((rgb[0] + m) * 255 + 0.5),
		 (unsigned)((rgb[1] + m) * 255 + 0.5), (unsigned)((rgb[2] + m) * 255 + 0.5));
}

void svg__frame_colour(enum svg_kind kind, const char *name, char buf[8])
{
	const struct svg_style *st = &styles[kind < SVGK_NR_KINDS ? kind : SVGK_UNKNOWN];
	uint32_t h = name_hash(name);
	int hue = st->hue + (int)(h % (uint32_t)(st->hue_span + 1));
	int light = st->light - st->light_span / 2 +
		    (int)((h >> 16) % (uint32_t)(st->light_span + 1));

	hsl_hex(hue % 360, st->sat, light, buf);
}

void svg__kind_colour(enum svg_kind kind, char buf[8])
{
	const struct svg_style *st = &styles[kind < SVGK_NR_KINDS ? kind : SVGK_UNKNOWN];

	hsl_hex((st->hue + st->hue_span / 2) % 360, st->sat, st->light, buf);
}

void svg__change_colour(double k, char buf[8])
{
	double a = k < 0 ? -k : k;
	unsigned pale, full;

	if (a > 1)
		a = 1;
	pale = (unsigned)(232 - 182 * a + 0.5);
	full = (unsigned)(232 + 23 * a + 0.5);
	if (k > 0)
		snprintf(buf, 8, "#%02x%02x%02x", full, pale, pale);
	else if (k < 0)
		snprintf(buf, 8, "#%02x%02x%02x", pale, pale, full);
	else
		snprintf(buf, 8, "#%02x%02x%02x", 232, 232, 232);
}

void svg__kind_shade(enum svg_kind kind, unsigned j, unsigned m, char buf[8])
{
	const struct svg_style *st = &styles[kind < SVGK_NR_KINDS ? kind : SVGK_UNKNOWN];
	int hue, light;

	if (m < 2 || j >= m) {
		svg__kind_colour(kind, buf);
		return;
	}
	/* hue across the span; lightness alternating, so neighbours differ */
	hue = st->hue + (int)((unsigned)st->hue_span * j / (m - 1));
	light = st->light + (j % 2 ? st->light_span / 2 : -(st->light_span / 2));
	hsl_hex(hue % 360, st->sat, light, buf);
}

/*
 * As the flame graph colours V8's tiers, other runtimes' tiers of the same
 * category share the range: interpreters blue, baseline teal, optimising
 * green (Maglev apart).
 */
enum svg_kind svg__category_kind(enum frame_category c, const char *tier)
{
	switch (c) {
	case FC_KERNEL: return SVGK_KERNEL;
	case FC_NATIVE: return SVGK_NATIVE;
	case FC_JIT: return SVGK_JIT;
	case FC_INTERPRETED: return SVGK_JIT_INTERP;
	case FC_BASELINE: return SVGK_JIT_BASELINE;
	case FC_OPTIMIZED:
		return tier && !strcmp(tier, "Maglev") ? SVGK_JIT_MAGLEV : SVGK_JIT_OPT;
	case FC_STUB: return SVGK_STUB;
	case FC_RUNTIME: return SVGK_RUNTIME;
	case FC_UNKNOWN:
	default:
		return SVGK_UNKNOWN;
	}
}

/* ---- text -------------------------------------------------------------- */

/* Characters in s as svg__add_xml() writes them: one per code point or bad byte. */
size_t svg__xml_chars(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0, len;
	uint32_t cp;

	for (; *p; p += len ? len : 1, n++)
		len = utf8__seq(p, &cp);
	return n;
}

/*
 * Append at most max characters of s, escaped for XML text and attribute
 * values. Names come from binaries and JIT runtimes and may hold any byte:
 * what XML cannot carry (bytes that are not UTF-8, control characters,
 * U+FFFE, U+FFFF) becomes U+FFFD.
 */
void svg__add_xml(struct sbuf *sb, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len;
	uint32_t cp;

	for (; *p && max; p += len ? len : 1, max--) {
		len = utf8__seq(p, &cp);
		if (!len || cp < 0x20 || cp == 0xfffe || cp == 0xffff) {
			sbuf_addstr(sb, "\xef\xbf\xbd");
			continue;
		}
		switch (cp) {
		case '&': sbuf_addstr(sb, "&amp;"); break;
		case '<': sbuf_addstr(sb, "&lt;"); break;
		case '>': sbuf_addstr(sb, "&gt;"); break;
		case '"': sbuf_addstr(sb, "&quot;"); break;
		case '\'': sbuf_addstr(sb, "&#39;"); break;
		default: sbuf_add(sb, p, len); break;
		}
	}
}

/* v with thousands separators: 1,234,567. */
void svg__add_count(struct sbuf *sb, uint64_t v)
{
	char digits[24];
	int n = snprintf(digits, sizeof(digits), "%" PRIu64, v), i;

	for (i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			sbuf_addch(sb, ',');
		sbuf_addch(sb, digits[i]);
	}
}

void svg__add_ns(struct sbuf *sb, uint64_t ns)
{
	static const char *const units[] = { "ns", "\xc2\xb5s", "ms", "s" };
	double v = (double)ns;
	unsigned u = 0;

	if (ns < 1000) {
		sbuf_addf(sb, "%" PRIu64 " ns", ns);
		return;
	}
	/* the unit that keeps the value under 1000 once rounded */
	while (u + 1 < ARRAY_SIZE(units) && v >= 999.5) {
		v /= 1000;
		u++;
	}
	sbuf_addf(sb, v < 9.995 ? "%.2f %s" : v < 99.95 ? "%.1f %s" : "%.0f %s", v, units[u]);
}

/* web/errors.js with "$p" made prefix and "$items" made items. */
static void add_error_counter(struct sbuf *sb, const char *prefix, const char *items)
{
	const char *s = web_errors_js, *d;

	while ((d = strchr(s, '$'))) {
		sbuf_add(sb, s, (size_t)(d - s));
		if (!strncmp(d, "$items", 6)) {
			sbuf_addstr(sb, items);
			s = d + 6;
		} else if (d[1] == 'p') {
			sbuf_addstr(sb, prefix);
			s = d + 2;
		} else {
			sbuf_add(sb, d, 1);
			s = d + 1;
		}
	}
	sbuf_addstr(sb, s);
}

void svg__add_page_head(struct sbuf *sb, const struct svg_page *page)
{
	sbuf_addf(sb, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		  "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
		  "viewBox=\"0 0 %d %d\" font-family=\"%s\" font-size=\"%d\">\n",
		  page->width, page->height, page->width, page->height, page->font_family,
		  page->font_size);
	sbuf_addf(sb, "<!-- %s -->\n", page->comment);
	sbuf_addf(sb, "<style><![CDATA[\n%s]]></style>\n", page->style);
	sbuf_addstr(sb, "<script><![CDATA[\n");
	add_error_counter(sb, page->prefix, page->items);
	sbuf_addstr(sb, "]]></script>\n");
	sbuf_addstr(sb, "<rect width=\"100%\" height=\"100%\" fill=\"#fafaf7\"/>\n");
}
