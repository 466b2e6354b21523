/*
 * web: the style sheets and scripts of the SVG pages, kept as source files
 * in src/output/web/ and compiled in by src/output/web/embed.sh, which
 * writes web.c (in the build tree) from them: each array holds its file's
 * bytes, NUL-terminated. Read-only; any thread may read them.
 *
 * errors.js is a template, written in by svg__add_page_head(): "$p" stands
 * for the page's prefix ("fg", "ts") and "$items" for what it counts.
 * flamegraph.js and tiers.js expect the writer's "var fg = {...};" and
 * "var ts = {...};" before them in the same <script>.
 */
#ifndef JITSYM_WEB_H
#define JITSYM_WEB_H

extern const char web_errors_js[];
extern const char web_flamegraph_css[];
extern const char web_flamegraph_js[];
extern const char web_tiers_css[];
extern const char web_tiers_js[];

#endif
