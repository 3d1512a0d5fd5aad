/*
 * dkim-dns.c - TXT records from DNS or from the host's key file
 * (dkim-dns.h).
 */
#include <arpa/nameser.h>
#include <netinet/in.h>
#include <netdb.h>
#include <resolv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dkim-dns.h"

/* Names compare without a final dot and ignoring case. */
static bool same_name(const char *a, size_t al, const char *b)
{
	size_t bl = strlen(b);

	if (al && a[al - 1] == '.')
		al--;
	if (bl && b[bl - 1] == '.')
		bl--;
	return al == bl && !ascii_strncasecmp(a, b, al);
}

static void add_record(struct strbuf *out, const char *t, size_t n)
{
	if (out->len)
		strbuf_addch(out, '\n');
	for (size_t i = 0; i < n; i++)	/* one record, one line */
		strbuf_addch(out, (unsigned char)t[i] < 0x20 || t[i] == 0x7f ? ' ' : t[i]);
}

static int from_file(const char *file, const char *name, char **txt)
{
	struct strbuf text = STRBUF_INIT, out = STRBUF_INIT;
	int ret = 0;

	if (read_file(file, &text, 1 << 20) < 0) {
		warning("cannot read the DKIM key file '%s'", file);
		strbuf_release(&text);
		return -1;
	}
	for (const char *p = text.buf; *p;) {
		size_t n = strcspn(p, "\n"), nl = strcspn(p, " \t\n");
		const char *v = p + nl;
		while (*v == ' ' || *v == '\t')
			v++;
		if (*p != '#' && nl && nl < n && same_name(p, nl, name)) {
			size_t vl = (size_t)(p + n - v);
			while (vl && (v[vl - 1] == '\r' || v[vl - 1] == ' '))
				vl--;
			if (vl == 10 && !memcmp(v, "!temperror", 10)) {
				ret = -1;
				break;
			}
			add_record(&out, v, vl);
			ret = 1;
		}
		p += n + (p[n] == '\n');
	}
	if (ret == 1)
		*txt = strbuf_detach(&out, NULL);
	strbuf_release(&out);
	strbuf_release(&text);
	return ret;
}

static int from_dns(long timeout, const char *name, char **txt)
{
	struct __res_state st;
	unsigned char ans[8192];
	struct strbuf out = STRBUF_INIT;
	ns_msg msg;
	int len, ret = 0;

	memset(&st, 0, sizeof(st));
	if (res_ninit(&st) < 0)
		return -1;
	st.retrans = (int)timeout;
	st.retry = 1;
	len = res_nquery(&st, name, ns_c_in, ns_t_txt, ans, sizeof(ans));
	if (len < 0) {
		/* no such name, or no TXT there: none; else DNS is down */
		ret = st.res_h_errno == HOST_NOT_FOUND || st.res_h_errno == NO_DATA ? 0 : -1;
		goto out;
	}
	if (ns_initparse(ans, len, &msg) < 0) {
		ret = -1;
		goto out;
	}
	for (int i = 0; i < ns_msg_count(msg, ns_s_an); i++) {
		ns_rr rr;
		const unsigned char *r, *end;
		struct strbuf one = STRBUF_INIT;
		if (ns_parserr(&msg, ns_s_an, i, &rr) < 0 || ns_rr_type(rr) != ns_t_txt)
			continue;
		r = ns_rr_rdata(rr);
		end = r + ns_rr_rdlen(rr);
		while (r < end) {	/* its strings, joined */
			size_t n = *r++;
			if (n > (size_t)(end - r))
				break;
			strbuf_add(&one, r, n);
			r += n;
		}
		add_record(&out, one.buf, one.len);
		strbuf_release(&one);
		ret = 1;
	}
	if (ret == 1)
		*txt = strbuf_detach(&out, NULL);
out:
	res_nclose(&st);
	strbuf_release(&out);
	return ret;
}

int dkim_txt(const struct dkim_config *cfg, const char *name, char **txt)
{
	*txt = NULL;
	if (cfg->keys)
		return from_file(cfg->keys, name, txt);
	return from_dns(cfg->timeout > 0 ? cfg->timeout : 5, name, txt);
}

/* The value of tag `tag` in a DMARC record (a tag list), or "". */
static void dmarc_tag(const char *rec, const char *tag, char *out, size_t n)
{
	size_t tl = strlen(tag);

	out[0] = '\0';
	for (const char *p = rec; *p;) {
		while (*p == ' ' || *p == '\t' || *p == ';')
			p++;
		if (!strncmp(p, tag, tl)) {
			const char *v = p + tl;
			while (*v == ' ' || *v == '\t')
				v++;
			if (*v == '=') {
				v++;
				while (*v == ' ' || *v == '\t')
					v++;
				size_t k = strcspn(v, "; \t");
				if (k < n) {
					memcpy(out, v, k);
					out[k] = '\0';
					for (char *c = out; *c; c++)
						if (*c >= 'A' && *c <= 'Z')
							*c = (char)(*c - 'A' + 'a');
				}
				return;
			}
		}
		p += strcspn(p, ";");
	}
}

int dkim_dmarc(const struct dkim_config *cfg, const char *dom, char **policy, char **record)
{
	const char *d = dom;
	bool parent = false;

	for (;;) {
		char *name = xstrfmt("_dmarc.%s", d), *txt = NULL, *use = NULL;
		int r = dkim_txt(cfg, name, &txt);
		if (r < 0) {
			free(name);
			return -1;
		}
		/* exactly one record that begins with v=DMARC1 counts */
		for (char *p = txt, *e; r > 0 && p; p = e ? e + 1 : NULL) {
			e = strchr(p, '\n');
			size_t n = e ? (size_t)(e - p) : strlen(p);
			const char *q = p;
			while (*q == ' ')
				q++;
			if (!strncmp(q, "v=DMARC1", 8) && (q[8] == ';' || q[8] == ' ' || !q[8] ||
							   (size_t)(q + 8 - p) == n)) {
				if (use) {
					free(use);
					use = NULL;
					break;
				}
				use = xstrndup(p, n);
			}
		}
		free(txt);
		if (use) {
			char p[16], sp[16];
			dmarc_tag(use, "p", p, sizeof(p));
			dmarc_tag(use, "sp", sp, sizeof(sp));
			const char *pol = parent && *sp ? sp : p;
			if (strcmp(pol, "none") && strcmp(pol, "quarantine") && strcmp(pol, "reject"))
				pol = "none";
			*policy = xstrdup(pol);
			*record = xstrfmt("%s %s", name, use);
			free(use);
			free(name);
			return 1;
		}
		free(name);
		/* the nearest parent of two labels or more */
		const char *dot = strchr(d, '.');
		if (!dot || !strchr(dot + 1, '.'))
			return 0;
		d = dot + 1;
		parent = true;
	}
}
