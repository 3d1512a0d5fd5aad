#!/bin/sh
#
# make demo must keep working: the README promises it as the first command
# on a fresh machine. Run the demo script into a temporary folder and check
# that it played by mail and left a sound game.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

D=$TRASH/demo
expect_exit 0 env DEMO_DIR="$D" sh tests/demo.sh
expect_grep "the demo says where the repository is" "^The game repository is $D\$" "$TRASH/out"
expect_grep "the demo says where the outbox is" "outbox/new\$" "$TRASH/out"
expect_grep "players answered by mail" "replies by mail" "$TRASH/out"
expect_eq "the game has its commits" yes "$([ "$(commit_count "$D")" -ge 10 ] && echo yes || echo no)"
expect_fsck "$D"
expect_exit 4 postrider audit "$D"
expect_grep "the demo's given seed is not called fair" "^not a fair game: the seed was given" "$TRASH/out"

test_done
