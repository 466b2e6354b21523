#include "common/common.h"
#include "common/utf8.h"

size_t utf8__seq(const unsigned char *s, uint32_t *cp)
{
	uint32_t c = s[0];
	size_t n, i;

	if (c < 0x80) {
		if (cp)
			*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, c &= 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, c &= 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, c &= 0x07;
	else
		return 0;
	/* a NUL ends the string before it can pass for a continuation byte */
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	if (cp)
		*cp = c;
	return n;
}

