/*
 * order.c - what goes with the types of order.h: the result of an order
 * (struct order_result). Every part of the order layer stands on it; the
 * run itself is order-run.c, at the top.
 */
#include "order.h"

#include <string.h>

void order_result_init(struct order_result *res)
{
	memset(res, 0, sizeof(*res));
	strbuf_init(&res->message);
	strbuf_init(&res->log);
	strbuf_init(&res->actions);
	strbuf_init(&res->set_aside);
}

void order_result_release(struct order_result *res)
{
	if (!res)
		return;
	strbuf_release(&res->message);
	strbuf_release(&res->log);
	strbuf_release(&res->actions);
	strbuf_release(&res->set_aside);
}
