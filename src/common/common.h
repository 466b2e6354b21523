/*
 * Included first by every .c file in src/: system headers used
 * everywhere, the allocation and message helpers, and banned.h last.
 */
#ifndef JITSYM_COMMON_H
#define JITSYM_COMMON_H

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/msg.h"

#include "common/banned.h"

#endif
