/*
 * man: jitsym.1's commands and options, in roff, from the same tables
 * --help prints (option.h), so that the page cannot list an option the
 * program does not take, nor leave one out. A paragraph of --help's
 * prose becomes a roff paragraph, an option a .TP item: its synopsis in
 * bold, its help lines joined into one line of text.
 */
#include "common/common.h"
#include "command/command.h"
#include "common/sbuf.h"

#include <ctype.h>

/* s in roff: '\' as \e, '-' as \- */
static void put_escaped(FILE *fp, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", fp);
		else if (*s == '-')
			fputs("\\-", fp);
		else
			fputc(*s, fp);
	}
}

static void put_upper(FILE *fp, const char *s)
{
	for (; *s; s++)
		fputc(toupper((unsigned char)*s), fp);
}

void command__man_text(FILE *fp, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", fp);
	put_escaped(fp, s);
	fputc('\n', fp);
}

static void man_option(FILE *fp, const struct cmd_option *o)
{
	struct sbuf sb = SBUF_INIT;
	const char *h;
	size_t n;

	if (o->short_name)
		sbuf_addf(&sb, "-%c, ", o->short_name);
	sbuf_addf(&sb, "--%s%s", o->name, o->arg ? o->arg : "");
	fputs(".TP\n\\fB", fp);
	put_escaped(fp, sb.buf);
	fputs("\\fR\n", fp);
	sbuf_reset(&sb);
	for (h = o->help; *h; h += n) {
		h += strspn(h, "\n");
		n = strcspn(h, "\n");
		if (sb.len)
			sbuf_addch(&sb, ' ');
		sbuf_add(&sb, h, n);
	}
	command__man_text(fp, sb.buf);
	sbuf_release(&sb);
}

/* The input options; without -i for a command of two recordings. */
static void man_input_options(FILE *fp, unsigned nr_inputs)
{
	const struct cmd_option *o;

	for (o = input_options; !cmd_option__is_end(o); o++)
		if (nr_inputs != 2 || o->short_name != 'i')
			man_option(fp, o);
}

/*
 * The prose lines of --help (after the usage line, and after the options:
 * the tail), a blank line between paragraphs as .PP.
 */
static void man_prose(FILE *fp, const char *const *lines, bool *para)
{
	for (; lines && *lines; lines++) {
		const char *s = *lines + strspn(*lines, " ");

		if (!*s) {
			if (!*para)
				fputs(".PP\n", fp);
			*para = true;
			continue;
		}
		command__man_text(fp, s);
		*para = false;
	}
}

void command__man(const struct command *c, const char *name, FILE *fp)
{
	struct cmd_option *own;
	bool para = true;
	size_t nr, i;

	fputs(".SS \"", fp);
	put_escaped(fp, c->usage[0] + strlen("usage: "));
	fprintf(fp, "\"\n.\\\" command: %s\n", name);
	man_prose(fp, c->usage + 1, &para);
	man_prose(fp, c->usage_tail, &para);
	own = command__options(c, &nr);
	for (i = 0; i < nr; i++)
		man_option(fp, &own[i]);
	free(own);
	fputs(".PP\n", fp);
	if (c->nr_inputs == 2) {
		fputs("\\fI" INPUT_OPTS_HEADING ":\\fR\n", fp);
		man_input_options(fp, c->nr_inputs);
		return;
	}
	fputs("And the options for reading the recording (see \\fB", fp);
	put_upper(fp, INPUT_OPTS_HEADING);
	fputs("\\fR below).\n.\\\" shared: " INPUT_OPTS_HEADING ":\n", fp);
}

void command__man_shared(FILE *fp)
{
	fputs(".SH \"", fp);
	put_upper(fp, INPUT_OPTS_HEADING);
	fputs("\"\n.\\\" shared-section: " INPUT_OPTS_HEADING ":\n"
	      "Every command above that names this section takes these options.\n", fp);
	man_input_options(fp, 1);
}
