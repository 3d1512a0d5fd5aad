/*
 * dkim.c - checking a message's DKIM signatures (dkim.h): RFC 6376
 * sections 3.2 (tag lists), 3.5 (the signature's tags), 3.6.1 (the key
 * record), 3.7 (the hashes) and 6.1 (verifying), with RFC 8463's
 * ed25519-sha256 and RFC 8301's rules (no rsa-sha1, RSA keys of 1024
 * bits or more).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "codec.h"
#include "dkim.h"

#define MAX_TAGS 32
#define MAX_FIELDS 1000

struct tag {
	char name[16];
	char *value;	/* blanks around it removed; folding inside kept */
};

static bool fws(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static bool alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

static void tags_free(struct tag *t, int n)
{
	for (int i = 0; i < n; i++)
		free(t[i].value);
}

/* A tag list (RFC 6376 3.2): 0, or -1 with why (tags freed). */
static int tags_parse(const char *s, size_t len, struct tag *t, int *n, struct strbuf *why)
{
	const char *p = s, *end = s + len;

	*n = 0;
	while (p < end) {
		const char *seg_end = memchr(p, ';', (size_t)(end - p)), *q, *v, *ve;
		size_t nl;
		if (!seg_end)
			seg_end = end;
		q = p;
		while (q < seg_end && fws(*q))
			q++;
		if (q == seg_end) {
			/* only a final ';' may leave an empty spec */
			if (seg_end != end && seg_end + 1 < end) {
				strbuf_addstr(why, "an empty tag in the tag list");
				goto bad;
			}
			p = seg_end + 1;
			continue;
		}
		if (!alpha(*q)) {
			strbuf_addstr(why, "a tag name that does not begin with a letter");
			goto bad;
		}
		for (nl = 0; q + nl < seg_end && (alpha(q[nl]) || digit(q[nl]) || q[nl] == '_'); nl++)
			;
		v = q + nl;
		while (v < seg_end && fws(*v))
			v++;
		if (v == seg_end || *v != '=' || nl >= sizeof(t[0].name)) {
			strbuf_addf(why, "tag '%.*s' has no '='", (int)(nl > 20 ? 20 : nl), q);
			goto bad;
		}
		v++;
		while (v < seg_end && fws(*v))
			v++;
		ve = seg_end;
		while (ve > v && fws(ve[-1]))
			ve--;
		for (int i = 0; i < *n; i++) {
			if (strlen(t[i].name) == nl && !memcmp(t[i].name, q, nl)) {
				strbuf_addf(why, "tag '%.*s' twice", (int)nl, q);
				goto bad;
			}
		}
		if (*n == MAX_TAGS) {
			strbuf_addstr(why, "too many tags");
			goto bad;
		}
		memcpy(t[*n].name, q, nl);
		t[*n].name[nl] = '\0';
		t[*n].value = xstrndup(v, (size_t)(ve - v));
		(*n)++;
		p = seg_end + 1;
	}
	return 0;
bad:
	tags_free(t, *n);
	*n = 0;
	return -1;
}

static const char *tag_get(const struct tag *t, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(t[i].name, name))
			return t[i].value;
	return NULL;
}

/* s without folding white space, malloc'd. */
static char *no_fws(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	for (; *s; s++)
		if (!fws(*s))
			*o++ = *s;
	*o = '\0';
	return out;
}

/* base64 without blanks into out; false when it is no base64 at all. */
static bool b64(const char *s, struct strbuf *out)
{
	char *t = no_fws(s);
	size_t n = strlen(t);
	bool ok = n % 4 == 0;

	for (size_t i = 0; ok && i < n; i++)
		ok = alpha(t[i]) || digit(t[i]) || t[i] == '+' || t[i] == '/' ||
		     (t[i] == '=' && i + 2 >= n);
	if (ok)
		codec_base64_decode(t, n, out);
	free(t);
	return ok;
}

static void lower(char *s)
{
	for (; *s; s++)
		if (*s >= 'A' && *s <= 'Z')
			*s = (char)(*s - 'A' + 'a');
}

/* A domain or selector: labels of letters, digits, '-' and '_'. */
static bool domain_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 253 || s[0] == '.' || s[n - 1] == '.' || strstr(s, ".."))
		return false;
	for (; *s; s++)
		if (!alpha(*s) && !digit(*s) && *s != '-' && *s != '_' && *s != '.')
			return false;
	return true;
}

bool dkim_aligned(const char *d, const char *dom)
{
	size_t ld = strlen(d), lm = strlen(dom);

	if (!ascii_strcasecmp(d, dom))
		return true;
	if (lm > ld && dom[lm - ld - 1] == '.' && !ascii_strcasecmp(dom + lm - ld, d))
		return strchr(d, '.') != NULL;
	if (ld > lm && d[ld - lm - 1] == '.' && !ascii_strcasecmp(d + ld - lm, dom))
		return strchr(dom, '.') != NULL;
	return false;
}

static int parse_canon(const char *c, enum dkim_canon *h, enum dkim_canon *b)
{
	char head[16], body[16] = "simple";
	const char *slash = strchr(c, '/');
	size_t hl = slash ? (size_t)(slash - c) : strlen(c);

	if (hl >= sizeof(head) || (slash && strlen(slash + 1) >= sizeof(body)))
		return -1;
	memcpy(head, c, hl);
	head[hl] = '\0';
	if (slash)
		strcpy(body, slash + 1);
	if (!strcmp(head, "simple"))
		*h = DKIM_SIMPLE;
	else if (!strcmp(head, "relaxed"))
		*h = DKIM_RELAXED;
	else
		return -1;
	if (!strcmp(body, "simple"))
		*b = DKIM_SIMPLE;
	else if (!strcmp(body, "relaxed"))
		*b = DKIM_RELAXED;
	else
		return -1;
	return 0;
}

/* An unsigned decimal of at most 18 digits. */
static bool number(const char *s, long long *v)
{
	size_t n = strlen(s);

	if (!n || n > 18 || strspn(s, "0123456789") != n)
		return false;
	*v = strtoll(s, NULL, 10);
	return true;
}

/* The field f with the value of its b= tag removed (RFC 6376 3.7). */
static void without_b(const struct dkim_field *f, struct strbuf *out)
{
	const char *v = memchr(f->start, ':', f->len) + 1, *end = f->start + f->len, *p = v;

	strbuf_add(out, f->start, (size_t)(v - f->start));
	while (p < end) {
		const char *seg = memchr(p, ';', (size_t)(end - p)), *q = p;
		if (!seg)
			seg = end;
		while (q < seg && fws(*q))
			q++;
		if (q < seg && *q == 'b') {
			const char *e = q + 1;
			while (e < seg && fws(*e))
				e++;
			if (e < seg && *e == '=') {
				strbuf_add(out, p, (size_t)(e + 1 - p));
				p = seg;
				if (p < end)
					strbuf_addch(out, ';'), p++;
				continue;
			}
		}
		strbuf_add(out, p, (size_t)(seg - p));
		if (seg < end)
			strbuf_addch(out, ';');
		p = seg + 1;
	}
}

/* The public key of a key record for algorithm a, or NULL with why. */
static EVP_PKEY *key_of(const char *record, const char *a, const char *i_dom, const char *d,
			struct strbuf *why)
{
	struct tag t[MAX_TAGS];
	int n;
	const char *v, *k, *p, *h, *sv, *fl;
	struct strbuf der = STRBUF_INIT;
	EVP_PKEY *key = NULL;
	bool ed = !strcmp(a, "ed25519-sha256");

	if (tags_parse(record, strlen(record), t, &n, why) < 0)
		return NULL;
	v = tag_get(t, n, "v");
	k = tag_get(t, n, "k");
	p = tag_get(t, n, "p");
	h = tag_get(t, n, "h");
	sv = tag_get(t, n, "s");
	fl = tag_get(t, n, "t");
	if (v && (strcmp(v, "DKIM1") || strcmp(t[0].name, "v"))) {
		strbuf_addstr(why, "the key record's v= is not DKIM1 first");
		goto out;
	}
	if (!p) {
		strbuf_addstr(why, "the key record has no p=");
		goto out;
	}
	if (!*p) {
		strbuf_addstr(why, "the key is revoked (p= is empty)");
		goto out;
	}
	if (strcmp(k ? k : "rsa", ed ? "ed25519" : "rsa")) {
		strbuf_addf(why, "the key is of type %s, the signature of %s", k ? k : "rsa", a);
		goto out;
	}
	if (h) {
		char *list = no_fws(h), *save = NULL;
		bool ok = false;
		for (char *x = strtok_r(list, ":", &save); x; x = strtok_r(NULL, ":", &save))
			ok = ok || !strcmp(x, "sha256");
		free(list);
		if (!ok) {
			strbuf_addstr(why, "the key record's h= does not allow sha256");
			goto out;
		}
	}
	if (sv) {
		char *list = no_fws(sv), *save = NULL;
		bool ok = false;
		for (char *x = strtok_r(list, ":", &save); x; x = strtok_r(NULL, ":", &save))
			ok = ok || !strcmp(x, "*") || !strcmp(x, "email");
		free(list);
		if (!ok) {
			strbuf_addstr(why, "the key record's s= is not for email");
			goto out;
		}
	}
	if (fl && i_dom) {
		char *list = no_fws(fl), *save = NULL;
		bool strict = false;
		for (char *x = strtok_r(list, ":", &save); x; x = strtok_r(NULL, ":", &save))
			strict = strict || !strcmp(x, "s");
		free(list);
		if (strict && ascii_strcasecmp(i_dom, d)) {
			strbuf_addstr(why, "the key's t=s wants i= in the domain d= itself");
			goto out;
		}
	}
	if (!b64(p, &der) || !der.len) {
		strbuf_addstr(why, "the key's p= is not base64");
		goto out;
	}
	if (ed) {
		if (der.len != 32) {
			strbuf_addf(why, "an ed25519 key of %zu bytes, not 32", der.len);
			goto out;
		}
		key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL,
						  (const unsigned char *)der.buf, 32);
	} else {
		const unsigned char *q = (const unsigned char *)der.buf;
		key = d2i_PUBKEY(NULL, &q, (long)der.len);
		if (!key) {
			/* a bare RSAPublicKey (PKCS #1), as some publish */
			q = (const unsigned char *)der.buf;
			key = d2i_PublicKey(EVP_PKEY_RSA, NULL, &q, (long)der.len);
		}
		if (key && EVP_PKEY_get_base_id(key) != EVP_PKEY_RSA) {
			EVP_PKEY_free(key);
			key = NULL;
		}
		if (key && EVP_PKEY_get_bits(key) < 1024) {
			strbuf_addf(why, "an RSA key of %d bits, fewer than 1024 (RFC 8301)",
				    EVP_PKEY_get_bits(key));
			EVP_PKEY_free(key);
			key = NULL;
			goto out;
		}
	}
	if (!key)
		strbuf_addstr(why, "the key's p= is not a public key");
out:
	tags_free(t, n);
	strbuf_release(&der);
	return key;
}

/* Whether sig verifies data under key for algorithm a. */
static bool crypto_ok(EVP_PKEY *key, const char *a, const struct strbuf *data,
		      const struct strbuf *sig)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned char hash[32];
	bool ok = false;

	if (!ctx)
		return false;
	if (!strcmp(a, "ed25519-sha256")) {
		/* RFC 8463 3: Ed25519 signs the SHA-256 of the data */
		unsigned int hl = 0;
		ok = EVP_Digest(data->buf, data->len, hash, &hl, EVP_sha256(), NULL) == 1 &&
		     EVP_DigestVerifyInit(ctx, NULL, NULL, NULL, key) == 1 &&
		     EVP_DigestVerify(ctx, (const unsigned char *)sig->buf, sig->len, hash, hl) == 1;
	} else {
		ok = EVP_DigestVerifyInit(ctx, NULL, EVP_sha256(), NULL, key) == 1 &&
		     EVP_DigestVerify(ctx, (const unsigned char *)sig->buf, sig->len,
				      (const unsigned char *)data->buf, data->len) == 1;
	}
	EVP_MD_CTX_free(ctx);
	return ok;
}

static void set(struct dkim_sig *s, enum dkim_verdict v, struct strbuf *why)
{
	s->verdict = v;
	free(s->why);
	s->why = why->len ? xstrdup(why->buf) : NULL;
}

/* Checks the signature in field sf of a CRLF message (fields f, body). */
static void check_one(const struct dkim_field *f, size_t nf, size_t sf, const char *body,
		      size_t body_len, dkim_key_fn key_fn, void *ctx, long long now,
		      struct dkim_sig *out)
{
	const struct dkim_field *sig = &f[sf];
	const char *val = memchr(sig->start, ':', sig->len) + 1;
	struct tag t[MAX_TAGS];
	int n = 0;
	struct strbuf why = STRBUF_INIT, canon = STRBUF_INIT, bh = STRBUF_INIT;
	struct strbuf b = STRBUF_INIT, data = STRBUF_INIT, field = STRBUF_INIT;
	const char *v, *a, *bv, *bhv, *d, *h, *s, *c, *i, *l, *q, *x;
	enum dkim_canon ch = DKIM_SIMPLE, cb = DKIM_SIMPLE;
	char *names = NULL, *rec = NULL, *i_dom = NULL;
	bool *used = NULL, from = false;
	long long lv = -1, xv, tv;
	unsigned char digest[32];
	unsigned int dl;
	EVP_PKEY *key = NULL;
	int kr;

	out->verdict = DKIM_FAIL;
	if (tags_parse(val, (size_t)(sig->start + sig->len - val), t, &n, &why) < 0)
		goto done;
	v = tag_get(t, n, "v");
	a = tag_get(t, n, "a");
	bv = tag_get(t, n, "b");
	bhv = tag_get(t, n, "bh");
	d = tag_get(t, n, "d");
	h = tag_get(t, n, "h");
	s = tag_get(t, n, "s");
	c = tag_get(t, n, "c");
	i = tag_get(t, n, "i");
	l = tag_get(t, n, "l");
	q = tag_get(t, n, "q");
	x = tag_get(t, n, "x");
	if (d && domain_ok(d)) {
		out->d = xstrdup(d);
		lower(out->d);
	}
	if (s && domain_ok(s)) {
		out->s = xstrdup(s);
		lower(out->s);
	}
	if (a)
		out->a = no_fws(a);
	out->c = xstrdup(c ? c : "simple/simple");
	if (!v || strcmp(v, "1") || !a || !bv || !bhv || !d || !h || !s) {
		strbuf_addstr(&why, "the signature lacks a required tag (v=1, a, b, bh, d, h, s)");
		goto done;
	}
	if (!out->d || !out->s) {
		strbuf_addstr(&why, "the signature's d= or s= is no domain name");
		goto done;
	}
	out->key_name = xstrfmt("%s._domainkey.%s", out->s, out->d);
	if (!strcmp(out->a, "rsa-sha1")) {
		strbuf_addstr(&why, "rsa-sha1 is not accepted (RFC 8301)");
		goto done;
	}
	if (strcmp(out->a, "rsa-sha256") && strcmp(out->a, "ed25519-sha256")) {
		strbuf_addf(&why, "the algorithm '%.40s' is unknown", out->a);
		goto done;
	}
	if (parse_canon(out->c, &ch, &cb) < 0) {
		strbuf_addf(&why, "the canonicalisation '%.40s' is unknown", out->c);
		goto done;
	}
	if (q) {
		char *list = no_fws(q), *save = NULL;
		bool ok = false;
		for (char *y = strtok_r(list, ":", &save); y; y = strtok_r(NULL, ":", &save))
			ok = ok || !strcmp(y, "dns/txt");
		free(list);
		if (!ok) {
			strbuf_addstr(&why, "the signature's q= names no dns/txt");
			goto done;
		}
	}
	if (i) {
		const char *at = strrchr(i, '@');
		size_t il = at ? strlen(at + 1) : 0, dl2 = strlen(out->d);
		if (!at || !domain_ok(at + 1) ||
		    (ascii_strcasecmp(at + 1, out->d) &&
		     !(il > dl2 && at[il - dl2] == '.' &&
		       !ascii_strcasecmp(at + 1 + il - dl2, out->d)))) {
			strbuf_addstr(&why, "i= is not in the domain d= or below it");
			goto done;
		}
		i_dom = xstrdup(at + 1);
	}
	if (l && !number(l, &lv)) {
		strbuf_addstr(&why, "l= is no number");
		goto done;
	}
	if (x) {
		if (!number(x, &xv)) {
			strbuf_addstr(&why, "x= is no number");
			goto done;
		}
		if (tag_get(t, n, "t") && number(tag_get(t, n, "t"), &tv) && tv > xv) {
			strbuf_addstr(&why, "the signature expires before it was made (x= < t=)");
			goto done;
		}
		if (xv < now) {
			strbuf_addstr(&why, "the signature had expired (x=)");
			goto done;
		}
	}
	names = no_fws(h);
	for (char *p = names, *e; p; p = e ? e + 1 : NULL) {
		e = strchr(p, ':');
		size_t k = e ? (size_t)(e - p) : strlen(p);
		from = from || (k == 4 && !ascii_strncasecmp(p, "from", 4));
	}
	if (!from) {
		strbuf_addstr(&why, "h= does not name From");
		goto done;
	}
	/* the key */
	kr = key_fn(ctx, out->key_name, &rec);
	if (kr < 0) {
		strbuf_addf(&why, "the key record %s could not be fetched", out->key_name);
		out->verdict = DKIM_TEMPERROR;
		goto done;
	}
	if (kr == 0 || !rec) {
		strbuf_addf(&why, "there is no key record at %s", out->key_name);
		goto done;
	}
	for (char *r = rec, *e; r && !key; r = e ? e + 1 : NULL) {
		e = strchr(r, '\n');
		if (e)
			*e = '\0';
		strbuf_reset(&why);
		key = key_of(r, out->a, i_dom, out->d, &why);
	}
	if (!key)
		goto done;
	strbuf_reset(&why);
	/* the body hash */
	dkim_canon_body(cb, body, body_len, &canon);
	if (lv >= 0) {
		if ((size_t)lv > canon.len) {
			strbuf_addstr(&why, "l= is longer than the body");
			goto done;
		}
		canon.len = (size_t)lv;
	}
	if (EVP_Digest(canon.buf, canon.len, digest, &dl, EVP_sha256(), NULL) != 1 ||
	    !b64(bhv, &bh) || bh.len != 32 || memcmp(bh.buf, digest, 32)) {
		strbuf_addstr(&why, "the body hash does not match (the body was changed)");
		goto done;
	}
	/* the header fields h= names, each from the bottom up */
	used = xcalloc(nf ? nf : 1, sizeof(*used));
	for (char *p = names, *e; p; p = e ? e + 1 : NULL) {
		e = strchr(p, ':');
		size_t k = e ? (size_t)(e - p) : strlen(p);
		for (size_t j = nf; j-- > 0;) {
			if (used[j] || j == sf || f[j].name_len != k ||
			    ascii_strncasecmp(f[j].start, p, k))
				continue;
			used[j] = true;
			dkim_canon_header(ch, &f[j], &data);
			break;
		}
	}
	without_b(sig, &field);
	{
		struct dkim_field own = { field.buf, sig->name_len, field.len };
		dkim_canon_header(ch, &own, &data);
		data.len -= 2;	/* its own CRLF is not signed */
		data.buf[data.len] = '\0';
	}
	if (!b64(bv, &b) || !b.len) {
		strbuf_addstr(&why, "b= is not base64");
		goto done;
	}
	if (!crypto_ok(key, out->a, &data, &b)) {
		strbuf_addstr(&why, "the signature does not verify (a signed header field was changed)");
		goto done;
	}
	out->verdict = DKIM_PASS;
done:
	set(out, out->verdict, &why);
	if (out->verdict == DKIM_PASS) {
		free(out->why);
		out->why = NULL;
	}
	EVP_PKEY_free(key);
	tags_free(t, n);
	free(names);
	free(rec);
	free(i_dom);
	free(used);
	strbuf_release(&why);
	strbuf_release(&canon);
	strbuf_release(&bh);
	strbuf_release(&b);
	strbuf_release(&data);
	strbuf_release(&field);
}

static bool is_sig(const struct dkim_field *f)
{
	return f->name_len == 14 && !ascii_strncasecmp(f->start, "DKIM-Signature", 14);
}

int dkim_check(const char *msg, size_t len, dkim_key_fn key, void *ctx, long long now,
	       struct dkim_sig **sigs, size_t *n)
{
	struct strbuf m = STRBUF_INIT;
	struct dkim_field *f = xmalloc(MAX_FIELDS * sizeof(*f));
	const char *body;
	size_t nf, k = 0;
	int ret = -1;

	*sigs = NULL;
	*n = 0;
	dkim_crlf(msg, len, &m);
	if (dkim_split(m.buf, m.len, f, MAX_FIELDS, &nf, &body) < 0)
		goto out;
	for (size_t j = 0; j < nf; j++)
		k += is_sig(&f[j]);
	*sigs = xcalloc(k ? k : 1, sizeof(**sigs));
	for (size_t j = 0; j < nf; j++) {
		struct dkim_sig *s;
		if (!is_sig(&f[j]))
			continue;
		s = &(*sigs)[(*n)++];
		if (*n > DKIM_MAX_SIGS) {
			s->verdict = DKIM_UNCHECKED;
			s->why = xstrdup("not checked: a message's first signatures only are");
			continue;
		}
		check_one(f, nf, j, body, (size_t)(m.buf + m.len - body), key, ctx, now, s);
	}
	ret = 0;
out:
	free(f);
	strbuf_release(&m);
	return ret;
}

void dkim_sigs_free(struct dkim_sig *sigs, size_t n)
{
	for (size_t i = 0; sigs && i < n; i++) {
		free(sigs[i].d);
		free(sigs[i].s);
		free(sigs[i].a);
		free(sigs[i].c);
		free(sigs[i].key_name);
		free(sigs[i].why);
	}
	free(sigs);
}

void dkim_signed_names(const char *msg, size_t len, struct strbuf *out)
{
	struct strbuf m = STRBUF_INIT;
	struct dkim_field *f = xmalloc(MAX_FIELDS * sizeof(*f));
	const char *body;
	size_t nf;

	dkim_crlf(msg, len, &m);
	if (dkim_split(m.buf, m.len, f, MAX_FIELDS, &nf, &body) == 0) {
		for (size_t j = 0; j < nf; j++) {
			struct tag t[MAX_TAGS];
			struct strbuf why = STRBUF_INIT;
			const char *val = memchr(f[j].start, ':', f[j].len) + 1, *h;
			int n;
			if (!is_sig(&f[j]) ||
			    tags_parse(val, (size_t)(f[j].start + f[j].len - val), t, &n, &why) < 0) {
				strbuf_release(&why);
				continue;
			}
			if ((h = tag_get(t, n, "h"))) {
				char *names = no_fws(h), *save = NULL;
				lower(names);
				for (char *x = strtok_r(names, ":", &save); x;
				     x = strtok_r(NULL, ":", &save)) {
					char *probe = xstrfmt(":%s:", x);
					char *have = xstrfmt(":%s:", out->buf);
					if (!strstr(have, probe)) {
						if (out->len)
							strbuf_addch(out, ':');
						strbuf_addstr(out, x);
					}
					free(probe);
					free(have);
				}
				free(names);
			}
			tags_free(t, n);
			strbuf_release(&why);
		}
	}
	free(f);
	strbuf_release(&m);
}
