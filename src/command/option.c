#include "common/common.h"
#include "command/option.h"

void cmd_option__to_getopt(const struct cmd_option *o, struct option *lo)
{
	lo->name = o->name;
	/* "[=URLS]": a value only as --name=VALUE */
	lo->has_arg = !o->arg ? no_argument :
		      !strncmp(o->arg, "[=", 2) ? optional_argument : required_argument;
	lo->flag = NULL;
	lo->val = cmd_option__val(o);
}

void cmd_option__print(const struct cmd_option *o, int column, FILE *fp)
{
	const char *line = o->help;
	int len;
	size_t n;

	if (o->short_name)
		len = fprintf(fp, "  -%c, --%s%s", o->short_name, o->name, o->arg ? o->arg : "");
	else
		len = fprintf(fp, "      --%s%s", o->name, o->arg ? o->arg : "");
	if (*line == '\n') {
		fputc('\n', fp);
		line++;
		len = 0;
	} else if (len >= column) {
		len = column - 2;   /* two blanks after a long name */
	}
	for (;;) {
		n = strcspn(line, "\n");
		fprintf(fp, "%*s%.*s\n", column - len, "", (int)n, line);
		if (!line[n])
			break;
		line += n + 1;
		len = 0;
	}
}
