/*
 * state-yaml.h - the canonical YAML form of a state (state.h holds the
 * types): the public part (state.yaml, written canonically: fixed key
 * order, no timestamps, so `git diff` shows what a turn changed) and the
 * private part (deck order and hands), which the host keeps sealed
 * (fair_seal) in private/state.sealed. Above the engine: the engine
 * stands on state.h alone.
 *
 * Ownership: state_write_* append to a caller's strbuf; state_read fills a
 * caller's struct and allocates nothing that outlives the call.
 */
#ifndef POSTRIDER_STATE_YAML_H
#define POSTRIDER_STATE_YAML_H

#include "state.h"
#include "util.h"

/*
 * Appends the public state as canonical YAML. hand_commitment[side] (hex)
 * may be NULL to omit the commitments.
 */
void state_write_public(const struct state *s, const struct data *d,
			const char *const hand_commitment[3], struct strbuf *out);

/*
 * The size the private part of s is padded to before it is sealed
 * (docs/fairness.md section 9b), a function of public facts only: the
 * length prefix (4), plus the length of the private text without the
 * sides' sealed texts (held, held_notes, standing, sealed_lines) as if
 * every card number had STATE_CARD_DIGITS digits, plus the room for those
 * texts. With each_side (sealed format v4), each side has a room of its
 * own, STATE_SEALED_ROOM_SIDE bytes or that times the smallest power of
 * two that holds his texts (their keys included), so that nothing one
 * side writes moves the class of the other's; without it (format v3),
 * one room of STATE_SEALED_ROOM bytes or more holds both sides' texts.
 * Only which of these classes a room needs can show.
 */
#define STATE_CARD_DIGITS 3
#define STATE_SEALED_ROOM 1024
#define STATE_SEALED_ROOM_SIDE 512
size_t state_private_padded_size(const struct state *s, const struct data *d,
				 bool each_side);

/* Appends the private part (deck order, hands) as YAML. */
void state_write_private(const struct state *s, const struct data *d,
			 struct strbuf *out);
/* The canonical text of one side's hand, the input of hand commitments. */
void state_write_hand(const struct state *s, enum side side,
		      struct strbuf *out);

/*
 * Reads a state back: public YAML text and private YAML text (the latter
 * may be NULL: then the deck and hands are unknown and left empty, which
 * is enough for reports and options that need no hidden card).
 * Returns 0, or -1 with positioned messages ("state.yaml:12:3: ...")
 * appended to err. Checks every name and range; never trusts the file.
 */
int state_read(struct state *s, const struct data *d,
	       const char *pub, size_t pub_len,
	       const char *priv, size_t priv_len, struct strbuf *err);

#endif
