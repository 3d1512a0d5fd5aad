#include "ytree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int ytree_parse(struct ytree *t, const char *name, const char *text,
		size_t len, struct strbuf *err)
{
	yaml_parser_t p;

	memset(t, 0, sizeof(*t));
	t->name = name;
	if (!yaml_parser_initialize(&p))
		BUG("yaml_parser_initialize failed");
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	if (!yaml_parser_load(&p, &t->doc)) {
		const yaml_mark_t *m = p.problem_mark.line || p.problem_mark.column
			? &p.problem_mark : &p.context_mark;
		strbuf_addf(err, "%s:%lu:%lu: %s%s%s\n", name,
			    (unsigned long)m->line + 1,
			    (unsigned long)m->column + 1,
			    p.problem ? p.problem : "invalid YAML",
			    p.context ? " " : "", p.context ? p.context : "");
		yaml_parser_delete(&p);
		return -1;
	}
	yaml_parser_delete(&p);
	t->loaded = true;
	return 0;
}

void ytree_free(struct ytree *t)
{
	if (t && t->loaded) {
		yaml_document_delete(&t->doc);
		t->loaded = false;
	}
}

yaml_node_t *ytree_root(struct ytree *t)
{
	return t->loaded ? yaml_document_get_root_node(&t->doc) : NULL;
}

const char *ytree_scalar(yaml_node_t *n)
{
	if (!n || n->type != YAML_SCALAR_NODE)
		return NULL;
	return (const char *)n->data.scalar.value;
}

int ytree_map_len(yaml_node_t *map)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return 0;
	return (int)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
}

const char *ytree_map_key(struct ytree *t, yaml_node_t *map, int i,
			  yaml_node_t **key_node)
{
	yaml_node_pair_t *pair = map->data.mapping.pairs.start + i;
	yaml_node_t *k = yaml_document_get_node(&t->doc, pair->key);

	if (key_node)
		*key_node = k;
	return ytree_scalar(k);
}

yaml_node_t *ytree_map_value(struct ytree *t, yaml_node_t *map, int i)
{
	yaml_node_pair_t *pair = map->data.mapping.pairs.start + i;
	return yaml_document_get_node(&t->doc, pair->value);
}

yaml_node_t *ytree_get(struct ytree *t, yaml_node_t *map, const char *key)
{
	int n = ytree_map_len(map);

	for (int i = 0; i < n; i++) {
		const char *k = ytree_map_key(t, map, i, NULL);
		if (k && !strcmp(k, key))
			return ytree_map_value(t, map, i);
	}
	return NULL;
}

int ytree_len(yaml_node_t *seq)
{
	if (!seq || seq->type != YAML_SEQUENCE_NODE)
		return 0;
	return (int)(seq->data.sequence.items.top - seq->data.sequence.items.start);
}

yaml_node_t *ytree_item(struct ytree *t, yaml_node_t *seq, int i)
{
	return yaml_document_get_node(&t->doc, seq->data.sequence.items.start[i]);
}

int ytree_line(yaml_node_t *n)
{
	return n ? (int)n->start_mark.line + 1 : 0;
}

int ytree_column(yaml_node_t *n)
{
	return n ? (int)n->start_mark.column + 1 : 0;
}

void ytree_error(struct ytree *t, yaml_node_t *n, struct strbuf *err,
		 const char *fmt, ...)
{
	va_list ap;

	strbuf_addf(err, "%s:%d:%d: ", t->name, ytree_line(n), ytree_column(n));
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
	strbuf_addch(err, '\n');
}

int ytree_int(struct ytree *t, yaml_node_t *n, long min, long max, long *out,
	      struct strbuf *err)
{
	const char *s = ytree_scalar(n);
	char *end;
	long v;

	if (!s || !*s) {
		ytree_error(t, n, err, "expected an integer");
		return -1;
	}
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end) {
		ytree_error(t, n, err, "expected an integer, found '%s'", s);
		return -1;
	}
	if (v < min || v > max) {
		ytree_error(t, n, err, "%ld is out of range (%ld to %ld)", v,
			    min, max);
		return -1;
	}
	*out = v;
	return 0;
}

int ytree_bool(struct ytree *t, yaml_node_t *n, bool *out, struct strbuf *err)
{
	const char *s = ytree_scalar(n);

	if (s && (!strcmp(s, "true") || !strcmp(s, "yes"))) {
		*out = true;
		return 0;
	}
	if (s && (!strcmp(s, "false") || !strcmp(s, "no"))) {
		*out = false;
		return 0;
	}
	ytree_error(t, n, err, "expected true or false, found '%s'",
		    s ? s : "(not a scalar)");
	return -1;
}

int ytree_check_keys(struct ytree *t, yaml_node_t *map,
		     const char *const *allowed, struct strbuf *err)
{
	int n = ytree_map_len(map), bad = 0;

	for (int i = 0; i < n; i++) {
		yaml_node_t *kn;
		const char *k = ytree_map_key(t, map, i, &kn);
		bool ok = false;

		for (const char *const *a = allowed; k && *a; a++)
			if (!strcmp(k, *a))
				ok = true;
		if (!ok) {
			ytree_error(t, kn, err, "unknown key '%s'",
				    k ? k : "(not a scalar)");
			bad++;
		}
	}
	return bad;
}

static bool needs_quotes(const char *s)
{
	static const char *const words[] = {
		"true", "false", "yes", "no", "null", "on", "off", "~", NULL
	};

	if (!*s)
		return true;
	for (const char *const *w = words; *w; w++)
		if (!strcasecmp(s, *w))
			return true;
	if (strchr("-?:,[]{}#&*!|>'\"%@` ", s[0]))
		return true;
	if (s[strlen(s) - 1] == ' ')
		return true;
	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c < 0x20 || c == 0x7f)
			return true;
		if ((c == ':' && (p[1] == ' ' || !p[1])) ||
		    (c == '#' && p > s && p[-1] == ' '))
			return true;
	}
	/* Numbers stay numbers; a string that looks like one is quoted by
	 * the caller's choice, not here. */
	return false;
}

void ytree_emit_scalar(struct strbuf *out, const char *s)
{
	if (!needs_quotes(s)) {
		strbuf_addstr(out, s);
		return;
	}
	strbuf_addch(out, '"');
	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '"' || c == '\\')
			strbuf_addf(out, "\\%c", c);
		else if (c == '\n')
			strbuf_addstr(out, "\\n");
		else if (c == '\t')
			strbuf_addstr(out, "\\t");
		else if (c < 0x20 || c == 0x7f)
			strbuf_addf(out, "\\x%02x", c);
		else
			strbuf_addch(out, c);
	}
	strbuf_addch(out, '"');
}
