/*
 * dkim-dns.h - the TXT records DKIM and DMARC need (a key record at
 * s._domainkey.d, a policy at _dmarc.domain): from DNS through the
 * system's resolver (res_nquery, libresolv), with a short timeout, or,
 * when the host's configuration names a key file (dkim: keys: FILE), from
 * that file alone, never the network (what the tests do).
 *
 * The key file: one record a line, "NAME TEXT" (NAME without a final
 * dot, compared ignoring case; TEXT the record as DNS would give it, its
 * strings joined); '#' lines and blank lines are skipped; several lines
 * with one name are several records; the TEXT "!temperror" stands for a
 * resolver that does not answer (DNS down).
 *
 * Ownership: *txt is malloc'd for the caller.
 */
#ifndef POSTRIDER_DKIM_DNS_H
#define POSTRIDER_DKIM_DNS_H

#include "config.h"

/*
 * The TXT records at name: 1 with *txt set (several joined by "\n"), 0
 * when there is none (no such name, no TXT there, or the file does not
 * list it), -1 for a temporary failure (no answer in time, a server
 * failure, a key file that cannot be read).
 */
int dkim_txt(const struct dkim_config *cfg, const char *name, char **txt);

/*
 * The DMARC policy of domain dom (lower case), RFC 7489 6.1 and 6.6.3:
 * _dmarc.dom, else the record of its nearest parent of two labels or
 * more (whose sp= then rules, its p= when it has none). Sets *policy
 * ("none", "quarantine", "reject") and *record (the text as fetched,
 * with its name first: "_dmarc.example.org v=DMARC1; p=reject"), both
 * malloc'd; returns 1, 0 when no domain publishes one (nothing set), -1
 * for a temporary failure.
 */
int dkim_dmarc(const struct dkim_config *cfg, const char *dom, char **policy, char **record);

#endif
