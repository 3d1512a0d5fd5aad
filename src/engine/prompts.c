/*
 * prompts.c - what each kind of prompt is, in one place: the kinds of
 * action that answer it, whether it interrupts the other side's move,
 * whether 13.1 holds after its answer, the PC rules' context of a PC
 * prompt, how its check treats other verbs and a number after 'remove'
 * (internal.h), and its four jobs: check an action, apply it, enumerate
 * the legal ones, describe the prompt in words.
 * engine_check(), engine_apply(), engine_legal() and
 * engine_describe_prompt() do what is common to every prompt and then
 * call the prompt's own function through prompt_desc(). The parts of the
 * rules with prompts of their own (card plays, movement, captures,
 * reinforcements, battles, events, the alliance, winter, campaigns) keep
 * all four functions in their files, declared in internal.h; the small
 * prompts of the sequence of play live here.
 *
 * A new kind of prompt: add it to enum prompt_kind and its name to
 * src/state.c, write its four functions in the file of its part of
 * the rules (declared in internal.h), then one entry here naming them
 * with its answers (test_engine checks that none is missing).
 */
#include "internal.h"

/* Marks the colony of a CC or DOI placement done. */
static void colony_placed(const struct data *d, struct state *s, int space)
{
	s->prompt.colonies_done |= 1u << d->spaces[space].colony;
	s->prompt.left--;
}

/* ---- Checking an action ---- */

static enum engine_result check_colony_pcs(const struct data *d,
					   const struct state *s,
					   const struct action *a,
					   struct strbuf *why)
{
	return pc_check(d, s, SIDE_AMERICAN, a->kind, a->space,
			prompt_desc(s->prompt.kind)->pcx, why);
}

static enum engine_result check_pc_actions(const struct data *d,
					   const struct state *s,
					   const struct action *a,
					   struct strbuf *why)
{
	const struct prompt *p = &s->prompt;

	/* 'done' ends the FTK and PC prompts, 'pass' the discard's: each
	 * answers only its own (the descriptors' answers, engine_check) */
	if (a->kind == ACT_DONE || a->kind == ACT_PASS)
		return ENGINE_OK;
	return pc_check(d, s, p->side, a->kind, a->space,
			prompt_desc(p->kind)->pcx, why);
}

static enum engine_result check_first(const struct data *d,
				      const struct state *s,
				      const struct action *a,
				      struct strbuf *why)
{
	const struct prompt *p = &s->prompt;

	if (a->kind == ACT_EVENT) {
		/* 5.3.a: a campaign card as the British's first card */
		if (p->side != SIDE_BRITISH)
			return illegal(why, "only the British may declare himself first with a campaign card (5.3.a)");
		if (a->card >= 1 && a->card <= d->n_cards && !d->cards[a->card].campaign)
			return illegal(why, "%s is not a campaign card: only a Major or Minor Campaign declares the British first (5.3.a)",
				       d->cards[a->card].label);
		return play_check(d, s, a, why);
	}
	if (a->kind == ACT_PASS) {
		if (p->left != 1)
			return illegal(why, "choose who plays first: 'first american' or 'first british' (5.3)");
		return ENGINE_OK;
	}
	if (p->left == 1)
		return illegal(why, "the American chooses who plays first (5.3.c): play a campaign card ('event CARD', 5.3.a) or 'pass'");
	if (a->side != SIDE_AMERICAN && a->side != SIDE_BRITISH)
		return illegal(why, "say 'first american' or 'first british'");
	return ENGINE_OK;
}

static enum engine_result check_exchange(const struct data *d,
					 const struct state *s,
					 const struct action *a,
					 struct strbuf *why)
{
	if (a->kind == ACT_PASS)
		return ENGINE_OK;
	return exchange_check(d, s, a, why);
}

static enum engine_result check_congress(const struct data *d,
					 const struct state *s,
					 const struct action *a,
					 struct strbuf *why)
{
	return congress_check(d, s, a->space, why);
}

static enum engine_result check_extra(const struct data *d,
				      const struct state *s,
				      const struct action *a,
				      struct strbuf *why)
{
	(void)d;
	(void)s;
	(void)a;
	(void)why;
	return ENGINE_OK;
}

/* ---- Applying it ---- */

static void apply_cc(const struct data *d, struct state *s,
		     const struct action *a, struct rng *r, struct strbuf *log)
{
	(void)r;
	pc_apply(d, s, SIDE_AMERICAN, a->kind, a->space, log,
		 "(Committees of Correspondence)");
	colony_placed(d, s, a->space);
	if (s->prompt.left > 0)
		return;
	/* Committees of Correspondence done: For The King (4.0). */
	remember_british_pcs(d, s);
	flow_prompt(s, PROMPT_FTK, SIDE_BRITISH, 0, d->for_the_king_pcs);
}

static void apply_doi(const struct data *d, struct state *s,
		      const struct action *a, struct rng *r, struct strbuf *log)
{
	pc_apply(d, s, SIDE_AMERICAN, a->kind, a->space, log,
		 "(Declaration of Independence)");
	colony_placed(d, s, a->space);
	/* Colonies where placement has become impossible are done too. */
	s->prompt.left = 0;
	for (int k = 0; k < d->n_colonies; k++) {
		if (d->colonies[k].canada ||
		    (s->prompt.colonies_done & (1u << k)))
			continue;
		if (doi_colony_possible(d, s, k))
			s->prompt.left++;
		else
			s->prompt.colonies_done |= 1u << k;
	}
	if (!s->prompt.left)
		flow_end_card(d, s, r, log, 0);
}

static void apply_ftk(const struct data *d, struct state *s,
		      const struct action *a, struct rng *r, struct strbuf *log)
{
	if (a->kind == ACT_PLACE) {
		pc_apply(d, s, SIDE_BRITISH, a->kind, a->space, log,
			 "(For The King)");
		s->prompt.left--;
	}
	if (a->kind == ACT_DONE || s->prompt.left == 0) {
		if (a->kind == ACT_DONE)
			elog(log, "British places no more For The King PCs.");
		flow_start_first_turn(d, s, r, log);
	}
}

static void apply_first(const struct data *d, struct state *s,
			const struct action *a, struct rng *r, struct strbuf *log)
{
	const struct prompt p = s->prompt;

	if (a->kind == ACT_PASS) {
		elog(log, "British does not declare himself first (5.3.a).");
		flow_prompt(s, PROMPT_FIRST, SIDE_AMERICAN, 0, 0);
		return;
	}
	if (a->kind == ACT_EVENT) {
		elog(log, "British declares himself first with %s (5.3.a).",
		     d->cards[a->card].label);
		s->first = SIDE_BRITISH;
		s->active = SIDE_BRITISH;
		flow_prompt(s, PROMPT_PLAY, SIDE_BRITISH, 0, 0);
		play_apply(d, s, a, r, log);
		return;
	}
	elog(log, "%s chooses: the %s plays first (5.3.%c).",
	     side_title(p.side), side_title(a->side),
	     p.side == SIDE_BRITISH ? 'b' : 'c');
	s->first = a->side;
	s->active = SIDE_NONE;
	flow_next_impulse(d, s, r, log);
}

static void apply_pc(const struct data *d, struct state *s,
		     const struct action *a, struct rng *r, struct strbuf *log)
{
	const struct prompt p = s->prompt;

	if (a->kind != ACT_DONE) {
		pc_apply(d, s, p.side, a->kind, a->space, log, NULL);
		s->prompt.left--;
	}
	if (a->kind == ACT_DONE || s->prompt.left == 0)
		flow_end_card(d, s, r, log, 0);
}

static void apply_discard(const struct data *d, struct state *s,
			  const struct action *a, struct rng *r, struct strbuf *log)
{
	const struct prompt p = s->prompt;

	if (a->kind != ACT_PASS)
		pc_apply(d, s, p.side, a->kind, a->space, log, "(event discard, 6.32.B)");
	flow_end_card(d, s, r, log, p.card);
}

static void apply_exchange(const struct data *d, struct state *s,
			   const struct action *a, struct rng *r, struct strbuf *log)
{
	const struct prompt p = s->prompt;

	if (a->kind == ACT_EXCHANGE)
		exchange_apply(d, s, a, log);
	else
		elog(log, "%s does not take #%d.", side_title(p.side), p.card);
	flow_next_impulse(d, s, r, log);
}

static void apply_congress(const struct data *d, struct state *s,
			   const struct action *a, struct rng *r, struct strbuf *log)
{
	s->congress = a->space;
	elog(log, "The Continental Congress returns to %s (10.2.1).",
	     space_name(d, a->space));
	flow_after_congress(d, s, r, log);
}

static void apply_extra(const struct data *d, struct state *s,
			const struct action *a, struct rng *r, struct strbuf *log)
{
	if (a->kind == ACT_PASS) {
		elog(log, "Optional Tournament Rule: the British declines the extra action (6.34.C.i).");
		flow_next_impulse(d, s, r, log);
		return;
	}
	cards_draw(d, s, SIDE_BRITISH, r, log);
	elog(log, "Optional Tournament Rule: the British draws a replacement card and takes another action (6.34.C.i).");
	s->active = SIDE_BRITISH;
	flow_prompt(s, PROMPT_PLAY, SIDE_BRITISH, 0, 0);
}

/* ---- The legal actions ---- */

static void legal_colony_pcs(const struct data *d, const struct state *s,
			     struct collect *c)
{
	legal_spaces(d, s, c, ACT_PLACE);
}

static void legal_ftk(const struct data *d, const struct state *s,
		      struct collect *c)
{
	legal_spaces(d, s, c, ACT_PLACE);
	legal_simple(d, s, c, ACT_DONE);
}

static void legal_first(const struct data *d, const struct state *s,
			struct collect *c)
{
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		struct action a = ACTION_INIT;
		a.kind = ACT_FIRST;
		a.side = side;
		legal_add(d, s, c, &a);
	}
	if (s->prompt.side == SIDE_BRITISH)
		legal_hand(d, s, c, ACT_EVENT);	/* 5.3.a */
	legal_simple(d, s, c, ACT_PASS);
}

static void legal_pc(const struct data *d, const struct state *s,
		     struct collect *c)
{
	legal_spaces(d, s, c, ACT_PLACE);
	legal_spaces(d, s, c, ACT_FLIP);
	legal_simple(d, s, c, ACT_DONE);
}

static void legal_discard(const struct data *d, const struct state *s,
			  struct collect *c)
{
	legal_spaces(d, s, c, ACT_PLACE);
	legal_spaces(d, s, c, ACT_FLIP);
	legal_spaces(d, s, c, ACT_REMOVE);
	legal_simple(d, s, c, ACT_PASS);
}

static void legal_exchange(const struct data *d, const struct state *s,
			   struct collect *c)
{
	legal_hand(d, s, c, ACT_EXCHANGE);
	legal_simple(d, s, c, ACT_PASS);
}

static void legal_congress(const struct data *d, const struct state *s,
			   struct collect *c)
{
	legal_spaces(d, s, c, ACT_CONGRESS);
}

static void legal_extra(const struct data *d, const struct state *s,
			struct collect *c)
{
	legal_simple(d, s, c, ACT_DRAW);
	legal_simple(d, s, c, ACT_PASS);
}

/* ---- The prompt in words ---- */

static void describe_cc(const struct data *d, const struct state *s,
			struct strbuf *out)
{
	const struct prompt *p = &s->prompt;
	(void)d;

	strbuf_addf(out, "American: place a Committees of Correspondence PC in each colony (%d to go).", p->left);
}

static void describe_ftk(const struct data *d, const struct state *s,
			 struct strbuf *out)
{
	const struct prompt *p = &s->prompt;
	(void)d;

	strbuf_addf(out, "British: place For The King PCs (%d to go), or 'done'.", p->left);
}

static void describe_first(const struct data *d, const struct state *s,
			   struct strbuf *out)
{
	const struct prompt *p = &s->prompt;
	const char *who = side_title(p->side);
	(void)d;

	if (p->left == 1)
		strbuf_addf(out, "British: declare yourself first player of %d by playing a campaign card ('event CARD', 5.3.a), or 'pass' and the American chooses.",
			    s->year);
	else if (p->side == SIDE_BRITISH)
		strbuf_addf(out, "British: the Continental Congress was dispersed in %d (7.7), so the British choose (5.3.b) who plays the first card of %d: 'first american' or 'first british' (or play a campaign card first: 'event CARD', 5.3.a).",
			    s->year - 1, s->year);
	else
		strbuf_addf(out, "%s: choose who plays the first card of %d (5.3.c).", who, s->year);
}

/* "place, flip or remove": of the verbs given (kinds, words), those with
 * a legal answer now; "" if none (issue 29: no impossible option). */
static void verbs_possible(const struct data *d, const struct state *s,
			   const enum action_kind *kinds, const char *const *words,
			   int n, struct strbuf *out)
{
	int k = 0, have[4], m = 0;

	for (int i = 0; i < n && i < 4; i++)
		if (legal_kind_any(d, s, kinds[i]))
			have[m++] = i;
	for (; k < m; k++)
		strbuf_addf(out, "%s%s", k == 0 ? "" : k == m - 1 ? " or " : ", ",
			    words[have[k]]);
}

static void describe_pc(const struct data *d, const struct state *s,
			struct strbuf *out)
{
	static const enum action_kind kinds[] = { ACT_PLACE, ACT_FLIP };
	static const char *const words[] = { "place", "flip" };
	const struct prompt *p = &s->prompt;
	const char *who = side_title(p->side);
	size_t at;

	strbuf_addf(out, "%s: ", who);
	at = out->len;
	verbs_possible(d, s, kinds, words, 2, out);
	if (out->len == at)
		strbuf_addf(out, "no PC marker can be placed or flipped now with #%d (%d action%s left): 'done'.",
			    p->card, p->left, p->left == 1 ? "" : "s");
	else
		strbuf_addf(out, " PC markers with #%d (%d action%s left), or 'done'.",
			    p->card, p->left, p->left == 1 ? "" : "s");
}

static void describe_discard(const struct data *d, const struct state *s,
			     struct strbuf *out)
{
	static const enum action_kind kinds[] = { ACT_PLACE, ACT_FLIP, ACT_REMOVE };
	static const char *const words[] = { "place", "flip", "remove" };
	const struct prompt *p = &s->prompt;
	const char *who = side_title(p->side);
	size_t at;

	strbuf_addf(out, "%s: for discarding #%d, ", who, p->card);
	at = out->len;
	verbs_possible(d, s, kinds, words, 3, out);
	if (out->len == at)
		strbuf_addstr(out, "no PC can be placed, flipped or removed now: 'pass'.");
	else
		strbuf_addstr(out, " one PC, or 'pass'.");
}

static void describe_exchange(const struct data *d, const struct state *s,
			      struct strbuf *out)
{
	const struct prompt *p = &s->prompt;
	const char *who = side_title(p->side);

	strbuf_addf(out, "%s: exchange an OPS card for the discarded %s, or 'pass'.",
		    who, d->cards[p->card].label);
}

static void describe_doi(const struct data *d, const struct state *s,
			 struct strbuf *out)
{
	const struct prompt *p = &s->prompt;
	(void)d;

	strbuf_addf(out, "American: place a Declaration of Independence PC in each colony where possible (%d to go).", p->left);
}

static void describe_congress(const struct data *d, const struct state *s,
			      struct strbuf *out)
{
	(void)d;
	(void)s;
	strbuf_addstr(out, "American: return the Continental Congress to a space.");
}

static void describe_extra(const struct data *d, const struct state *s,
			   struct strbuf *out)
{
	(void)d;
	(void)s;
	strbuf_addstr(out, "British: Optional Tournament Rule: 'draw' a replacement card and take another action with any card, or 'pass' (6.34.C.i).");
}

const struct prompt_desc prompt_descs[PROMPT__COUNT] = {
	[PROMPT_CC] = {
		.answers = { ACT_PLACE },
		.pcx = PCX_CC,
		.no_auto_victory = true,
		.check = check_colony_pcs, .apply = apply_cc,
		.legal = legal_colony_pcs, .describe = describe_cc,
	},
	[PROMPT_FTK] = {
		.answers = { ACT_PLACE, ACT_DONE },
		.pcx = PCX_FTK,
		.no_auto_victory = true,
		.check = check_pc_actions, .apply = apply_ftk,
		.legal = legal_ftk, .describe = describe_ftk,
	},
	[PROMPT_FIRST] = {
		.answers = { ACT_FIRST, ACT_EVENT, ACT_PASS },
		.check = check_first, .apply = apply_first,
		.legal = legal_first, .describe = describe_first,
	},
	[PROMPT_PLAY] = {
		.answers = { ACT_PC_CARD, ACT_DISCARD, ACT_EVENT, ACT_ACTIVATE, ACT_QUEUE, ACT_REINFORCE },
		.check = play_check, .apply = play_apply,
		.legal = play_legal, .describe = play_describe,
	},
	[PROMPT_PC] = {
		.answers = { ACT_PLACE, ACT_FLIP, ACT_DONE },
		.pcx = PCX_OPS,
		.check = check_pc_actions, .apply = apply_pc,
		.legal = legal_pc, .describe = describe_pc,
	},
	[PROMPT_DISCARD] = {
		.answers = { ACT_PLACE, ACT_FLIP, ACT_REMOVE, ACT_PASS },
		.pcx = PCX_DISCARD,
		.check = check_pc_actions, .apply = apply_discard,
		.legal = legal_discard, .describe = describe_discard,
	},
	[PROMPT_EXCHANGE] = {
		.answers = { ACT_EXCHANGE, ACT_PASS },
		.check = check_exchange, .apply = apply_exchange,
		.legal = legal_exchange, .describe = describe_exchange,
	},
	[PROMPT_DOI] = {
		.answers = { ACT_PLACE },
		.pcx = PCX_DOI,
		.check = check_colony_pcs, .apply = apply_doi,
		.legal = legal_colony_pcs, .describe = describe_doi,
	},
	[PROMPT_CONGRESS] = {
		.answers = { ACT_CONGRESS },
		.no_auto_victory = true,
		.check = check_congress, .apply = apply_congress,
		.legal = legal_congress, .describe = describe_congress,
	},
	[PROMPT_MOVE] = {
		.blocks = PB_MOVE,
		.answers = { ACT_TAKE, ACT_TO, ACT_SAIL, ACT_STOP },
		.check = move_check, .apply = move_apply,
		.legal = move_legal, .describe = move_describe,
	},
	[PROMPT_LAND] = {
		.answers = { ACT_LAND },
		.check = land_check, .apply = land_apply,
		.legal = land_legal, .describe = land_describe,
	},
	[PROMPT_CAPTURE] = {
		.blocks = PB_MAY_MOVE,
		.answers = { ACT_REMOVE },
		.check = capture_check, .apply = capture_apply,
		.legal = capture_legal, .describe = capture_describe,
	},
	[PROMPT_EVENT] = {
		.answers = { ACT_PLACE, ACT_FLIP, ACT_REMOVE, ACT_DONE },
		.own_refusals = true, .french_removed = true,
		.check = events_check, .apply = events_apply,
		.legal = events_legal, .describe = events_describe_prompt,
	},
	[PROMPT_NAVY] = {
		.answers = { ACT_NAVY },
		.check = alliance_navy_check, .apply = alliance_navy_apply,
		.legal = alliance_navy_legal, .describe = alliance_navy_describe,
	},
	[PROMPT_FRENCH] = {
		.answers = { ACT_FRENCH },
		.check = alliance_french_check, .apply = alliance_french_apply,
		.legal = alliance_french_legal, .describe = alliance_french_describe,
	},
	[PROMPT_WAR] = {
		.answers = { ACT_REMOVE },
		.no_auto_victory = true,
		.check = alliance_war_check, .apply = alliance_war_apply,
		.legal = alliance_war_legal, .describe = alliance_war_describe,
	},
	[PROMPT_WINTER] = {
		.answers = { ACT_LOSE },
		.check = winter_check, .apply = winter_apply,
		.legal = winter_legal, .describe = winter_describe,
	},
	[PROMPT_INTERCEPT] = {
		.blocks = PB_MOVE | PB_BATTLE,
		.answers = { ACT_INTERCEPT, ACT_PASS },
		.interrupts = true,
		.check = battle_intercept_check, .apply = battle_intercept_apply,
		.legal = battle_intercept_legal, .describe = battle_intercept_describe,
	},
	[PROMPT_RETREAT_BEFORE] = {
		.blocks = PB_MOVE | PB_BATTLE,
		.answers = { ACT_RETREAT, ACT_STAND },
		.interrupts = true,
		.check = battle_rbb_check, .apply = battle_rbb_apply,
		.legal = battle_rbb_legal, .describe = battle_rbb_describe,
	},
	[PROMPT_BATTLE_CARD] = {
		.blocks = PB_BATTLE,
		.answers = { ACT_BATTLE, ACT_DISCARD, ACT_NOCARD },
		.interrupts = true,
		.check = battle_card_check, .apply = battle_card_apply,
		.legal = battle_card_legal, .describe = battle_card_describe,
	},
	[PROMPT_RETREAT] = {
		.blocks = PB_BATTLE,
		.answers = { ACT_RETREAT, ACT_SAIL },
		.check = battle_retreat_check, .apply = battle_retreat_apply,
		.legal = battle_retreat_legal, .describe = battle_retreat_describe,
	},
	[PROMPT_LOSSES] = {
		.blocks = PB_BATTLE,
		.answers = { ACT_LOSE },
		.check = battle_losses_check, .apply = battle_losses_apply,
		.legal = battle_losses_legal, .describe = battle_losses_describe,
	},
	[PROMPT_CAMPAIGN] = {
		.answers = { ACT_ACTIVATE, ACT_PLACE, ACT_FLIP, ACT_DONE },
		.check = campaign_check, .apply = campaign_apply,
		.legal = campaign_legal, .describe = campaign_describe_prompt,
	},
	[PROMPT_GENERALS] = {
		.blocks = PB_MAY_MOVE | PB_MAY_BATTLE,
		.answers = { ACT_SEND },
		.check = generals_check, .apply = generals_apply,
		.legal = generals_legal, .describe = generals_describe_prompt,
	},
	[PROMPT_EXTRA] = {
		.answers = { ACT_DRAW, ACT_PASS },
		.check = check_extra, .apply = apply_extra,
		.legal = legal_extra, .describe = describe_extra,
	},
};

bool engine_kind_fits(const struct state *s, enum action_kind kind)
{
	return s->prompt.kind != PROMPT_NONE &&
	       prompt_answered_by(prompt_desc(s->prompt.kind), kind);
}

bool engine_prompt_interrupts(const struct state *s)
{
	return s->prompt.kind != PROMPT_NONE && prompt_desc(s->prompt.kind)->interrupts;
}
