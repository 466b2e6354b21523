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

/*
 * The label of whatever is not known (a frame's symbol or file, an
 * unwinder's object, a task's name): the one spelling of "[unknown]",
 * compared against by the writers that treat it apart.
 */
#define UNKNOWN_LABEL "[unknown]"

#include "common/alloc.h"
#include "common/msg.h"

#include "common/banned.h"

#endif
