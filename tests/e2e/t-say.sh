#!/bin/sh
#
# Issue 39, item 5: table talk (`say`) goes into log.txt and the other
# side's report, so a control character in it (a CR that overwrites a line
# on a terminal, an escape sequence, a bell; anything below 0x20 but a tab,
# and DEL) would go there raw: such a line is refused, with a clear reason,
# and nothing is committed. The limit of a `say` line (500) and of an
# order's (1,500) is counted in characters, not bytes: 500 ASCII
# characters were refused as 501, 300 "é" as 601. Prose set aside around an
# order, which the log quotes in part, has its control characters shown as
# spaces and is cut between characters.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

G=$TRASH/g
new_game "$G"

# say_order PLACE TEXT...: the American places a PC at PLACE and says TEXT
# (printf's format, so \r, \033 and the like are those bytes)
say_order() {
	_place=$1
	shift
	{ printf 'place %s\nsay ' "$_place"; printf "$@"; printf '\n'; } >"$TRASH/order"
}

n=$(commit_count "$G")
for c in 'CR:\r' 'ESC:\033[2J' 'BEL:\007' 'DEL:\177' 'NUL-like 0x01:\001' 'VT:\013'; do
	name=${c%%:*}
	say_order Savannah "before${c#*:}after"
	expect_exit 1 postrider play "$G" --as american "$TRASH/order"
	expect_fixed "a 'say' with a $name is refused, and told why" \
		"a 'say' line may hold no control character" "$TRASH/err"
done
expect_eq "nothing was committed" "$n" "$(commit_count "$G")"
expect_exit 1 postrider check "$G" --as american "$TRASH/order"
cat "$TRASH/out" "$TRASH/err" >"$TRASH/check"
expect_fixed "check says the same" "a 'say' line may hold no control character" "$TRASH/check"

# a tab is allowed
say_order Savannah 'one\ttwo'
expect_exit 0 postrider play "$G" --as american "$TRASH/order"
expect_fixed "a tab is table talk like any blank" "$(printf 'American says: "one\ttwo"')" "$G/log.txt"

# 500 characters: ASCII, then two-byte letters
A500=$(printf '%0500d' 0)
say_order Camden '%s' "$A500"
expect_exit 0 postrider play "$G" --as american "$TRASH/order"
expect_fixed "500 ASCII characters are within the limit" "American says: \"$A500\"" "$G/log.txt"
say_order Charlotte '%s1' "$A500"
expect_exit 1 postrider play "$G" --as american "$TRASH/order"
expect_fixed "501 are not" "a 'say' line holds at most 500 characters (this one 501)" "$TRASH/err"
E300=$(i=0; while [ $i -lt 300 ]; do printf 'é'; i=$((i + 1)); done)
say_order Charlotte '%s' "$E300"
expect_exit 0 postrider play "$G" --as american "$TRASH/order"
expect_fixed "300 é (600 bytes) are 300 characters" "American says: \"$E300\"" "$G/log.txt"
E501=$(i=0; while [ $i -lt 501 ]; do printf 'é'; i=$((i + 1)); done)
say_order Alexandria '%s' "$E501"
expect_exit 1 postrider play "$G" --as american "$TRASH/order"
expect_fixed "501 é are 501 characters" "a 'say' line holds at most 500 characters (this one 501)" "$TRASH/err"
# an order's 'say' lines: 1,500 characters in all
E200=$(printf '%s' "$E300" | cut -c1-400)
{ printf 'place Alexandria\n'; for k in 1 2 3; do printf 'say %s%s\n' "$E300" "$E200"; done; } >"$TRASH/order"
expect_exit 0 postrider play "$G" --as american "$TRASH/order"
expect_eq "three lines of 500 é" 3 "$(grep -c "^American says: \"$E300$E200\"$" "$G/log.txt")"
{ printf 'place Baltimore\n'; for k in 1 2 3; do printf 'say %s%s\n' "$E300" "$E200"; done; printf 'say é\n'; } >"$TRASH/order"
expect_exit 1 postrider play "$G" --as american "$TRASH/order"
expect_fixed "1,501 characters in an order's say lines are too many" \
	"the 'say' lines of one order hold at most 1500 characters" "$TRASH/err"

# prose set aside before an order is quoted in the log: a control character
# there as a space, and cut at 80 whole characters (not in the middle of
# an é)
E90=$(printf '%s' "$E300" | cut -c1-180)
{ printf 'Dear \033[2Jfriend,\r\n%s\nplace Baltimore\n' "$E90"; } >"$TRASH/order"
expect_exit 0 postrider play "$G" --as american "$TRASH/order"
expect_fixed "a control character in prose is logged as a space" \
	"Set aside, not orders: 'Dear  [2Jfriend,' '$(printf '%s' "$E300" | cut -c1-160)...'." "$G/log.txt"

# nothing below 0x20 but tab and newline, and no DEL, in the log
expect_eq "log.txt holds no control character" 0 \
	"$(LC_ALL=C tr -d '\t\n' <"$G/log.txt" | LC_ALL=C tr -dc '\000-\037\177' | wc -c)"
expect_exit 0 iconv -f UTF-8 -t UTF-8 "$G/log.txt"
mail_part "$(report_for "$G" british)" text/plain >"$TRASH/british"
expect_fixed "the British reads the talk" "American says: \"$E300\"" "$TRASH/british"

test_done
