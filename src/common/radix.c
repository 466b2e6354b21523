#include "common/common.h"
#include "common/radix.h"

void radix_sort(struct radix_item *v, size_t n)
{
	struct radix_item *tmp, *src = v, *dst, *swap;
	size_t count[256], i, sum, c;
	uint64_t diff = 0;
	unsigned int shift;

	for (i = 1; i < n && v[i - 1].key <= v[i].key; i++)
		;
	if (i >= n)
		return;
	for (i = 1; i < n; i++)
		diff |= v[i].key ^ v[0].key;
	dst = tmp = xmalloc(st_mult(n, sizeof(*tmp)));
	for (shift = 0; shift < 64; shift += 8) {
		if (!((diff >> shift) & 0xff))
			continue;
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[(src[i].key >> shift) & 0xff]++;
		for (i = 0, sum = 0; i < 256; i++) {
			c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[count[(src[i].key >> shift) & 0xff]++] = src[i];
		swap = src;
		src = dst;
		dst = swap;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
}
