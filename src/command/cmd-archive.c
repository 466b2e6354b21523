/*
 * jitsym archive: a recording and everything reading it needs, in one
 * file another machine reads in its place (bundle.h has the format).
 *
 * How it knows what to pack: it reads the recording as every command
 * does, resolving every frame of every sample with its source lines and
 * inlined functions, with common/vfs.h in record mode, so every file a
 * lookup asked for is remembered with what it was read as, every JIT
 * address looked up, and every byte of a binary read as it is. Then it
 * writes the bundle: perf.data unchanged; jitdumps, binaries and debug
 * files with the code no lookup read zeroed (archive-cut.h); the rest
 * whole. Files read under two names (hard links) are packed once. The
 * DWARF cache (dwarf-cache.h) is off for the run: an answer from it
 * would read no DWARF, and the bundle would then lack it.
 */
#include "common/common.h"
#include "command/archive-cut.h"
#include "command/bundle.h"
#include "command/cmds.h"
#include "command/command.h"
#include "common/radix.h"
#include "reader/perfdata.h"
#include "common/sbuf.h"
#include "common/tarzst.h"
#include "common/vfs.h"
#include "resolve/srcline.h"
#include "aggregate/timeline.h"
#include "session/session.h"
#include "timeline/user-markers.h"
#include "common/strpool.h"

#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

/* A file read whole (kallsyms, a source file, /sys/kernel/notes) larger than this is left out. */
#define ARCHIVE_FILE_MAX (1ull << 30)

static const char *const archive_usage[] = {
	"usage: jitsym archive [options] [perf.data] [-o FILE]",
	"",
	"Write the recording and what reading it needs into one file, a",
	"bundle (FILE, by default perf.data.jsar beside the recording): the",
	"recording unchanged; its perf maps and jitdumps (the code of the",
	"loads no sample ran zeroed); of each binary, library and debug file",
	"its samples need, the symbols, unwind tables and DWARF (the code",
	"zeroed); the kernel's symbols and vdso. Every command reads the",
	"bundle in place of perf.data, on any machine, and writes what it",
	"writes here:",
	"  jitsym fold rec.jsar",
	"A bundle is a zstd-compressed tar: tar --zstd -tvf rec.jsar lists it.",
	"",
	NULL,
};

enum { OPT_LEVEL = OPT_COMMAND_LAST };

static const struct cmd_option archive_options[] = {
	{ .name = "level", .id = OPT_LEVEL, .arg = "=N",
	  .help = "zstd level, 1 (fastest) to 19 (smallest); 3" },
	CMD_OPTION_END,
};

struct archive_cmd {
	const char *input;
	char *default_output;           /* PATH.jsar, without -o */
	bool input_is_bundle;
	int level;
	struct strpool *pool;
	struct srcline_cache *lines;
	struct src_loc locs[SRCLINE_MAX_DEPTH];
	const struct command_opts *opts;
	uint32_t *pids;                 /* the processes sampled, for their marker files */
	size_t nr_pids, alloc_pids;
	struct mapped_marker {          /* marker files the recording shows mapped */
		uint32_t pid;
		char *path;
	} *mapped;
	size_t nr_mapped, alloc_mapped;
};

/* What the run read, as vfs_record_each() gives it, and what it is now. */
struct read_file {
	char *path;             /* its key: the member's name, and what its ranges are kept by */
	char *file;             /* the path it was read by: what is opened */
	enum vfs_kind kind;     /* what it is packed as (kind_of()) */
	bool link;              /* a symlink the run followed itself (inside a symfs) */
	int stat_errno;         /* stat()'s, or 0 and st */
	struct stat st;
	const char *alias;      /* the same file (inode) as this one, packed once under it */
};

struct read_list {
	struct read_file *v;
	size_t nr, alloc;
};

struct archive_stats {
	size_t files, links;
	uint64_t bytes_in;
	size_t loads, loads_kept;
};

static int archive_opt(void *ctx, int c, const char *arg)
{
	struct archive_cmd *cmd = ctx;
	char *end;
	long v;

	if (c != OPT_LEVEL)
		BUG("archive option %d", c);
	errno = 0;
	v = strtol(arg, &end, 10);
	if (end == arg || *end || errno || v < 1 || v > 19)
		return error("--level takes 1 to 19, not '%s'", arg);
	cmd->level = (int)v;
	return 0;
}

static void archive_prepare(void *ctx, struct command_opts *o)
{
	struct archive_cmd *cmd = ctx;

	cmd->opts = o;
	cmd->input = o->in.path;
	/* lines of JIT code too: their source files are read to check them */
	o->in.session.jit_lines = true;
	if (!o->in.output)
		o->in.output = cmd->default_output = xasprintf("%s.jsar", o->in.path);
	/* an answer from the cache reads no DWARF: the bundle would lack it */
	setenv("JITSYM_CACHE_DIR", "", 1);
	cmd->pool = strpool__new();
	cmd->lines = srcline_cache__new(cmd->pool);
	/* command.c opened it already: nothing to record (start() refuses it) */
	cmd->input_is_bundle = vfs_mode() == VFS_BUNDLE;
	/* before the recording is opened: it is one of the files read */
	if (!cmd->input_is_bundle)
		vfs_record_start();
}

static int archive_start(void *ctx, const struct session *s, FILE *out)
{
	struct archive_cmd *cmd = ctx;

	(void)s;
	(void)out;
	if (!strcmp(cmd->input, "-"))
		return error("archive reads a perf.data file, not a pipe: record to a file "
			     "(perf record -o FILE) and archive that");
	if (cmd->input_is_bundle)
		return error("the input is a bundle already: copy it as it is");
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* The pids sampled, sorted, each once. */
static void unique_pids(struct archive_cmd *cmd)
{
	size_t i, n = 0;

	if (cmd->nr_pids)
		qsort(cmd->pids, cmd->nr_pids, sizeof(*cmd->pids), cmp_pid);
	for (i = 0; i < cmd->nr_pids; i++)
		if (!n || cmd->pids[n - 1] != cmd->pids[i])
			cmd->pids[n++] = cmd->pids[i];
	cmd->nr_pids = n;
}

/* Look every frame up as the commands do: its lines, inlined functions, JIT source files. */
static void archive_sample(void *ctx, const struct resolved_sample *rs)
{
	struct archive_cmd *cmd = ctx;
	size_t i;

	for (i = 0; i < rs->nr_frames; i++)
		srcline__lookup(cmd->lines, &rs->frames[i], cmd->locs, SRCLINE_MAX_DEPTH);
	if (cmd->nr_pids && cmd->pids[cmd->nr_pids - 1] == rs->facts.pid)
		return;
	/* interleaved processes: kept as a set, not a list as long as the samples */
	if (cmd->nr_pids == cmd->alloc_pids)
		unique_pids(cmd);
	ALLOC_GROW(cmd->pids, cmd->nr_pids + 1, cmd->alloc_pids);
	cmd->pids[cmd->nr_pids++] = rs->facts.pid;
}

/* A marker file a process mapped (samply's programs do): timeline reads it, so archive does. */
static void archive_record(void *ctx, const struct pd_event *ev)
{
	struct archive_cmd *cmd = ctx;
	uint32_t file_pid;
	size_t i;

	if ((ev->type != PERF_RECORD_MMAP && ev->type != PERF_RECORD_MMAP2) ||
	    !ev->u.mmap.filename || !user_markers__is_marker_file(ev->u.mmap.filename, &file_pid))
		return;
	for (i = 0; i < cmd->nr_mapped; i++)
		if (cmd->mapped[i].pid == ev->u.mmap.pid &&
		    !strcmp(cmd->mapped[i].path, ev->u.mmap.filename))
			return;
	ALLOC_GROW(cmd->mapped, cmd->nr_mapped + 1, cmd->alloc_mapped);
	cmd->mapped[cmd->nr_mapped].pid = ev->u.mmap.pid;
	cmd->mapped[cmd->nr_mapped++].path = xstrdup(ev->u.mmap.filename);
}

/* Read the marker files jitsym timeline would, so that they are packed. */
static void read_markers(struct archive_cmd *cmd, const struct session *s)
{
	const struct input_opts *in = &cmd->opts->in;
	struct strpool *pool = strpool__new();
	struct marker_set *ms = marker_set__new(pool);
	char *dir = xdirname(cmd->input);

	size_t i;

	unique_pids(cmd);
	timeline__scan_marker_dirs(ms, s ? session__jitmap(s) : NULL, cmd->pids, cmd->nr_pids, dir,
				   in->session.jit_dirs, in->session.nr_jit_dirs);
	/* those mapped by a sampled process, as timeline__end() reads them */
	for (i = 0; i < cmd->nr_mapped; i++)
		if (cmd->nr_pids && bsearch(&cmd->mapped[i].pid, cmd->pids, cmd->nr_pids,
					    sizeof(*cmd->pids), cmp_pid))
			marker_set__mapped(ms, cmd->mapped[i].pid, cmd->mapped[i].path, dir);
	free(dir);
	marker_set__delete(ms);
	strpool__delete(pool);
}

/* A file's kind by what it was read as; the cut ones first. */
static enum vfs_kind kind_of(unsigned kinds)
{
	static const enum vfs_kind order[] = { VFS_PERFDATA, VFS_JITDUMP, VFS_ELF };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(order); i++)
		if (kinds & (1u << order[i]))
			return order[i];
	return VFS_FILE;
}

static void list_add(const char *path, const char *file, unsigned kinds, bool lstated,
		     void *arg)
{
	struct read_list *l = arg;
	struct read_file *f;

	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	f = &l->v[l->nr++];
	*f = (struct read_file){ .path = xstrdup(path), .file = xstrdup(file),
				 .kind = kind_of(kinds) };
	f->link = lstated && !lstat(file, &f->st) && S_ISLNK(f->st.st_mode);
	if (!f->link && stat(file, &f->st))
		f->stat_errno = errno;
}

static int cmp_inode(const void *a, const void *b)
{
	const struct read_file *x = *(const struct read_file *const *)a;
	const struct read_file *y = *(const struct read_file *const *)b;

	if (x->st.st_dev != y->st.st_dev)
		return x->st.st_dev < y->st.st_dev ? -1 : 1;
	if (x->st.st_ino != y->st.st_ino)
		return x->st.st_ino < y->st.st_ino ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return strcmp(x->path, y->path);
}

/*
 * Files read under several names (a binary and its build-id cache entry,
 * hard links) as the same kind: packed once, under the first name, the
 * others aliases of it. (Read as two kinds, the copies differ.)
 */
static void find_aliases(struct read_list *l)
{
	struct read_file **v = xreallocarray(NULL, l->nr + 1, sizeof(*v));
	size_t i, n = 0, first = 0, k;

	for (i = 0; i < l->nr; i++)
		if (!l->v[i].link && !l->v[i].stat_errno && S_ISREG(l->v[i].st.st_mode))
			v[n++] = &l->v[i];
	qsort(v, n, sizeof(*v), cmp_inode);
	for (i = 1; i < n; i++) {
		const struct radix_item *r;

		if (v[i]->st.st_dev != v[first]->st.st_dev ||
		    v[i]->st.st_ino != v[first]->st.st_ino || v[i]->kind != v[first]->kind) {
			first = i;
			continue;
		}
		v[i]->alias = v[first]->path;
		/* the bytes read as they are under either name stay in the one copy */
		for (r = vfs_record_ranges(v[i]->path, &k); k--; r++)
			vfs_record_range(v[first]->path, r->key, r->val - r->key);
	}
	free(v);
}

/* Its member name: its key under root/ (keys have no "." or ".." in them). */
static char *member_name(const struct read_file *f)
{
	if (strchr(f->path, '\n'))
		return warning("'%s' is left out of the bundle: a newline in its path", f->file), NULL;
	return xasprintf(BUNDLE_ROOT "%s", f->path);
}

/* Copy fd from its start to EOF into out (a pseudo-file's size says nothing); -1 after error(). */
static int copy_whole(int fd, const char *name, int out)
{
	char buf[65536];
	uint64_t total = 0;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return error("cannot read '%s': %s", name, strerror(errno));
		if ((total += (uint64_t)n) > ARCHIVE_FILE_MAX)
			return error("'%s' is over %llu bytes: left out", name, ARCHIVE_FILE_MAX);
		if (write(out, buf, (size_t)n) != n)
			return error("cannot write a temporary file: %s", strerror(errno));
	}
	return 0;
}

/* Add one file the run read; -1 after error() when the bundle cannot be written. */
static int add_file(struct tarzst_writer *w, const uint64_t *addrs, size_t nr_addrs,
		    const struct read_file *f, struct archive_stats *st)
{
	char *member = member_name(f);
	const struct radix_item *ranges;
	struct stat sb;
	size_t nr, kept, total;
	int fd, tmp = -1, ret = 0, cut = 0;

	if (!member || f->alias)
		goto done;
	if (f->link) {
		char target[PATH_MAX];
		ssize_t n = readlink(f->file, target, sizeof(target) - 1);

		if (n > 0) {
			target[n] = '\0';
			st->links++;
			ret = tarzst_writer__add_symlink(w, member, target, (int64_t)f->st.st_mtime);
		}
		goto done;
	}
	/*
	 * Asked for and not there: the bundle lacks it too. A device read
	 * whole (--kallsyms /dev/null) is packed as what it gave. Anything
	 * else read and not packed (a FIFO, a file unreadable now) is said.
	 */
	if (f->stat_errno) {
		if (f->stat_errno != ENOENT && f->stat_errno != ENOTDIR)
			warning("'%s' is left out of the bundle: %s", f->file,
				strerror(f->stat_errno));
		goto done;
	}
	if (!S_ISREG(f->st.st_mode) && !(S_ISCHR(f->st.st_mode) && f->kind == VFS_FILE)) {
		if (!S_ISDIR(f->st.st_mode))
			warning("'%s' is left out of the bundle: not a regular file", f->file);
		goto done;
	}
	fd = open(f->file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		warning("'%s' is left out of the bundle: %s", f->file, strerror(errno));
		goto done;
	}
	st->files++;
	st->bytes_in += (uint64_t)f->st.st_size;
	if (f->kind == VFS_PERFDATA) {
		ret = tarzst_writer__add_fd(w, member, fd, f->file, (uint64_t)f->st.st_size, 0644,
					    (int64_t)f->st.st_mtime);
		goto out;
	}
	tmp = bundle__temp_file();
	if (tmp < 0) {
		ret = error("cannot make a temporary file: %s", strerror(errno));
		goto out;
	}
	switch (f->kind) {
	case VFS_JITDUMP:
		cut = archive_cut_jitdump(addrs, nr_addrs, fd, f->file, tmp, &kept, &total);
		st->loads += total;
		st->loads_kept += kept;
		break;
	case VFS_ELF:
		ranges = vfs_record_ranges(f->path, &nr);
		cut = archive_cut_elf(fd, f->file, tmp, ranges, nr);
		break;
	default:
		cut = copy_whole(fd, f->file, tmp);
		break;
	}
	if (cut) {
		/* a file that cannot be read now is left out, as if absent, and said */
		warning("'%s' is left out of the bundle", f->file);
		goto out;
	}
	if (fstat(tmp, &sb) || lseek(tmp, 0, SEEK_SET)) {
		ret = error("cannot read back a temporary file: %s", strerror(errno));
		goto out;
	}
	ret = tarzst_writer__add_fd(w, member, tmp, f->file, (uint64_t)sb.st_size, 0644,
				    (int64_t)f->st.st_mtime);
out:
	if (tmp >= 0)
		close(tmp);
	close(fd);
done:
	free(member);
	return ret;
}

/* The manifest (bundle.h) as it is written, and whether a value would break its line. */
struct manifest {
	struct sbuf *m;
	bool bad;
};

/* "KEY VALUE...\n": each value then a space, the last a newline; values with none in them. */
static void manifest_line(struct manifest *mf, const char *key, size_t nr, ...)
{
	va_list ap;
	size_t i;

	sbuf_addstr(mf->m, key);
	va_start(ap, nr);
	for (i = 0; i < nr; i++) {
		const char *v = va_arg(ap, const char *);

		mf->bad |= strchr(v, '\n') != NULL;
		sbuf_addch(mf->m, ' ');
		sbuf_addstr(mf->m, v);
	}
	va_end(ap);
	sbuf_addch(mf->m, '\n');
}

static void manifest_fetched(const char *hex, const char *path, void *arg)
{
	manifest_line(arg, "fetched", 2, hex, path);
}

/* The manifest of this run into m; false when a value has a newline in it. */
static bool manifest(struct sbuf *m, const struct archive_cmd *cmd)
{
	const struct input_opts *in = &cmd->opts->in;
	struct manifest mf = { .m = m };
	const char *home = getenv("HOME");
	char cwd[PATH_MAX];
	struct utsname u;
	size_t i;

	sbuf_addf(m, "%s\n", BUNDLE_MAGIC_LINE);
	manifest_line(&mf, "input", 1, cmd->input);
	manifest_line(&mf, "cwd", 1, getcwd(cwd, sizeof(cwd)) ? cwd : "/");
	if (home)
		manifest_line(&mf, "home", 1, home);
	if (!uname(&u)) {
		manifest_line(&mf, "release", 1, u.release);
		manifest_line(&mf, "nodename", 1, u.nodename);
	}
	for (i = 0; i < in->nr_lookup; i++)
		manifest_line(&mf, "option", 2, input_opts__name(in->lookup[i].id),
			      in->lookup[i].arg);
	vfs_record_each_fetched(manifest_fetched, &mf);
	return !mf.bad && !m->truncated;
}

/* The finished bundle in fd, from its start, into out; -1 after error(). */
static int copy_out(int fd, FILE *out)
{
	char buf[65536];
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET))
		return error("cannot read back the bundle: %s", strerror(errno));
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return error("cannot read back the bundle: %s", strerror(errno));
		if (fwrite(buf, 1, (size_t)n, out) != (size_t)n)
			return -1;      /* the output's error, said when it is closed */
	}
	return 0;
}

static int archive_finish(void *ctx, const struct session *s, FILE *out)
{
	struct archive_cmd *cmd = ctx;
	struct read_list list = { 0 };
	struct archive_stats st = { 0 };
	struct tarzst_writer *w;
	struct sbuf m = SBUF_INIT, aliases = SBUF_INIT;
	const void *vdso;
	uint64_t *addrs;
	size_t i, nr_addrs, vdso_size;
	int ret = 0, tmp = -1;

	read_markers(cmd, s);
	/* what the run read; from here on files are opened as they are */
	vfs_record_each(list_add, &list);
	addrs = vfs_record_jit_addrs(&nr_addrs);
	find_aliases(&list);
	if (!manifest(&m, cmd)) {
		ret = error("cannot archive: a path or option with a newline in it");
		goto out;
	}
	/* the output is a stream (outfile.h): the bundle is made beside it, then copied in */
	if ((tmp = bundle__temp_file()) < 0) {
		ret = error("cannot make a temporary file: %s", strerror(errno));
		goto out;
	}
	w = tarzst_writer__new(tmp, cmd->opts->in.output, cmd->level ? cmd->level : 3);
	if (!w) {
		ret = -1;
		goto out;
	}
	ret = tarzst_writer__add_mem(w, BUNDLE_MANIFEST, m.buf, m.len, 0644, 0);
	for (i = 0; !ret && i < list.nr; i++)
		ret = add_file(w, addrs, nr_addrs, &list.v[i], &st);
	for (i = 0; !ret && i < list.nr; i++)
		if (list.v[i].alias) {
			sbuf_add(&aliases, list.v[i].path, strlen(list.v[i].path) + 1);
			sbuf_add(&aliases, list.v[i].alias, strlen(list.v[i].alias) + 1);
		}
	if (!ret && aliases.len)
		ret = aliases.truncated ? error("cannot archive: too many aliases") :
		      tarzst_writer__add_mem(w, BUNDLE_ALIASES, aliases.buf, aliases.len, 0644, 0);
	vdso = vfs_record_vdso(&vdso_size);
	if (!ret && vdso)
		ret = tarzst_writer__add_mem(w, BUNDLE_VDSO, vdso, vdso_size, 0644, 0);
	if (ret) {
		tarzst_writer__abort(w);
		goto out;
	}
	ret = tarzst_writer__finish(w);
	if (!ret)
		ret = copy_out(tmp, out);
	if (!ret)
		note("archived %zu files (%.1f MB) and %zu links; jitdump loads whose code is kept: "
		     "%zu of %zu", st.files, (double)st.bytes_in / 1e6, st.links, st.loads_kept,
		     st.loads);
out:
	if (tmp >= 0)
		close(tmp);
	vfs_reset();
	sbuf_release(&m);
	sbuf_release(&aliases);
	free(addrs);
	for (i = 0; i < list.nr; i++) {
		free(list.v[i].path);
		free(list.v[i].file);
	}
	free(list.v);
	return ret;
}

static void archive_release(void *ctx)
{
	struct archive_cmd *cmd = ctx;
	size_t i;

	srcline_cache__delete(cmd->lines);
	strpool__delete(cmd->pool);
	free(cmd->pids);
	for (i = 0; i < cmd->nr_mapped; i++)
		free(cmd->mapped[i].path);
	free(cmd->mapped);
	free(cmd->default_output);
	vfs_reset();
}

static const struct command archive_command = {
	.stacks = true,
	.sample_anywhere = true,
	.all_events = true,
	.usage = archive_usage,
	.options = archive_options,
	.binary_output = "a bundle",
	.parse = archive_opt,
	.prepare = archive_prepare,
	.start = archive_start,
	.sample = archive_sample,
	.record = archive_record,
	.finish = archive_finish,
	.release = archive_release,
};

int cmd_archive(int argc, char **argv)
{
	struct archive_cmd cmd = { 0 };

	return command__run(&archive_command, &cmd, argc, argv);
}
