#!/bin/sh
#
# Issue 39, item 2: the host cannot choose a battle's dice with orders the
# player never sent. In fairness version 3 a die's input named its side's
# count of orders, so K orders that decide nothing, played by the host for
# the mover (`play --as british` with `ask exchange`, a standing
# reaction), before the real battle order gave K different sets of dice,
# every one of them proved. Version 4 (the default) binds each die to its
# place among the game's public draws: an order that draws nothing moves
# no die, so K = 0, 1, 2, 3 give the same dice. Every game audits without
# the seed and passes the Python verifier, and every order the host typed
# is marked as his in the log, in both players' reports and in
# `audit --turn`; an order that came by mail is not.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

VERIFY=tests/verify/verify_vrf.py

# battle_after VERSION K: a game of that fairness version brought to the
# first battle (the golden cases' seed and set-up), the American's standing
# orders for it, K no-op orders of the British typed by the host, then the
# British's attack; prints the dice of the attack's commit
battle_after() {
	_bg=$TRASH/v$1-k$2
	new_golden_game "$_bg" --fairness "$1"
	play_golden_setup "$_bg" tests/golden/held-over-wait/setup
	# the American's standing orders come by mail (a reply to his report)
	reply_mail "$(report_for "$_bg" american)" "$AMERICAN" \
		"$(printf 'if attacked at lexington: stand\nif battle: none')" >"$TRASH/mail"
	postrider play "$_bg" <"$TRASH/mail" >/dev/null 2>"$TRASH/err" ||
		die "the American's standing orders: $(cat "$TRASH/err")"
	_k=0
	while [ $_k -lt "$2" ]; do
		printf 'ask exchange\n' >"$TRASH/o"
		postrider play "$_bg" --as british "$TRASH/o" >/dev/null 2>"$TRASH/err" ||
			die "no-op order $_k: $(cat "$TRASH/err")"
		_k=$((_k + 1))
	done
	printf 'move 23 Howe\nto Lexington\ndiscard 80\n' >"$TRASH/o"
	postrider play "$_bg" --as british "$TRASH/o" >/dev/null 2>"$TRASH/err" ||
		die "the attack: $(cat "$TRASH/err")"
	git -C "$_bg" diff HEAD~1 HEAD -- log.txt | sed -n 's/^+draw [0-9]*: //p'
}

for v in 3 4; do
	for k in 0 1 2 3; do
		battle_after $v $k >"$TRASH/dice.$v.$k"
		# a player's clone: no secret
		git clone -q "$TRASH/v$v-k$k" "$TRASH/c$v-k$k" || die "clone"
		expect_exit 4 postrider audit "$TRASH/c$v-k$k"
		expect_grep "version $v, $k no-op orders: a player's audit verifies every die" \
			'^verified 6 dice without any secret' "$TRASH/out"
		expect_exit 0 "$PY" "$VERIFY" game "$TRASH/v$v-k$k"
		expect_grep "version $v, $k no-op orders: the Python verifier agrees" \
			'^verified 6 dice without any secret' "$TRASH/out"
	done
done
expect_eq "the battle rolls six dice" 6 "$(wc -l <"$TRASH/dice.4.0")"
for k in 1 2 3; do
	expect_file_eq "version 4: $k no-op orders of the host give the dice of none" \
		"$TRASH/dice.4.0" "$TRASH/dice.4.$k"
done
expect_eq "version 3 (kept for its games): the host chose among four sets of dice" 4 \
	"$(for k in 0 1 2 3; do paste -sd, "$TRASH/dice.3.$k"; done | sort -u | wc -l)"
expect_grep "a new game is of fairness version 4" '^  version: 4$' "$TRASH/v4-k0/game.yaml"

# Every order the host typed is marked as his: in the log under its
# heading, in both players' reports, in audit --turn; the American's order
# by mail is not.
G=$TRASH/v4-k1
attack=$(state_field "$G" seq)
noop=$((attack - 1))
mailed=$((attack - 2))
mark='Typed by the host (play --as british), not sent by the British by mail.'
expect_eq "the host's no-op order is marked under its heading" "$mark" \
	"$(sed -n "/^-- 1775, order $noop (British) --\$/{n;p;}" "$G/log.txt")"
expect_eq "and his attack" "$mark" \
	"$(sed -n "/^-- 1775, order $attack (British) --\$/{n;p;}" "$G/log.txt")"
expect_eq "the American's order by mail is not" "The American gives a standing order (sealed until it is used)." \
	"$(sed -n "/^-- 1775, order $mailed (American) --\$/{n;p;}" "$G/log.txt")"
for side in american british; do
	mail_part "$(report_for "$G" $side)" text/plain >"$TRASH/report.$side"
	expect_fixed "the $side's report of the attack says the host typed it" "$mark" "$TRASH/report.$side"
done
C=$TRASH/c4-k1
expect_exit 4 postrider audit "$C" --turn "$attack"
expect_grep "audit --turn: the attack was typed by the host" \
	'^how it came: TYPED BY THE HOST, not received by mail (Postrider-Via: host (play --as british))$' "$TRASH/out"
expect_fixed "and its log shows the mark" "  | $mark" "$TRASH/out"
expect_exit 4 postrider audit "$C" --turn "$mailed"
expect_grep "audit --turn: the American's order came by mail, with its Message-ID" \
	'^how it came: by mail from the american, Message-ID <reply\.[0-9]*@example\.org> (Postrider-Via: mail)$' "$TRASH/out"

# A host who leaves the mark out (or puts it on an order by mail) is named
# by every player's audit, without the seed.
F=$TRASH/forged
git clone -q "$G" "$F" || die "clone"
sed "/^-- 1775, order $attack (British) --\$/{n;d;}" "$G/log.txt" >"$F/log.txt"
git -C "$F" commit -q -a --amend --no-edit || die "amend"
expect_exit 1 postrider audit "$F"
expect_grep "a mark left out is named" 'the order the host typed (its Postrider-Via trailer) is not marked so' "$TRASH/out"

test_done
