/*
 * data-internal.h - what the parts of the component data module share:
 * data.c (the file names, look-ups, data_free), data-load.c (loading),
 * data-check.c (the facts the rulebook pins) and data-dump.c (the data
 * back as YAML); data-load.c calls data-check.c, both stand on data.c.
 * Not for other modules.
 *
 * Ownership: as data.h; nothing here allocates.
 */
#ifndef POSTRIDER_DATA_INTERNAL_H
#define POSTRIDER_DATA_INTERNAL_H

#include "data.h"

/* The data files, in the order they are loaded. */
enum data_file {
	F_COLONIES, F_SPACES, F_GENERALS, F_ZONES, F_CONNECTIONS, F_SETUP,
	F_TURNS, F_COUNTERS, F_CARDS, F_COUNT
};
extern const char *const data_file_names[F_COUNT];

/* Appends "file:line:column: message" for a record's source to errs and
 * counts it. */
void data_src_err(struct strbuf *errs, int *count, const struct data_source *src,
		  const char *fmt, ...) PRINTF_LIKE(4, 5);

#endif
