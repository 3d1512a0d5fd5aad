#!/bin/sh
# t-resign.sh - a player resigns (issue 18): by mail with the token, the
# game ends at once, the other side wins, both are told; the history
# audits, the seed may then be revealed and the game archived.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

G=$TRASH/g
new_game "$G"
# the British resigns by mail while the American decides
BR=$(report_for "$G" british) || die "no report to the British"
reply_mail "$BR" "$BRITISH" "resign" >"$TRASH/resign.eml"
expect_exit 1 postrider play "$G" "$TRASH/resign.eml"
expect_fixed "a bare 'resign' asks for the confirmation" "resign confirm" "$TRASH/err"
expect_eq "nothing was committed" 1 "$(commit_count "$G")"
reply_mail "$BR" "$BRITISH" "Sorry, I have to stop.
resign confirm" "<resign.2@example.org>" >"$TRASH/resign.eml"
expect_exit 0 postrider play "$G" "$TRASH/resign.eml"
expect_eq "the resignation is committed" 2 "$(commit_count "$G")"
expect_grep "the log says it" "^The British resigns: the American wins the game\\." "$G/log.txt"
expect_eq "the American wins" american "$(sed -n 's/^  winner: //p' "$G/state.yaml")"
AM=$(report_for "$G" american) || die "no report to the American"
expect_grep "the American is told" "resigns" "$AM"
expect_exit 1 postrider play "$G" --as american "$TRASH/resign.eml"
expect_exit 4 postrider audit "$G"
expect_fixed "the history audits" "verified" "$TRASH/out"
expect_exit 0 postrider reveal "$G"
expect_exit 0 postrider archive "$G" "$TRASH/archive"
expect_grep "the archive says who won and how" "The Americans win in 1775 (resignation)" "$TRASH/archive/result.txt"

test_done
