/*
 * option: the one table an option is written in. Each row holds an
 * option's long name, short letter, argument as --help shows it, help
 * text and the value its parser is given; getopt_long's table, its short
 * option string and the option lines of --help are all made from the
 * rows (git's parse-options as the model), so that an option cannot be
 * listed in --help and refused by the parser, or the other way round.
 * A table ends with CMD_OPTION_END. Tables are static const data: any
 * thread may read them.
 */
#ifndef JITSYM_OPTION_H
#define JITSYM_OPTION_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

struct cmd_option {
	const char *name;   /* the long name, without "--"; NULL in a CMD_OPTION_SHARED row */
	char short_name;    /* -X too (then getopt gives X, not id), or 0 */
	/*
	 * the argument as --help shows it, with what goes before it: " FILE",
	 * "=period"; "[=URLS]" for one that may be left out; NULL: none
	 */
	const char *arg;
	/* what it does: --help's lines apart by '\n'; a leading '\n': below the name */
	const char *help;
	int id;             /* the value getopt_long gives for it */
	/* in a command's table: stands for command.c's options of this enum command_shared bit */
	unsigned int shared;
	/* --help only: another value of the option of the row above (arg), said apart (help) */
	bool more;
};

#define CMD_OPTION_SHARED(bit) { .shared = (bit) }
#define CMD_OPTION_END { .name = NULL }

/* Whether row o ends its table. */
static inline int cmd_option__is_end(const struct cmd_option *o)
{
	return !o->name && !o->shared && !o->more;
}

/* The value getopt_long gives for o: its short letter, or its id. */
static inline int cmd_option__val(const struct cmd_option *o)
{
	return o->short_name ? o->short_name : o->id;
}

/* Set *lo to o's getopt_long entry. */
void cmd_option__to_getopt(const struct cmd_option *o, struct option *lo);
/*
 * Print o as --help does: "  -X, --name ARG" (or six blanks without a
 * short name), then its help lines from column (0-based; two blanks
 * after a name that reaches it), the next ones under the first. A help
 * text starting with '\n' starts on a line of its own.
 */
void cmd_option__print(const struct cmd_option *o, int column, FILE *fp);

#endif
