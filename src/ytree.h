/*
 * ytree.h - reading YAML through libyaml's document tree, with positions
 * for error messages. Shared by the data, state and config loaders.
 *
 * Ownership: struct ytree owns the parsed document; ytree_free() releases it.
 * Node pointers and scalar strings returned by the helpers point into the
 * document and live as long as it.
 */
#ifndef POSTRIDER_YTREE_H
#define POSTRIDER_YTREE_H

#include <stdbool.h>
#include <yaml.h>
#include "util.h"

struct ytree {
	yaml_document_t doc;
	bool loaded;
	const char *name;	/* file name used in messages (not owned) */
};

/*
 * Parses text (len bytes) as one YAML document. name is used in messages.
 * Returns 0, or -1 with "name:line:column: message" appended to err.
 * An empty text gives a tree whose root is NULL.
 */
int ytree_parse(struct ytree *t, const char *name, const char *text,
		size_t len, struct strbuf *err);
void ytree_free(struct ytree *t);

yaml_node_t *ytree_root(struct ytree *t);
/* The scalar text of n, or NULL if n is not a scalar. */
const char *ytree_scalar(yaml_node_t *n);
/* Mapping look-up by key; NULL if absent or n is not a mapping. */
yaml_node_t *ytree_get(struct ytree *t, yaml_node_t *map, const char *key);
/* Number of items of a sequence (0 if not a sequence), and item i. */
int ytree_len(yaml_node_t *seq);
yaml_node_t *ytree_item(struct ytree *t, yaml_node_t *seq, int i);
/* Number of pairs of a mapping, and pair i's key text and value. */
int ytree_map_len(yaml_node_t *map);
const char *ytree_map_key(struct ytree *t, yaml_node_t *map, int i,
			  yaml_node_t **key_node);
yaml_node_t *ytree_map_value(struct ytree *t, yaml_node_t *map, int i);

/* 1-based line and column of a node. */
int ytree_line(yaml_node_t *n);
int ytree_column(yaml_node_t *n);

/* Appends "name:line:column: <message>\n" for node n to err. */
void ytree_error(struct ytree *t, yaml_node_t *n, struct strbuf *err,
		 const char *fmt, ...) PRINTF_LIKE(4, 5);

/*
 * Typed scalar readers. Each returns 0 and stores the value, or -1 after
 * appending a positioned message to err ("expected an integer", ...).
 */
int ytree_int(struct ytree *t, yaml_node_t *n, long min, long max, long *out,
	      struct strbuf *err);
int ytree_bool(struct ytree *t, yaml_node_t *n, bool *out, struct strbuf *err);

/*
 * Checks that every key of map is in the NULL-terminated list allowed;
 * appends "unknown key 'k'" for each other key. Returns the count found.
 */
int ytree_check_keys(struct ytree *t, yaml_node_t *map,
		     const char *const *allowed, struct strbuf *err);

/*
 * Writing: appends s to out as a YAML scalar, quoted with double quotes
 * when plain style would be ambiguous (and escaped), plain otherwise.
 */
void ytree_emit_scalar(struct strbuf *out, const char *s);

#endif
