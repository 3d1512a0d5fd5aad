/*
 * report.c - the board, hands and legal orders as text and pictures.
 */
#include "report.h"
#include "paths.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *general_place(const struct data *d, int loc)
{
	switch (loc) {
	case LOC_REINFORCEMENTS: return "Reinforcements box";
	case LOC_CAPTURED: return "Captured Generals box";
	case LOC_REMOVED: return "removed from the game";
	case LOC_FRENCH_BOX: return "French Reinforcements box";
	default: return d->spaces[loc].full_name;
	}
}

void report_board(const struct data *d, const struct state *s,
		  struct strbuf *out)
{
	strbuf_addf(out, "Year %d. French Alliance track %d of 9%s. British Regulars' Advantage: %s.\n",
		    s->year, s->french_alliance, s->french_allied ? " (allied)" : "",
		    s->regulars ? "in effect" : "lost");
	strbuf_addf(out, "Continental Congress: %s. ",
		    s->congress < 0 ? "dispersed" : d->spaces[s->congress].full_name);
	strbuf_addf(out, "War Ends box: %s.\n",
		    s->war_ends ? d->cards[s->war_ends].title : "empty");
	strbuf_addf(out, "Cards: deck %d, discard %d (top: %s), removed %d; hands: American %d, British %d.\n",
		    s->n_deck, s->n_discard,
		    s->n_discard ? d->cards[s->discard[s->n_discard - 1]].label : "none",
		    s->n_removed, s->n_hand[SIDE_AMERICAN], s->n_hand[SIDE_BRITISH]);
	strbuf_addf(out, "Boxes: British reinforcements %d CUs; French %d CUs.\n",
		    s->box_cu[NATION_BRITISH], s->box_cu[NATION_FRENCH]);
	if (s->french_allied)	/* 12.2, 12.3 */
		strbuf_addf(out, "French Navy: %s. European War: %s.\n",
			    s->french_navy >= 0 ? d->zones[s->french_navy].name
			    : s->french_navy == NAVY_TURN_TRACK ? "on the turn track"
			    : "in the French box",
			    s->alliance_this_turn ? "from this End Phase" : "in effect");
	/* Standing reactions: only what differs from "ask" (docs/orders.md). */
	strbuf_addstr(out, "Standing reactions:");
	int n_react = 0;
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++)
		for (int r = 0; r < REACT__COUNT; r++)
			if (s->react[side][r] == REACT_NEVER)
				strbuf_addf(out, "%s %s never %s", n_react++ ? ";" : "",
					    side_title(side), reaction_name((enum reaction)r));
	for (int g = 0; g < d->n_generals; g++)
		for (int r = 0; r < REACT__COUNT; r++)
			if (s->react_general[g][r])
				strbuf_addf(out, "%s %s %s with %s", n_react++ ? ";" : "",
					    s->react_general[g][r] - 1 == REACT_NEVER ? "never" : "ask",
					    reaction_name((enum reaction)r), d->generals[g].name);
	strbuf_addf(out, "%s (change with 'never|ask exchange|intercept|retreat|battle|declare [GENERAL]').\n",
		    n_react ? "" : " none, every interruption is asked");

	strbuf_addstr(out, "\nColonies (PCs American/British -> control):\n");
	for (int k = 0; k < d->n_colonies; k++) {
		int n[3] = { 0, 0, 0 };
		for (int i = 0; i < d->n_spaces; i++)
			if (d->spaces[i].colony == k)
				n[s->space[i].pc]++;
		enum side c = engine_colony_control(d, s, k);
		strbuf_addf(out, "  %-3s %-15s %2d/%-2d -> %s\n", d->colonies[k].code,
			    d->colonies[k].name, n[SIDE_AMERICAN], n[SIDE_BRITISH],
			    c == SIDE_NONE ? "uncontrolled" : side_title(c));
	}

	{
		int col[3];
		enum side w = engine_winner_if_ended(d, s, col);
		strbuf_addf(out, "If the war ended now: the Americans control %d colonies (they need %d),\n"
			    "the British %d (they need %d): the %s would win (13.2: if both or\n"
			    "neither reach their number, the British win).\n",
			    col[SIDE_AMERICAN], VICTORY_AMERICAN_COLONIES,
			    col[SIDE_BRITISH], VICTORY_BRITISH_COLONIES,
			    w == SIDE_AMERICAN ? "Americans" : "British");
	}

	strbuf_addstr(out, "\nGenerals (strategy-battle-agility):\n");
	for (int g = 0; g < d->n_generals; g++)
		strbuf_addf(out, "  %-12s %d-%d-%d  %-8s %s\n", d->generals[g].name,
			    d->generals[g].strategy, d->generals[g].battle,
			    d->generals[g].agility, side_title(d->generals[g].side),
			    general_place(d, s->general[g]));

	strbuf_addstr(out, "\nSpaces with PCs or units:\n");
	for (int i = 0; i < d->n_spaces; i++) {
		const struct space_state *sp = &s->space[i];
		bool any = sp->pc || sp->cu[0] || sp->cu[1] || sp->cu[2] || s->congress == i;
		for (int g = 0; g < d->n_generals && !any; g++)
			any = s->general[g] == i;
		if (!any)
			continue;
		strbuf_addf(out, "  %-24s", d->spaces[i].full_name);
		strbuf_addf(out, " %-9s", sp->pc ? side_title(sp->pc) : "-");
		if (sp->cu[NATION_AMERICAN])
			strbuf_addf(out, " %d American CU", sp->cu[NATION_AMERICAN]);
		if (sp->cu[NATION_FRENCH])
			strbuf_addf(out, " %d French CU", sp->cu[NATION_FRENCH]);
		if (sp->cu[NATION_BRITISH])
			strbuf_addf(out, " %d British CU", sp->cu[NATION_BRITISH]);
		for (int g = 0; g < d->n_generals; g++)
			if (s->general[g] == i)
				strbuf_addf(out, " %s", d->generals[g].name);
		if (s->congress == i)
			strbuf_addstr(out, " Congress");
		strbuf_addch(out, '\n');
	}
}

/* Appends text in lines of at most width columns (a longer word stands
 * alone), each line led by indent. */
static void add_wrapped(struct strbuf *out, const char *text, const char *indent,
			size_t width)
{
	size_t col = 0, ind = strlen(indent);

	for (const char *w = text; *w; ) {
		size_t n;
		while (*w == ' ')
			w++;
		if (!*w)
			break;
		n = strcspn(w, " ");
		if (col && col + 1 + n > width) {
			strbuf_addch(out, '\n');
			col = 0;
		}
		if (!col) {
			strbuf_addstr(out, indent);
			col = ind;
		} else {
			strbuf_addch(out, ' ');
			col++;
		}
		strbuf_add(out, w, n);
		col += n;
		w += n;
	}
	if (col)
		strbuf_addch(out, '\n');
}

void report_hand(const struct data *d, const struct state *s, enum side side,
		 struct strbuf *out)
{
	if (!s->n_hand[side])
		strbuf_addstr(out, "  (empty)\n");
	for (int i = 0; i < s->n_hand[side]; i++) {
		const struct data_card *c = &d->cards[s->hand[side][i]];
		strbuf_addf(out, "  %s", c->label);
		if (!c->ops)
			strbuf_addf(out, " (%s%s%s)",
				    c->special ? "special event, must be played" :
				    c->side == CARD_SIDE_AMERICAN ? "American event" :
				    c->side == CARD_SIDE_BRITISH ? "British event" : "event",
				    c->battle_card ? ", battle card" : "",
				    c->removed_after_play ? ", removed after play" : "");
		strbuf_addch(out, '\n');
		/* what the event does, so no rulebook is needed to choose */
		if (!c->ops && c->text && *c->text)
			add_wrapped(out, c->text, "      ", 72);
	}
}

void report_options(const struct data *d, const struct state *s, bool plain,
		    struct strbuf *out)
{
	int n = engine_legal(d, s, NULL, 0);
	struct action *acts = xcalloc((size_t)n + 1, sizeof(*acts));

	engine_legal(d, s, acts, n);
	if (plain) {
		strbuf_addf(out, "%s\n", engine_game_over(s) ? "none" : side_name(s->prompt.side));
	} else if (n) {
		strbuf_addf(out, "%d legal order%s:\n", n, n == 1 ? "" : "s");
	}
	for (int i = 0; i < n; i++) {
		if (!plain)
			strbuf_addstr(out, "  ");
		action_format(d, &acts[i], out);
		if (!plain && acts[i].card > 0) {
			const struct data_card *c = &d->cards[acts[i].card];
			strbuf_addf(out, "    # %s", c->ops ? c->label + strcspn(c->label, " ") + 1
							 : c->title);
		}
		strbuf_addch(out, '\n');
	}
	free(acts);
}

char *report_templates_dir(void)
{
	return paths_find("POSTRIDER_TEMPLATES", NULL, "templates", "turn.txt");
}

static const char *lookup(const char *const *vars, const char *name, size_t len)
{
	for (; vars[0]; vars += 2)
		if (strlen(vars[0]) == len && !strncmp(vars[0], name, len))
			return vars[1] ? vars[1] : "";
	return NULL;
}

int report_render(const char *name, const char *const *vars,
		  struct strbuf *out, struct strbuf *err)
{
	char *dir = report_templates_dir(), *path = xstrfmt("%s/%s", dir, name);
	struct strbuf t = STRBUF_INIT;
	const char *p;
	int skip = 0, ret = 0;

	free(dir);
	if (read_file(path, &t, 1 << 20) < 0) {
		strbuf_addf(err, "cannot read template '%s': %s", path, strerror(errno));
		free(path);
		return -1;
	}
	for (p = t.buf; *p;) {
		const char *open = strstr(p, "{{"), *close;
		if (!open) {
			if (!skip)
				strbuf_addstr(out, p);
			break;
		}
		if (!skip)
			strbuf_add(out, p, (size_t)(open - p));
		close = strstr(open, "}}");
		if (!close) {
			strbuf_addf(err, "template '%s': '{{' without '}}'", path);
			ret = -1;
			break;
		}
		const char *nm = open + 2;
		size_t len = (size_t)(close - nm);
		p = close + 2;
		if (*nm == '#' || *nm == '/') {
			const char *v = lookup(vars, nm + 1, len - 1);
			if (!v) {
				strbuf_addf(err, "template '%s': unknown variable '%.*s'", path, (int)len - 1, nm + 1);
				ret = -1;
				break;
			}
			if (*nm == '#') {
				if (skip || !*v)
					skip++;
			} else if (skip) {
				skip--;
			}
			if (*p == '\n')
				p++;
			continue;
		}
		const char *v = lookup(vars, nm, len);
		if (!v) {
			strbuf_addf(err, "template '%s': unknown variable '%.*s'", path, (int)len, nm);
			ret = -1;
			break;
		}
		if (!skip)
			strbuf_addstr(out, v);
	}
	free(path);
	strbuf_release(&t);
	return ret;
}
