/* libplain.so of golden case inline-synth: built without -g, so no DWARF, only symbols. */
static inline __attribute__((always_inline)) unsigned plain_helper(unsigned x)
{
	return x * 2246822519u;
}

__attribute__((noinline)) unsigned plain_work(unsigned x)
{
	unsigned i, r = 0;

	for (i = 0; i < (x & 15u); i++)
		r += plain_helper(r + i);
	return r;
}
