/*
 * mail.h - mail in (parsing a player's order mail) and mail out (composing
 * the reports postrider sends).
 *
 * Ownership: every char * in struct mail_message is malloc'd and owned by
 * the struct; mail_message_release() frees them all and leaves the struct
 * zeroed (release of NULL or of a zeroed struct is safe). Functions that
 * return char * hand a malloc'd string to the caller, who frees it.
 *
 * Where we depart from the RFCs (the VIOLATIONS list):
 * - A message over MAIL_MAX_SIZE bytes is refused, whatever it holds.
 * - A leading mbox "From " envelope line is skipped.
 * - Text parts declared UTF-8 (or US-ASCII) that are not valid UTF-8 are
 *   REJECTED, with the byte offset in the decoded text: an order read from a
 *   damaged body could mean something the player did not write. Text with no
 *   charset and 8-bit bytes is read as UTF-8 when valid, else as
 *   Windows-1252. In headers (subject, display name) invalid UTF-8 is
 *   replaced by U+FFFD and control characters by spaces: a subject is never
 *   an order, and a decoded subject must not smuggle CR/LF into replies.
 * - Supported charsets: utf-8, us-ascii, iso-8859-1 (latin1), iso-8859-15,
 *   windows-1252 (cp1252). Any other charset on the chosen text part is an
 *   error; in an encoded word it is left undecoded.
 * - The text part chosen is the first text/plain leaf, in document order,
 *   that is not an attachment; else the first such text/html leaf, turned
 *   into plain text (blockquotes become "> " quoted lines). message/rfc822
 *   parts are not entered.
 * - format=flowed (RFC 3676) text is unwrapped.
 */
#ifndef POSTRIDER_MAIL_H
#define POSTRIDER_MAIL_H

#include <stdbool.h>
#include <stddef.h>
#include "util.h"

#define MAIL_MAX_SIZE (1024 * 1024)
/* A reply token: three groups of four of [a-z2-7] joined by '-', plus NUL. */
#define MAIL_TOKEN_SIZE 15

struct mail_message {
	char *from_addr;	/* addr-spec, lowercased domain; never NULL
				   after a successful mail_parse() */
	char *from_name;	/* display name decoded to UTF-8, or NULL */
	char *subject;		/* decoded to UTF-8 ("" if absent) */
	char *message_id;	/* raw (unfolded), NULL if absent */
	char *in_reply_to;	/* raw (unfolded), NULL if absent */
	char *references;	/* raw (unfolded), NULL if absent */
	char *game_header;	/* value of X-Postrider-Game, NULL if absent */
	char *to;		/* raw (unfolded) To:, NULL if absent */
	char *body;		/* the chosen text part, decoded to UTF-8, LF
				   line endings */
	const char *automatic;	/* NULL, or why the message was sent by a
				   machine and must get no answer (RFC 3834):
				   an auto-reply, a bounce or list mail
				   (static text: "Auto-Submitted: auto-replied",
				   "a null sender", ...) */
};

/*
 * Parses the raw message raw (len bytes, CRLF or LF line endings; need not
 * be NUL-terminated) into out, which the caller provides and later releases
 * with mail_message_release(). Returns 0, or -1 with a one-line reason
 * appended to err (no newline) and out left zeroed. Never reads beyond
 * raw + len; meant to survive any input (it is fuzzed).
 */
int mail_parse(const char *raw, size_t len, struct mail_message *out,
	       struct strbuf *err);
void mail_message_release(struct mail_message *m);

/*
 * The order lines a player typed in body (as mail_parse() leaves it): stops
 * at a signature separator ("-- " or "--" alone on a line) and at an
 * Outlook-style "-----Original Message-----" or "____" + "From:" block,
 * drops quoted lines ('>' first, after optional blanks), drops an
 * attribution line ("On <date>, <someone> wrote:", possibly wrapped over
 * two lines, also "... schrieb:", "... a écrit :") that precedes a quote,
 * turns no-break spaces into spaces, strips trailing blanks from each line,
 * drops leading and trailing blank lines and makes runs of blank lines
 * one. The result ends with "\n" unless empty. Returns a malloc'd string
 * (never NULL). Line numbers in it are not those of the body.
 */
char *mail_order_text(const char *body);

/*
 * Finds the reply token: in the subject, else as the plus-extension of an
 * address in To ("host+k3x9-2mfa-p7q1@example.org"), else on a body line
 * "token: k3x9-2mfa-p7q1" (quoted lines are not searched). Case-insensitive;
 * out receives the token in lowercase. Returns 1 found, 0 not found.
 */
int mail_find_token(const struct mail_message *m, char out[MAIL_TOKEN_SIZE]);

/*
 * True if s is a well-formed game id: "ww-" then 4 to 16 of [a-z0-9].
 */
int mail_valid_game_id(const char *s);

/*
 * Finds the game id: the X-Postrider-Game header, else "[ww-...]" in the
 * subject, else a Message-ID of ours, <postrider.GAMEID.SEQ.SIDE@HOST>, in
 * In-Reply-To, then References (newest first). Only well-formed ids count
 * (see mail_valid_game_id; upper case is folded to lower). Writes the id
 * to out (n bytes). Returns 1 found, 0 not found (or n too small).
 */
int mail_find_game(const struct mail_message *m, char *out, size_t n);

/*
 * Parses "Name <addr>", "\"Quoted Name\" <addr>", "<addr>" or a bare addr.
 * Strict: no control characters (CR, LF, ...), one '@', a local part of
 * atext and dots (no quoted local parts), a domain of two or more labels of
 * letters, digits and '-'. On success returns 0 and stores malloc'd strings
 * in *name (NULL if no name was given) and *addr (domain lowercased); the
 * caller frees them. Returns -1 and stores nothing on failure.
 */
int mail_parse_address(const char *s, char **name, char **addr);

/*
 * Splits an address-list header value ("A <a@x.org>, b@y.org") into its
 * addr-specs, each validated as in mail_parse_address(). Appends each
 * malloc'd address to *addrs (a malloc'd array the caller frees with its
 * items) and updates *n. Returns 0, or -1 if an item is not an address
 * (what was added so far stays for the caller to free).
 */
int mail_split_addresses(const char *value, char ***addrs, size_t *n);

/*
 * The unfolded value of the first header field named name (any case) in
 * the header of raw (len bytes), malloc'd, or NULL if absent.
 */
char *mail_header_get(const char *raw, size_t len, const char *name);

/* An attachment, as mail_attachments() finds it; owns its strings. */
struct mail_attachment {
	char *name;		/* its file name (Content-Disposition
				   filename, else Content-Type name), raw */
	char type[100];		/* "type/sub", lowercase */
	char *data;		/* the bytes, transfer encoding undone (base64,
				   quoted-printable; 7bit, 8bit and binary as
				   they are, line ends LF); NUL added */
	size_t len;
};

/*
 * Every leaf of raw's MIME tree (len bytes, CRLF or LF, an mbox "From "
 * line allowed; message/rfc822 parts not entered) that has a file name,
 * in document order: *out a malloc'd array of *n, freed with
 * mail_attachments_free(). 0, or -1 with a one-line reason appended to
 * err (a broken MIME structure, an unknown transfer encoding, over
 * MAIL_MAX_SIZE bytes) and *out NULL. The tree is walked as mail_parse()
 * walks it (mail-parse.c: one walker, one reader of parameters and of
 * transfer encodings), so both read every part alike.
 */
int mail_attachments(const char *raw, size_t len, struct mail_attachment **out,
		     size_t *n, struct strbuf *err);
void mail_attachments_free(struct mail_attachment *a, size_t n);

/* Outgoing mail. Nothing here is owned by the struct. */
struct mail_out {
	const char *from, *to;	/* "Name <addr>" (To and Cc may list several,
				   comma-separated); validated */
	const char *cc;		/* optional */
	const char *subject;	/* UTF-8; RFC 2047-encoded if non-ASCII */
	const char *message_id;	/* "<...>", required */
	const char *in_reply_to, *references;	/* optional */
	const char *date;	/* RFC 5322 date text, given by the caller */
	const char *game_id;	/* X-Postrider-Game header, optional */
	const char *commit;	/* X-Postrider-Commit header (40 hex digits:
				   the commit the mail reports), optional */
	const char *reply_to;	/* optional, e.g. host+TOKEN@domain */
	const char *text;	/* body, UTF-8 (NULL means empty) */
	const char *patch;	/* optional: a `git format-patch` mbox text */
	const char *patch_name;	/* file name of the patch, [A-Za-z0-9._-] */
	const char *patch_type;	/* its Content-Type; NULL: text/x-patch */
	const char *note;	/* optional: a text attachment before the patch
				   (text/plain, 7bit: printable ASCII, LF
				   line ends, lines under 999 bytes) */
	const char *note_name;	/* its file name, [A-Za-z0-9._-], required */
	const char *svg;	/* optional map, image/svg+xml */
	const char *png;	/* optional map, image/png (png_len bytes) */
	size_t png_len;
};

/*
 * Appends the RFC 5322 message for m to out, with CRLF line endings.
 * Without attachments it is a single text/plain; charset=utf-8 part;
 * with them a multipart/mixed whose first part is that text, followed by
 * the note (text/plain, 7bit), the patch (text/x-patch or patch_type,
 * base64, so that the saved file is byte-exact for `git am`), the SVG (image/svg+xml, base64, "map.svg") and the PNG
 * (image/png, inline, "map.png"). The text
 * is quoted-printable if it has non-ASCII bytes or a line over 76 bytes,
 * else 7bit. The output depends only on m (the boundary is derived from
 * the message-id). Returns 0, or -1 with a one-line reason appended to err
 * (CR/LF or other control characters in a header value, an invalid
 * address, a missing required field); out is then unchanged.
 */
int mail_compose(const struct mail_out *m, struct strbuf *out,
		 struct strbuf *err);

/* Who a message goes to and from, when not its own headers: the sender
 * ("" for the null sender <>) and the recipients' addresses. */
struct mail_envelope {
	const char *from;		/* NULL: from the configuration */
	const char *const *rcpts;	/* NULL: the To and Cc addresses */
	size_t n_rcpts;
};

/* The envelope sender of msg (len bytes), malloc'd: env->from (env may be
 * NULL), else the address of from (the configuration's "Name <addr>", may
 * be NULL), else the message's From; NULL if none. */
char *mail_envelope_sender(const struct mail_envelope *env, const char *from,
			   const char *msg, size_t len);

/*
 * The recipients of msg (malloc'd strings appended to *list): env's, else
 * the addresses of To and Cc. An address that starts with '-' is left out
 * (a program would take it for an option). Returns 0, or -1 with the
 * reason in err (an unreadable header).
 */
int mail_envelope_recipients(const struct mail_envelope *env, const char *msg,
			     size_t len, char ***list, size_t *n,
			     struct strbuf *err);

/*
 * Formats unix_time as an RFC 5322 date in the zone tz_minutes east of
 * UTC: "Sun, 22 Nov 2026 01:37:47 +0000".
 */
void mail_format_date(long long unix_time, int tz_minutes, char out[40]);

#endif
