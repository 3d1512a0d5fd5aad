/*
 * dkim-intake.c - a player's mail checked and kept with his order
 * (dkim-intake.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/evp.h>

#include "codec.h"
#include "dkim-dns.h"
#include "dkim-intake.h"
#include "repo.h"

#define MAX_FIELDS 1000

/* The key records fetched for one check, in the order first asked for. */
struct keyring {
	const struct dkim_config *cfg;
	struct strbuf lines;	/* "key NAME TEXT\n" each */
};

static int fetch_key(void *ctx, const char *name, char **txt)
{
	struct keyring *k = ctx;
	int r = dkim_txt(k->cfg, name, txt);

	if (r > 0) {
		for (const char *p = *txt; ; ) {
			size_t n = strcspn(p, "\n");
			strbuf_addf(&k->lines, "key %s %.*s\n", name, (int)n, p);
			if (!p[n])
				break;
			p += n + 1;
		}
	} else {
		strbuf_addf(&k->lines, "key %s %s\n", name,
			    r < 0 ? "(temporary failure)" : "(none)");
	}
	return r;
}

/* The domain of an addr-spec, or "". */
static const char *domain_of(const char *addr)
{
	const char *at = addr ? strrchr(addr, '@') : NULL;
	return at ? at + 1 : "";
}

/* Whether the trusted Authentication-Results says dkim=pass for a domain
 * aligned with dom; that domain into d. */
static bool mta_pass(const char *ar, const char *dom, char *d, size_t dn)
{
	const char *p = ar ? strchr(ar, ';') : NULL;

	while (p && *p) {
		const char *e;
		p++;
		while (*p == ' ')
			p++;
		e = p + strcspn(p, ";");
		if (!ascii_strncasecmp(p, "dkim=pass", 9) && (p[9] == ' ' || p + 9 == e)) {
			for (const char *q = p; q < e; q++) {
				bool hd = !ascii_strncasecmp(q, "header.d=", 9);
				bool hi = !ascii_strncasecmp(q, "header.i=", 9);
				if ((hd || hi) && (q == p || q[-1] == ' ')) {
					const char *v = q + 9;
					size_t n;
					if (hi && memchr(v, '@', (size_t)(e - v)))
						v = (const char *)memchr(v, '@', (size_t)(e - v)) + 1;
					n = strcspn(v, " ;");
					if (n && n < dn) {
						memcpy(d, v, n);
						d[n] = '\0';
						for (char *c = d; *c; c++)
							if (*c >= 'A' && *c <= 'Z')
								*c = (char)(*c - 'A' + 'a');
						if (dkim_aligned(d, dom))
							return true;
					}
				}
			}
		}
		p = e;
	}
	return false;
}

/* s if it is a short word of letters, digits, '-' and '/', else "-". */
static const char *plain(const char *s)
{
	if (!s || !*s || strlen(s) > 40 || strspn(s, "abcdefghijklmnopqrstuvwxyz"
						    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-/") != strlen(s))
		return "-";
	return s;
}

void dkim_describe(const struct dkim_sig *sigs, size_t n, const char *from_addr,
		   const char *ar, struct strbuf *result, struct strbuf *sig_lines)
{
	static const char *const names[] = { "pass", "fail", "temperror", "unchecked" };
	const char *dom = domain_of(from_addr), *pass = NULL;
	bool temp = false, any_fail = false;
	struct strbuf other = STRBUF_INIT;
	char d[256];

	for (size_t i = 0; i < n; i++) {
		const struct dkim_sig *s = &sigs[i];
		bool al = s->d && dkim_aligned(s->d, dom);
		strbuf_addf(sig_lines, "signature %zu %s d=%s s=%s a=%s c=%s%s%s\n", i + 1,
			    names[s->verdict], s->d ? s->d : "-", s->s ? s->s : "-",
			    plain(s->a), plain(s->c),
			    s->why ? ": " : "", s->why ? s->why : "");
		if (s->verdict == DKIM_PASS && al && !pass)
			pass = s->d;
		else if (s->verdict == DKIM_PASS && !strstr(other.buf, s->d))
			strbuf_addf(&other, " %s", s->d);
		else if (al && (s->verdict == DKIM_TEMPERROR || s->verdict == DKIM_UNCHECKED))
			temp = true;
		else if (al)
			any_fail = true;
	}
	if (pass)
		strbuf_addf(result, "pass %s", pass);
	else if (!any_fail && ar && mta_pass(ar, dom, d, sizeof(d)))
		strbuf_addf(result, "pass-mta %s", d);
	else if (temp)
		strbuf_addstr(result, "temperror");
	else if (other.len)
		strbuf_addf(result, "other%s", other.buf);
	else
		strbuf_addstr(result, n ? "fail" : "none");
	strbuf_release(&other);
}

static bool field_named(const struct dkim_field *f, const char *name)
{
	return f->name_len == strlen(name) && !ascii_strncasecmp(f->start, name, f->name_len);
}

/* The unfolded value of field f, control characters as spaces, cut. */
static char *field_value(const struct dkim_field *f, size_t max)
{
	const char *v = memchr(f->start, ':', f->len) + 1, *end = f->start + f->len;
	struct strbuf o = STRBUF_INIT;

	while (v < end && (*v == ' ' || *v == '\t'))
		v++;
	for (; v < end && o.len < max; v++) {
		if (*v == '\r' || *v == '\n')
			continue;
		strbuf_addch(&o, (unsigned char)*v < 0x20 || *v == 0x7f ? ' ' : *v);
	}
	return strbuf_detach(&o, NULL);
}

char *dkim_trusted_ar(const char *msg, size_t len, const char *id)
{
	struct strbuf m = STRBUF_INIT;
	struct dkim_field *f = xmalloc(MAX_FIELDS * sizeof(*f));
	const char *body;
	size_t nf;
	char *found = NULL;

	dkim_crlf(msg, len, &m);
	if (id && dkim_split(m.buf, m.len, f, MAX_FIELDS, &nf, &body) == 0) {
		for (size_t i = 0; i < nf && !found; i++) {
			char *v;
			size_t il;
			if (!field_named(&f[i], "Authentication-Results"))
				continue;
			v = field_value(&f[i], 500);
			il = strcspn(v, " ;\t");
			if (il == strlen(id) && !ascii_strncasecmp(v, id, il))
				found = v;	/* the topmost with that id */
			else
				free(v);
		}
	}
	free(f);
	strbuf_release(&m);
	return found;
}

/* The header fields postrider reads, kept with those a signature covers. */
static const char *const kept_fields[] = {
	"from", "sender", "reply-to", "to", "cc", "subject", "date", "message-id",
	"in-reply-to", "references", "mime-version", "content-type",
	"content-transfer-encoding", "x-postrider-game", "dkim-signature", NULL
};

/* msg as kept: CRLF, the fields no signature names and postrider does
 * not read left out (Received and the like: the machines and addresses
 * the mail passed), the trusted Authentication-Results kept. */
static void keep_form(const char *msg, size_t len, const char *ar_id, struct strbuf *out)
{
	struct strbuf m = STRBUF_INIT, names = STRBUF_INIT;
	struct dkim_field *f = xmalloc(MAX_FIELDS * sizeof(*f));
	const char *body;
	size_t nf;
	bool ar_kept = false;

	dkim_crlf(msg, len, &m);
	dkim_signed_names(msg, len, &names);
	if (dkim_split(m.buf, m.len, f, MAX_FIELDS, &nf, &body) < 0) {
		strbuf_addbuf(out, &m);	/* kept whole: nothing to tell apart */
		goto out;
	}
	for (size_t i = 0; i < nf; i++) {
		bool keep = false;
		char *name = xstrndup(f[i].start, f[i].name_len), *probe;
		for (char *c = name; *c; c++)
			if (*c >= 'A' && *c <= 'Z')
				*c = (char)(*c - 'A' + 'a');
		for (int k = 0; kept_fields[k] && !keep; k++)
			keep = !strcmp(name, kept_fields[k]);
		probe = xstrfmt(":%s:", name);
		{
			char *have = xstrfmt(":%s:", names.buf);
			keep = keep || strstr(have, probe) != NULL;
			free(have);
		}
		if (!keep && !ar_kept && ar_id && !strcmp(name, "authentication-results")) {
			char *v = field_value(&f[i], 500);
			size_t il = strcspn(v, " ;\t");
			keep = ar_kept = il == strlen(ar_id) && !ascii_strncasecmp(v, ar_id, il);
			free(v);
		}
		if (keep) {
			strbuf_add(out, f[i].start, f[i].len);
			strbuf_addstr(out, "\r\n");
		}
		free(probe);
		free(name);
	}
	strbuf_addstr(out, "\r\n");
	strbuf_add(out, body, (size_t)(m.buf + m.len - body));
out:
	free(f);
	strbuf_release(&m);
	strbuf_release(&names);
}

enum dkim_intake_result dkim_intake(const struct dkim_config *cfg, const char *raw, size_t len,
				    const char *from_addr, long long now,
				    struct dkim_intake **out, struct strbuf *why)
{
	struct keyring k = { cfg, STRBUF_INIT };
	struct strbuf result = STRBUF_INIT, sigs_text = STRBUF_INIT;
	struct dkim_sig *sigs = NULL;
	struct dkim_intake *in;
	size_t n = 0;
	char *ar = NULL, *policy = NULL, *dmarc = NULL;
	int dr = 0;
	enum dkim_intake_result ret = DKIM_INTAKE_OK;

	*out = NULL;
	if (dkim_check(raw, len, fetch_key, &k, now, &sigs, &n) < 0)
		n = 0;	/* a header that cannot be split carries no signature */
	ar = dkim_trusted_ar(raw, len, cfg->authserv_id);
	dkim_describe(sigs, n, from_addr, ar, &result, &sigs_text);
	if (cfg->dmarc_enforce) {
		dr = dkim_dmarc(cfg, domain_of(from_addr), &policy, &dmarc);
		bool proven = !strncmp(result.buf, "pass", 4);
		if (dr < 0 && !proven) {
			strbuf_addf(why, "the DMARC policy of %s could not be fetched (DNS); "
				    "the mail system should deliver it again later", domain_of(from_addr));
			ret = DKIM_INTAKE_RETRY;
		} else if (dr > 0 && strcmp(policy, "none") && !proven) {
			if (!strcmp(result.buf, "temperror")) {
				strbuf_addf(why, "the key of %s's signature could not be fetched (DNS), and "
					    "its DMARC policy is p=%s; the mail system should deliver it "
					    "again later", domain_of(from_addr), policy);
				ret = DKIM_INTAKE_RETRY;
			} else {
				strbuf_addf(why, "the mail claims to come from %s, whose DMARC policy is "
					    "p=%s, but carries no valid DKIM signature of %s (%s): it is "
					    "not taken as the player's", from_addr, policy,
					    domain_of(from_addr), result.buf);
				ret = DKIM_INTAKE_REFUSE;
			}
		}
	}
	if (ret != DKIM_INTAKE_OK)
		goto done;
	in = xcalloc(1, sizeof(*in));
	in->from = xstrdup(from_addr ? from_addr : "");
	strbuf_init(&in->lines);
	strbuf_init(&in->kept);
	in->proven = !strncmp(result.buf, "pass", 4);
	strbuf_addf(&in->lines, "result %s\n", result.buf);
	strbuf_addbuf(&in->lines, &sigs_text);
	strbuf_addbuf(&in->lines, &k.lines);
	if (cfg->dmarc_enforce)
		strbuf_addf(&in->lines, "dmarc %s\n", dr > 0 ? dmarc : "(none)");
	if (ar)
		strbuf_addf(&in->lines, "authentication-results %s\n", ar);
	keep_form(raw, len, ar ? cfg->authserv_id : NULL, &in->kept);
	*out = in;
done:
	dkim_sigs_free(sigs, n);
	free(ar);
	free(policy);
	free(dmarc);
	strbuf_release(&k.lines);
	strbuf_release(&result);
	strbuf_release(&sigs_text);
	return ret;
}

void dkim_intake_free(struct dkim_intake *in)
{
	if (!in)
		return;
	free(in->from);
	strbuf_release(&in->lines);
	strbuf_release(&in->kept);
	free(in);
}

void dkim_kept_hash(const unsigned char seed[32], uint32_t seq, enum side side,
		    const char *mail, size_t len, char hex[65])
{
	static const char key_label[] = "postrider-key-mail", salt_label[] = "postrider-mail-salt";
	unsigned char k[32], salt[32], msg[sizeof(salt_label) - 1 + 9], digest[32];
	unsigned int dl = 0;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	size_t at = sizeof(salt_label) - 1;

	codec_hmac_sha256(seed, 32, key_label, sizeof(key_label) - 1, k);
	memcpy(msg, salt_label, at);
	for (int i = 0; i < 8; i++)
		msg[at + (size_t)i] = (unsigned char)((uint64_t)seq >> (56 - 8 * i));
	msg[at + 8] = (unsigned char)side;
	codec_hmac_sha256(k, 32, msg, sizeof(msg), salt);
	if (!ctx || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1 ||
	    EVP_DigestUpdate(ctx, salt, 16) != 1 || EVP_DigestUpdate(ctx, mail, len) != 1 ||
	    EVP_DigestFinal_ex(ctx, digest, &dl) != 1)
		BUG("SHA-256 failed");
	EVP_MD_CTX_free(ctx);
	hex_encode(digest, 32, hex);
}

int dkim_kept_dir(const struct repo *r, struct strbuf *out)
{
	if (repo_private_path(r, "mail", out) < 0)
		return -1;
	if (mkdir(out->buf, 0700) < 0 && errno != EEXIST)
		return error("cannot create '%s': %s", out->buf, strerror(errno));
	return 0;
}

int dkim_intake_keep(const struct game *g, const struct dkim_intake *in, uint32_t seq,
		     enum side side, struct strbuf *path, struct strbuf *record)
{
	struct strbuf dir = STRBUF_INIT;
	char hex[65];
	char *file;
	int ret = -1;

	if (dkim_kept_dir(g->repo, &dir) < 0)
		goto out;
	file = xstrfmt("%s/%04u-%s.eml", dir.buf, seq, side_name(side));
	ret = write_file_atomic(file, in->kept.buf, in->kept.len);
	free(file);
	if (ret < 0)
		goto out;
	dkim_kept_hash(g->seed, seq, side, in->kept.buf, in->kept.len, hex);
	strbuf_addf(path, "mail/%04u-%s.txt", seq, side_name(side));
	strbuf_addf(record, "postrider-mail 1\norder %u %s\nfrom %s\n", seq, side_name(side),
		    in->from);
	strbuf_addbuf(record, &in->lines);
	strbuf_addf(record, "kept %s\n", hex);
out:
	strbuf_release(&dir);
	return ret;
}
