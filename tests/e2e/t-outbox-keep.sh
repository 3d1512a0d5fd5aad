#!/bin/sh
#
# Issue 29: the mail a game sent does not pile up in its outbox. Sent
# messages move to outbox/cur/, which keeps two weeks of them and at
# least the last 20 (README, "Mail"); every run that sends, and `postrider
# send`, deletes what is older. Unsent mail (new/) is never touched.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

# a sendmail that keeps what it is given, in order
mkdir -p "$TRASH/sent"
cat >"$TRASH/sendmail" <<EOF
#!/bin/sh
n=\$(ls "$TRASH/sent" | wc -l)
cat >"$TRASH/sent/\$n.eml"
EOF
chmod +x "$TRASH/sendmail"
printf 'transport: sendmail\nsendmail: %s\n' "$TRASH/sendmail" >"$XDG_CONFIG_HOME/postrider/config.yaml"

G=$TRASH/game
new_game "$G"
CUR=$(outbox "$G")/cur
expect_eq "new: both first reports sent, kept in cur/" 2 "$(outbox_count "$G" cur)"
expect_eq "... and handed to sendmail" 2 "$(ls "$TRASH/sent" | wc -l)"

# a month-old history of 30 sent messages, and the first reports aged too
old=$((POSTRIDER_NOW - 30 * 86400))
i=0
while [ $i -lt 30 ]; do
	printf 'Subject: old\r\n\r\nold\r\n' >"$CUR/$(printf '%040d-%04d-american.1:2,S' $i $i)"
	i=$((i + 1))
done
touch -d "@$old" "$CUR"/*
play_first_legal "$G"
expect_eq "a turn sent two reports" 4 "$(ls "$TRASH/sent" | wc -l)"
expect_eq "cur/ keeps the last 20 of what is older than two weeks" 20 "$(outbox_count "$G" cur)"
expect_ne "... the turn's own reports among them" "" "$(ls "$CUR" | grep "^$(git -C "$G" rev-parse HEAD)-")"

# `postrider send` prunes too; a fresh message stays, unsent mail stays
touch -d "@$old" "$CUR"/*
printf 'Subject: fresh\r\n\r\nfresh\r\n' >"$CUR/answer-0001-british.1:2,S"
touch -d "@$POSTRIDER_NOW" "$CUR/answer-0001-british.1:2,S"
for k in 1 2 3 4 5; do
	printf 'Subject: young\r\n\r\nyoung\r\n' >"$CUR/answer-000$k-american.1:2,S"
	touch -d "@$((POSTRIDER_NOW - k * 86400))" "$CUR/answer-000$k-american.1:2,S"
done
expect_exit 0 postrider send "$G"
expect_eq "send: the last 20, the fresh and the young among them" 20 "$(outbox_count "$G" cur)"
expect_ne "... the fresh one kept" "" "$(ls "$CUR" | grep '^answer-0001-british')"

test_done
