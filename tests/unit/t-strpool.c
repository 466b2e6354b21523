/*
 * Unit tests for strpool.c: one copy per distinct string (by length and
 * bytes, NULs included), copies that stay put while the table and the
 * blocks grow, and strings longer than a block.
 */
#include "common/common.h"
#include "common/strpool.h"
#include "test.h"

#define NR_MANY 100000

static void test_basics(struct strpool *pool)
{
	char buf[] = "hello";
	const char *a = strpool__intern(pool, "hello");
	const char *b = strpool__intern(pool, buf);
	const char *c = strpool__intern_len(pool, "hello world", 5);

	T("equal strings share one copy", a == b && a == c && a != buf);
	T("the copy is NUL-terminated", !strcmp(a, "hello") && a[5] == '\0');
	T("a prefix is another string", strpool__intern_len(pool, "hello", 4) != a &&
	  !strcmp(strpool__intern_len(pool, "hello", 4), "hell"));
	T("the empty string", strpool__intern(pool, "") == strpool__intern_len(pool, "x", 0) &&
	  !*strpool__intern(pool, ""));
	T("NULs inside count", strpool__intern_len(pool, "a\0b", 3) !=
	  strpool__intern_len(pool, "a\0c", 3) &&
	  !memcmp(strpool__intern_len(pool, "a\0b", 3), "a\0b", 4));
}

static void test_many(struct strpool *pool)
{
	const char **copies = xcalloc(NR_MANY, sizeof(*copies));
	char name[32];
	int i, same = 1, found = 1;

	for (i = 0; i < NR_MANY; i++) {
		snprintf(name, sizeof(name), "sym_%d", i);
		copies[i] = strpool__intern(pool, name);
	}
	for (i = 0; i < NR_MANY; i++) {
		snprintf(name, sizeof(name), "sym_%d", i);
		if (strcmp(copies[i], name))
			same = 0;
		if (strpool__intern(pool, name) != copies[i])
			found = 0;
	}
	T("many: copies stay put while the pool grows", same);
	T("many: each found again", found);
	free(copies);
}

static void test_long(struct strpool *pool)
{
	size_t len = 200000, i;
	char *big = xmalloc(len + 1);
	const char *a, *small;

	for (i = 0; i < len; i++)
		big[i] = (char)('a' + i % 26);
	big[len] = '\0';
	small = strpool__intern(pool, "after the long one");
	a = strpool__intern(pool, big);
	T("long: a string longer than a block", a != big && !strcmp(a, big));
	big[len - 1] = '!';
	T("long: differs in its last byte", strpool__intern(pool, big) != a);
	T("long: the block being filled is still used",
	  strpool__intern(pool, "after the long one") == small &&
	  !strcmp(strpool__intern(pool, "one more"), "one more"));
	free(big);
}

int main(void)
{
	struct strpool *pool = strpool__new();

	test_basics(pool);
	test_many(pool);
	test_long(pool);
	strpool__delete(pool);
	strpool__delete(NULL);
	return test_done();
}
