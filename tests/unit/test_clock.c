/*
 * test_clock.c - deadlines, time taken and vacations (clock.h) with a
 * fixed clock: when a decision is due, that each reminder and each late
 * notice comes once per decision, what an order charges, and the
 * vacation limit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "clock.h"

#define T0 1700000000LL
#define H 3600LL
#define D (24 * H)

static void three_days(struct game_clock *c)
{
	clock_init(c, T0);
	c->deadline = 3 * D;
}

static void due_and_alarms_once(void **state)
{
	struct game_clock c;
	(void)state;

	three_days(&c);
	assert_int_equal(clock_due(&c, SIDE_AMERICAN), T0 + 3 * D);
	/* quiet until warn_before the deadline */
	assert_int_equal(clock_alarm(&c, 5, SIDE_AMERICAN, T0 + D, 12 * H), CLOCK_QUIET);
	assert_int_equal(clock_alarm(&c, 5, SIDE_AMERICAN, T0 + 60 * H, 12 * H), CLOCK_WARN);
	clock_alarm_sent(&c, 5, CLOCK_WARN);
	assert_int_equal(clock_alarm(&c, 5, SIDE_AMERICAN, T0 + 61 * H, 12 * H), CLOCK_QUIET);
	/* late: once */
	assert_int_equal(clock_alarm(&c, 5, SIDE_AMERICAN, T0 + 3 * D, 12 * H), CLOCK_LATE);
	clock_alarm_sent(&c, 5, CLOCK_LATE);
	assert_int_equal(clock_alarm(&c, 5, SIDE_AMERICAN, T0 + 9 * D, 12 * H), CLOCK_QUIET);
	/* a remind that first runs after the deadline sends the late notice
	 * only, not a reminder too */
	three_days(&c);
	assert_int_equal(clock_alarm(&c, 5, SIDE_AMERICAN, T0 + 4 * D, 12 * H), CLOCK_LATE);
	clock_alarm_sent(&c, 5, CLOCK_LATE);
	assert_int_equal(clock_alarm(&c, 5, SIDE_AMERICAN, T0 + 4 * D, 12 * H), CLOCK_QUIET);
	/* the next decision (another seq) has its own */
	clock_order(&c, SIDE_AMERICAN, SIDE_AMERICAN, T0 + 4 * D);
	assert_int_equal(clock_alarm(&c, 6, SIDE_BRITISH, T0 + 7 * D, 12 * H), CLOCK_LATE);
	/* no deadline, no alarm */
	c.deadline = 0;
	assert_int_equal(clock_due(&c, SIDE_BRITISH), 0);
	assert_int_equal(clock_alarm(&c, 6, SIDE_BRITISH, T0 + 99 * D, 12 * H), CLOCK_QUIET);
}

static void orders_charge_the_side_waited_for(void **state)
{
	struct game_clock c;
	(void)state;

	three_days(&c);
	clock_order(&c, SIDE_AMERICAN, SIDE_AMERICAN, T0 + 5 * H);
	/* a standing reaction of the British while the American decides:
	 * the time is the American's */
	clock_order(&c, SIDE_AMERICAN, SIDE_BRITISH, T0 + 7 * H);
	clock_order(&c, SIDE_BRITISH, SIDE_BRITISH, T0 + 10 * H);
	assert_int_equal(c.side[SIDE_AMERICAN].taken, 7 * H);
	assert_int_equal(c.side[SIDE_BRITISH].taken, 3 * H);
	assert_int_equal(c.since, T0 + 10 * H);
}

static void vacations_move_the_deadline_within_the_limit(void **state)
{
	struct game_clock c;
	struct strbuf why = STRBUF_INIT;
	(void)state;

	three_days(&c);
	c.vacation_limit = 10 * D;
	assert_int_equal(clock_vacation(&c, SIDE_AMERICAN, T0 + D, 7 * D, &why), 0);
	assert_int_equal(clock_due(&c, SIDE_AMERICAN), T0 + 10 * D);
	/* the other side's deadline does not move */
	assert_int_equal(clock_due(&c, SIDE_BRITISH), T0 + 3 * D);
	assert_int_equal(clock_alarm(&c, 1, SIDE_AMERICAN, T0 + 4 * D, 12 * H), CLOCK_QUIET);
	/* beyond the limit: refused, nothing changed */
	assert_int_equal(clock_vacation(&c, SIDE_AMERICAN, T0 + 2 * D, 4 * D, &why), -1);
	assert_non_null(strstr(why.buf, "3 days left"));
	assert_int_equal(c.side[SIDE_AMERICAN].vacation_used, 7 * D);
	/* back early: an order ends it, the days not used are given back,
	 * and the vacation is not charged as time taken */
	clock_order(&c, SIDE_AMERICAN, SIDE_AMERICAN, T0 + 3 * D);
	assert_int_equal(c.side[SIDE_AMERICAN].vacation_used, 2 * D);
	assert_int_equal(c.side[SIDE_AMERICAN].taken, D);
	assert_int_equal(clock_vacation(&c, SIDE_AMERICAN, T0 + 3 * D, 8 * D, &why), 0);
	strbuf_release(&why);
}

static void the_report_lines(void **state)
{
	struct game_clock c;
	struct strbuf out = STRBUF_INIT;
	(void)state;

	three_days(&c);
	c.side[SIDE_BRITISH].taken = 26 * H;
	clock_describe(&c, SIDE_AMERICAN, T0 + 90 * 60, &out);
	assert_string_equal(out.buf,
		"Deadline: the American's decision is due by 2023-11-17T22:13:20Z (3 days a decision).\n"
		"Time taken so far: American 1 hour 30 minutes, British 1 day 2 hours.\n");
	strbuf_reset(&out);
	c.deadline = 0;
	clock_describe(&c, SIDE_AMERICAN, T0, &out);
	assert_int_equal(out.len, 0);
	strbuf_release(&out);
}

static void yaml_round_trip(void **state)
{
	struct game_clock c, back;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	(void)state;

	three_days(&c);
	c.warned = 4;
	c.late = 3;
	c.side[SIDE_AMERICAN].taken = 12345;
	c.side[SIDE_BRITISH].away_from = T0;
	c.side[SIDE_BRITISH].away_until = T0 + D;
	c.side[SIDE_BRITISH].vacation_used = D;
	clock_write_yaml(&c, &a);
	assert_int_equal(clock_parse_yaml(a.buf, a.len, T0, &back, &b), 0);
	strbuf_reset(&b);
	clock_write_yaml(&back, &b);
	assert_string_equal(a.buf, b.buf);
	/* an unknown key is named with its place */
	strbuf_reset(&b);
	assert_int_equal(clock_parse_yaml("deadline: 5\ndeadlin: 3\n", 23, T0, &back, &b), -1);
	assert_non_null(strstr(b.buf, "2:1"));
	strbuf_release(&a);
	strbuf_release(&b);
}

static void durations(void **state)
{
	long long s;
	struct strbuf out = STRBUF_INIT;
	(void)state;

	assert_int_equal(duration_parse("3d", &s), 0);
	assert_int_equal(s, 3 * D);
	assert_int_equal(duration_parse("90m", &s), 0);
	assert_int_equal(s, 90 * 60);
	assert_int_equal(duration_parse("2W", &s), 0);
	assert_int_equal(s, 14 * D);
	assert_int_equal(duration_parse("3", &s), -1);
	assert_int_equal(duration_parse("0d", &s), -1);
	assert_int_equal(duration_parse("-1d", &s), -1);
	assert_int_equal(duration_parse("3dd", &s), -1);
	assert_int_equal(duration_parse("99999w", &s), -1);
	duration_format(D + 4 * H + 59, &out);
	assert_string_equal(out.buf, "1 day 4 hours");
	strbuf_reset(&out);
	duration_format(D + 5 * 60, &out);
	assert_string_equal(out.buf, "1 day");
	strbuf_release(&out);
}

/* Issue 28, item 7: an order that decides nothing carries the decision
 * on: the reminder and the late notice already sent stay sent. */
static void a_same_decision_keeps_its_alarms(void **state)
{
	struct game_clock c;
	(void)state;

	three_days(&c);
	clock_alarm_sent(&c, 5, CLOCK_WARN);
	clock_alarm_sent(&c, 5, CLOCK_LATE);
	long long since = c.since;
	clock_same_decision(&c, 5, 6);
	assert_int_equal(c.since, since);
	assert_int_equal(clock_alarm(&c, 6, SIDE_AMERICAN, since + 4 * 86400, 86400), CLOCK_QUIET);
	/* a decision asked after another order has its own */
	clock_same_decision(&c, 9, 10);
	assert_int_equal(clock_alarm(&c, 10, SIDE_AMERICAN, since + 4 * 86400, 86400), CLOCK_LATE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(due_and_alarms_once),
		cmocka_unit_test(orders_charge_the_side_waited_for),
		cmocka_unit_test(vacations_move_the_deadline_within_the_limit),
		cmocka_unit_test(the_report_lines),
		cmocka_unit_test(yaml_round_trip),
		cmocka_unit_test(durations),
		cmocka_unit_test(a_same_decision_keeps_its_alarms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
