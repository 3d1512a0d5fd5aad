#!/bin/sh
#
# Issue 34, docs/peer.md section 11: silence in a game with no host. Two
# copies as t-peer.sh makes them, the mails passed by hand, the fixed
# clock (POSTRIDER_NOW) moved forward: `peer remind` mails this copy's
# last commit again when the other owes an automatic answer for an hour
# (a copy to the other side, nothing changes), none before; `peer claim`
# refused before the forfeit limit and by the side that owes, accepted
# after it, the game over in both copies and `peer audit` passing.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

A=$TRASH/alice
B=$TRASH/bob
T0=$POSTRIDER_NOW
HOUR=3600
DAY=86400

last_mail() {
	_d=$(outbox "$1")/new
	ls -t "$_d" | head -n 1 | sed "s|^|$_d/|"
}
peer_mails() { ls "$(outbox "$1")/new/" | grep -c -- '-peer-' ; }

postrider peer new "$A" --me american --american "$AMERICAN" \
	--british "$BRITISH" --secret "$SA" >/dev/null 2>&1 || die "peer new"
POSTRIDER_NOW=$((T0 + 8 * DAY)) expect_exit 1 postrider peer claim "$A"
expect_grep "no claim of a game the other never joined" "the british never joined: there is no game to claim" "$TRASH/err"
postrider peer join "$B" --secret "$SB" --address "$BRITISH" "$(last_mail "$A")" >/dev/null 2>&1 || die "peer join"
JOIN=$(last_mail "$B")
postrider play "$A" "$JOIN" >/dev/null 2>&1 || die "the join"

# --- remind: who owes what --------------------------------------------------
expect_exit 0 postrider peer remind "$A"
expect_grep "remind says who owes what since when" \
	"the american owes a decision since 2023-11-14 22:13 UTC" "$TRASH/out"
expect_exit 0 postrider remind "$B"
expect_grep "postrider remind on a peer copy is peer remind" "the american owes a decision" "$TRASH/out"
expect_no_grep "a decision owed: nothing is mailed again" "mailed again" "$TRASH/out"

# the American's first order: the British postrider answers at once (the
# deal's shares); the answer is withheld: the American owes nothing, the
# British copy waits for the American's automatic answer or decision
cp -a "$A" "$TRASH/alice0"
cp -a "$B" "$TRASH/bob0"
A0=$TRASH/alice0
B0=$TRASH/bob0

# --- an automatic answer the other owes: the resend -------------------------
# orders until one leaves the other side's postrider owing an automatic
# answer; its mail is kept back
"$PY" tests/e2e/peer-until-owed.py "$A" "$B" 1 200 >"$TRASH/owed.out" 2>&1
W=$(cut -d' ' -f1 "$TRASH/owed.out")
M=$(cut -d' ' -f2 "$TRASH/owed.out")
expect_eq "an order leaves the American owing an automatic answer" "british" "$W"
HEAD_B=$(git -C "$B" rev-parse HEAD)
N0=$(peer_mails "$B")
expect_exit 0 postrider peer remind "$B"
expect_grep "remind: the American owes an automatic answer" "the american owes an automatic answer since" "$TRASH/out"
POSTRIDER_NOW=$((T0 + HOUR - 1)) expect_exit 0 postrider peer remind "$B"
expect_eq "no resend before an hour" "$N0" "$(peer_mails "$B")"
POSTRIDER_NOW=$((T0 + HOUR)) expect_exit 0 postrider peer remind "$B"
expect_grep "an hour late: the last commit is mailed again" "mailed again: commit" "$TRASH/out"
expect_eq "one mail more" "$((N0 + 1))" "$(peer_mails "$B")"
AGAIN=$(last_mail "$B")
expect_eq "the same mail again" "$(sha256sum <"$M")" "$(sha256sum <"$AGAIN")"
POSTRIDER_NOW=$((T0 + 2 * HOUR)) expect_exit 0 postrider remind --quiet "$B"
expect_eq "then at most daily" "$((N0 + 1))" "$(peer_mails "$B")"
expect_no_grep "remind --quiet prints nothing when nothing is mailed" "owes\|again" "$TRASH/out"
POSTRIDER_NOW=$((T0 + HOUR + DAY)) expect_exit 0 postrider peer remind "$B"
expect_eq "a day later, again" "$((N0 + 2))" "$(peer_mails "$B")"
# the mail had reached the American's copy, whose answer was lost: the
# resend is a copy there, and changes nothing
expect_exit 0 postrider play "$A" "$M"
HEAD_A=$(git -C "$A" rev-parse HEAD)
expect_exit 0 postrider play "$A" "$AGAIN"
expect_grep "the resent mail is already applied" "already applied" "$TRASH/err"
expect_eq "the resend changes nothing" "$HEAD_A" "$(git -C "$A" rev-parse HEAD)"
expect_eq "the British copy is unchanged by its remind" "$HEAD_B" "$(git -C "$B" rev-parse HEAD)"

# --- a decision the other owes: the claim -----------------------------------
# after the join the American owes a decision; the British may claim 7 days
# after the join's date
LIMIT=$((T0 + 7 * DAY))
POSTRIDER_NOW=$((LIMIT + DAY)) expect_exit 1 postrider peer claim "$A0"
expect_grep "the side that owes cannot claim" "the Americans owe the next commit" "$TRASH/err"
POSTRIDER_NOW=$((LIMIT - 1)) expect_exit 1 postrider peer claim "$B0"
expect_grep "a claim before the limit is refused with its date" \
	"too early: .*a claim is possible from 2023-11-21 22:13 UTC" "$TRASH/err"
expect_eq "a refused claim changes nothing" "$(git -C "$A0" rev-parse HEAD)" "$(git -C "$B0" rev-parse HEAD)"
POSTRIDER_NOW=$((LIMIT - 1)) expect_exit 0 postrider peer remind "$B0"
expect_no_grep "remind: not yet claimable" "forfeit limit passed\|past the forfeit" "$TRASH/out"
POSTRIDER_NOW=$LIMIT expect_exit 0 postrider peer remind "$B0"
expect_grep "remind: claimable past the limit" "past the forfeit limit: .postrider peer claim" "$TRASH/out"
expect_ne "its player is told he may claim" "" "$(ls "$(outbox "$B0")/new/" | grep -- '-claimable-')"
cp -a "$A0" "$TRASH/alice0b"
cp -a "$B0" "$TRASH/bob0b"
POSTRIDER_NOW=$LIMIT expect_exit 0 postrider peer claim "$B0"
expect_grep "the claim is made" "claimed: commit 3 " "$TRASH/out"
CLAIM=$(ls -t "$(outbox "$B0")/new/"*-peer-* | head -n 1)
expect_grep "the claim is mailed to the American" "^Subject: \[.*\] peer 3 british claim" "$CLAIM"
expect_eq "the claim's kind" "Postrider-Kind: claim" "$(git -C "$B0" log -1 --format=%B | grep '^Postrider-Kind')"
expect_eq "nobody owes anything after a claim" "" "$(git -C "$B0" log -1 --format=%B | grep '^Postrider-Waits')"
expect_grep "the log names the commit not answered and its date" \
	"did not answer commit 2 (.*) of 2023-11-14 22:13 UTC" "$B0/log.txt"
expect_grep "the silent side loses by forfeit" "the British won, the Americans having lost by forfeit" "$B0/log.txt"
expect_eq "the claimant's key is published" "british" "$(cut -d' ' -f1 "$B0/peer/keys.txt")"
POSTRIDER_NOW=$((LIMIT + DAY)) expect_exit 1 postrider peer claim "$B0"
expect_grep "no claim of a game that is over" "the game is over" "$TRASH/err"

# the American's copy comes back at the claim's parent: its clock before
# the limit refuses the claim, after it accepts
POSTRIDER_NOW=$((LIMIT - 600)) expect_exit 1 postrider play "$A0" "$CLAIM"
expect_grep "the other copy's clock: refused before the limit" "refused: .*too early" "$TRASH/err"
POSTRIDER_NOW=$((LIMIT + HOUR)) expect_exit 0 postrider play "$A0" "$CLAIM"
expect_grep "the other copy accepts the claim" "accepted: commit 3 of the british (claim" "$TRASH/err"
expect_eq "both copies end with the same head" \
	"$(git -C "$A0" rev-parse HEAD)" "$(git -C "$B0" rev-parse HEAD)"
expect_eq "both copies end with the same tree" \
	"$(git -C "$A0" rev-parse HEAD^{tree})" "$(git -C "$B0" rev-parse HEAD^{tree})"
expect_grep "the winner in the state" "winner: british" "$A0/state.yaml"
expect_grep "the end in the state" "end: forfeit" "$A0/state.yaml"
POSTRIDER_NOW=$((LIMIT + HOUR)) expect_exit 0 postrider peer remind "$A0"
expect_grep "remind after a claim: nothing owed" "nobody owes anything (the game is over)" "$TRASH/out"
POSTRIDER_NOW=$((LIMIT + HOUR)) expect_exit 0 postrider peer audit "$A0"
POSTRIDER_NOW=$((LIMIT + HOUR)) expect_exit 0 postrider peer audit "$B0"
expect_exit 0 "$PY" tests/verify/verify_peer.py game "$A0"
expect_grep "the Python verifier: a claimed game, the claimant's key" "a game ended by a claim" "$TRASH/out"

# forged claims, refused by the other copy's replay and changing nothing:
# the British claim dated two hours before the limit (its commit made
# again, its envelope signed again by the British), offered after the
# limit by the clock; a claim of the American, who owes the decision
"$PY" - "$CLAIM" "$SB" "$SA" "$B0" "$TRASH/early.eml" "$TRASH/owing.eml" <<'PYEOF'
import sys
sys.path.insert(0, "tests/e2e")
import peer_forge as pf
raw = open(sys.argv[1], "rb").read()
early = lambda p: p.replace("Date: Tue, 21 Nov 2023 22:13:20 +0000", "Date: Tue, 21 Nov 2023 20:13:20 +0000")
open(sys.argv[5], "wb").write(pf.forge(raw, bytes.fromhex(sys.argv[2]), edit_patch=early, repo=sys.argv[4]))
owing = lambda e: pf.set_field(e, "from", "american")
open(sys.argv[6], "wb").write(pf.forge(raw, bytes.fromhex(sys.argv[3]), edit_env=owing))
PYEOF
POSTRIDER_NOW=$((LIMIT + HOUR)) expect_exit 1 postrider play "$TRASH/alice0b" "$TRASH/early.eml"
expect_grep "a claim dated before the limit is refused by the replay" \
	"commit 3 (claim) is refused: too early" "$TRASH/err"
expect_eq "the early claim changes nothing" "$(git -C "$B0" rev-parse HEAD~1)" \
	"$(git -C "$TRASH/alice0b" rev-parse HEAD)"
POSTRIDER_NOW=$((LIMIT + HOUR)) expect_exit 1 postrider play "$TRASH/bob0b" "$TRASH/owing.eml"
expect_grep "a claim by the side that owes is refused by the replay" \
	"commit 3 (claim) is refused: the Americans owe the next commit" "$TRASH/err"
expect_eq "the owing side's claim changes nothing" "$(git -C "$B0" rev-parse HEAD~1)" \
	"$(git -C "$TRASH/bob0b" rev-parse HEAD)"

# an automatic answer owed: the limit is 7 days after the commit that
# called for it, and the copy audits with one key published
cp -a "$B" "$TRASH/bob1"
POSTRIDER_NOW=$((T0 + 7 * DAY - 1)) expect_exit 1 postrider peer claim "$TRASH/bob1"
expect_grep "an automatic answer: 7 days" "too early" "$TRASH/err"
POSTRIDER_NOW=$((T0 + 7 * DAY)) expect_exit 0 postrider peer claim "$TRASH/bob1"
expect_grep "the claim names the automatic answer owed" "which left them owing \"american shuffle 1\"" "$TRASH/bob1/log.txt"
# the American's copy had answered (its answer lost): the copies forked at
# that commit, the claim is refused and kept, nothing changes (11)
CLAIM1=$(ls -t "$(outbox "$TRASH/bob1")/new/"*-peer-* | head -n 1)
POSTRIDER_NOW=$((T0 + 7 * DAY)) expect_exit 1 postrider play "$A" "$CLAIM1"
expect_grep "a claim after a commit the other did answer is a fork" "forks the history" "$TRASH/err"
expect_eq "the forked claim changes nothing" "$HEAD_A" "$(git -C "$A" rev-parse HEAD)"
POSTRIDER_NOW=$((T0 + 7 * DAY)) expect_exit 0 postrider peer audit "$TRASH/bob1"
expect_exit 0 "$PY" tests/verify/verify_peer.py game "$TRASH/bob1"

# --- a commit that reached the silent side late -------------------------------
# the join dated T0 reaches the American's copy 3 days later (a slow mail,
# or a commit dated back): the British may claim 7 days after its date,
# the American's copy accepts the claim only 7 days after it got the join
A2=$TRASH/alice2
B2=$TRASH/bob2
postrider peer new "$A2" --me american --american "$AMERICAN" \
	--british "$BRITISH" --secret "$SA" >/dev/null 2>&1 || die "peer new"
postrider peer join "$B2" --secret "$SB" --address "$BRITISH" "$(last_mail "$A2")" >/dev/null 2>&1 || die "peer join"
POSTRIDER_NOW=$((T0 + 3 * DAY)) expect_exit 0 postrider play "$A2" "$(last_mail "$B2")"
POSTRIDER_NOW=$LIMIT expect_exit 0 postrider peer claim "$B2"
CLAIM2=$(ls -t "$(outbox "$B2")/new/"*-peer-* | head -n 1)
POSTRIDER_NOW=$((T0 + 10 * DAY - 1)) expect_exit 1 postrider play "$A2" "$CLAIM2"
expect_grep "the silent side's week counts from when his copy got the commit" \
	"too early: this copy received commit 2 only at 2023-11-17 22:13 UTC; a claim is possible from 2023-11-24 22:13 UTC" "$TRASH/err"
POSTRIDER_NOW=$((T0 + 10 * DAY)) expect_exit 0 postrider play "$A2" "$CLAIM2"
expect_eq "then the claim is accepted" "$(git -C "$B2" rev-parse HEAD)" "$(git -C "$A2" rev-parse HEAD)"

test_done
