#include "common.h"
#include "strpool.h"

#include <uthash.h>

/* Strings are stored inline after the entry, one allocation per string. */
struct strpool_entry {
	UT_hash_handle hh;
	size_t len;
	char str[];
};

struct strpool {
	struct strpool_entry *table;
};

struct strpool *strpool__new(void)
{
	return xcalloc(1, sizeof(struct strpool));
}

void strpool__delete(struct strpool *pool)
{
	struct strpool_entry *e, *tmp;

	if (!pool)
		return;
	HASH_ITER(hh, pool->table, e, tmp) {
		HASH_DEL(pool->table, e);
		free(e);
	}
	free(pool);
}

const char *strpool__intern_len(struct strpool *pool, const char *s, size_t len)
{
	struct strpool_entry *e;

	HASH_FIND(hh, pool->table, s, len, e);
	if (e)
		return e->str;
	e = xmalloc(st_add(st_add(sizeof(*e), len), 1));
	e->len = len;
	memcpy(e->str, s, len);
	e->str[len] = '\0';
	HASH_ADD_KEYPTR(hh, pool->table, e->str, len, e);
	return e->str;
}

const char *strpool__intern(struct strpool *pool, const char *s)
{
	return strpool__intern_len(pool, s, strlen(s));
}
