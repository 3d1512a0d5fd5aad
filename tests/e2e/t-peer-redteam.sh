#!/bin/sh
#
# Issue 34: the dishonest player of a peer game (docs/peer.md 8.3, 11, 14
# and beyond). The American cheats with his own secret: he changes what
# his postrider mails and signs it again (tests/e2e/redteam-attack.py);
# every attack is offered to a copy of the British's copy, and must be
# refused with a reason and change nothing. An attack that the British's
# postrider takes is a FAILED test here, and a finding (what it breaks:
# the test's message). Then two games that differ only in the British's
# secret must look the same from the American's copy
# (tests/e2e/redteam-diff.py).

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

A=$TRASH/alice
B=$TRASH/bob
peer_pair "$A" "$B"
postrider play "$A" "$(ls "$(outbox "$B")/new/"*-peer-*)" >/dev/null 2>&1 || die "the join was refused"
mkdir "$TRASH/work"
"$PY" tests/e2e/redteam-attack.py "$A" "$B" "$SA" "$SB" "$TRASH/work" \
	>"$TRASH/attacks.out" 2>"$TRASH/attacks.err"
tail -n 3 "$TRASH/attacks.err" | sed 's/^/# /'
tail -n 1 "$TRASH/attacks.out" | sed 's/^/# /'

# refused NAME REASON WHAT-IT-BREAKS: the attack NAME was refused (exit 1)
# with REASON in its message (any reason: ""), not for a fault of the
# forger's making (a patch or commit id the forger got wrong), and the
# victim's copy did not change
refused() {
	_name=$1 _reason=$2 _breaks=$3
	_line=$(grep "^$_name|" "$TRASH/attacks.out" | head -n 1)
	if [ -z "$_line" ]; then
		fail "$_name: tried" "the game never gave the chance (see attacks.out)"
		return
	fi
	_rc=$(echo "$_line" | cut -d'|' -f2)
	_same=$(echo "$_line" | cut -d'|' -f3)
	_said=$(echo "$_line" | cut -d'|' -f4-)
	if [ "$_rc" != 1 ] || [ "$_same" != yes ]; then
		fail "$_name: refused, nothing changed" "ATTACK SUCCEEDS: $_breaks" \
			"exit $_rc, victim's copy unchanged: $_same" "victim said: $_said"
		return
	fi
	case "$_name:$_said" in
	commit-out-of-turn:*"is not the patch of commit"* | order-relabelled-end:*"is not the patch of commit"* | \
	*-dated-commit:*"is not the patch of commit"* | *:*"the same facts give"*)
		fail "$_name: refused for what it is" \
			"the forged mail was refused for the forger's own mistake: the attack was not tried" \
			"victim said: $_said"
		return ;;
	esac
	ok "$_name: refused, nothing changed"
	case "$_said" in
	*$_reason*) ok "$_name: the reason says '$_reason'" ;;
	*) fail "$_name: the reason" "expected: $_reason" "actual: $_said" ;;
	esac
}

# --- what the replay refuses today -----------------------------------------------
refused envelope-of-another-game "the mail is for game" \
	"a mail of another game changes this one"
refused seq-skipped "follows the head" "a commit with a wrong seq is taken"
refused huge-mail "larger than" "a mail over the size limit is read"
refused order-out-of-turn "the British's, not yours" \
	"the American orders while the British decides"
refused second-join "forks the history" "the British joins twice with other keys"
refused shuffle-short-by-one "peer/shuffles/" "a shuffle of n-1 cards is taken"
refused shuffle-count-huge "a bad cards line" "a shuffle of 99999 cards is read"
refused share-of-a-deck-slot "did not call for" \
	"a share of a slot still in the deck is taken"
refused dice-given-twice "dice no request called for" "dice given twice are taken"
refused sealed-line-changed "committed to before the dice" \
	"a sealed line of the American's order is shown changed after the dice, and taken (6.4)"

# --- a request whose own die proof is missing or wrong (5.1, 8.3 step 6) -------
refused request-without-proof "die proof" \
	"the British's copy takes a request with no die proof of the American in its envelope, then cannot answer it (exit 75, and 'already applied' on every retry): the record says the British owes the dice, so the American may claim the game by forfeit (11) though he is the one at fault"
refused request-wrong-proof "die proof" \
	"a request whose envelope's die proof does not verify is taken; the British cannot answer and is recorded as owing the dice (the same forfeit)"
refused request-proof-for-another-commit "die proof" \
	"a request whose die proof names another commit is taken; the British is stuck and recorded as owing the dice"

# --- commits the rules do not give -----------------------------------------------
refused commit-out-of-turn "owes nothing" \
	"the American mails an empty commit of kind answer while the British decides: it is taken, moves the head and its date (the British's deadline counts again) and makes the British's order in flight a fork"
refused order-relabelled-end "owes nothing" \
	"an order mailed with kind end (the game is not over) is taken as an empty commit of kind end: the order is not run, and the record holds an end in the middle of the game"
refused backdated-commit "before its parent" \
	"a commit dated 30 days before its parent is taken: the dates of section 11 (who is late, since when, the forfeit limit) are the cheater's to choose"
refused future-dated-commit "after this machine's clock" \
	"a commit dated 30 days ahead is taken: the British seems late by a month less, the American's own silence is hidden"

# --- and peer audit, run on a copy that took one of them, must see it -----------------
for _name in commit-out-of-turn order-relabelled-end backdated-commit \
	future-dated-commit; do
	grep -q "^$_name|[0-9]*|no|" "$TRASH/attacks.out" || continue
	if postrider peer audit "$TRASH/work/victim-$_name" >"$TRASH/audit.out" 2>&1; then
		fail "peer audit finds the commit that $_name left in the copy" \
			"ATTACK UNSEEN: peer audit passes the copy: $(tr '\n' ' ' <"$TRASH/audit.out")"
	else
		ok "peer audit finds the commit that $_name left in the copy"
	fi
done

# --- the patch is the commit's (8.3 steps 5 and 7) ----------------------------------
refused same-commit-patch-adds-files "patch" \
	"the mail's patch adds game.yaml lines, a symlink, ../evil and .git/hooks/post-commit beside the true commit, and it is taken: the mail kept as the evidence of the game is not the commit (a reader who applies it with git am gets another game)"

# --- a true mail relayed by a stranger: only the signature counts ---------------------
_line=$(grep "^stranger-relays-a-true-mail|" "$TRASH/attacks.out")
expect_eq "a true mail from a stranger's address is the opponent's commit" "0" \
	"$(echo "$_line" | cut -d'|' -f2)"
case "$_line" in
*"mailed to mallory"*) fail "the answer goes to the game's address" "it went to the stranger" ;;
*) ok "the answer goes to the game's address, not to the stranger" ;;
esac

# --- an honest order whose comments look like the protocol's marks (6.4) ------------
# honest NAME WHAT-IT-BREAKS: the other copy takes the order, both heads agree
honest() {
	_line=$(grep "^$1|" "$TRASH/attacks.out" | head -n 1)
	case "$_line" in
	"")
		fail "$1: tried" "the game never gave the chance" ;;
	"$1|0|"*"heads agree")
		ok "$1: the other copy takes it, both heads agree" ;;
	*)
		fail "$1: the other copy takes it, both heads agree" "ORDER LOST: $2" \
			"what happened: $(echo "$_line" | cut -d'|' -f2-)" ;;
	esac
}
honest order-with-a-sealed-comment \
	"the American's own postrider commits and mails an order with the comment line '# (a line sealed until it runs or the game ends)'; the British's replay takes it for sealed lines and refuses it: the copies part for good (every later commit of the American has an unknown parent)"
honest order-with-a-salt-comment \
	"an order with the comment '# salt 00' is committed by its own postrider and refused by the other"

# --- a stranger who saw the invitation joins first -------------------------------------
_line=$(grep "^stranger-joins-first|" "$TRASH/attacks.out")
expect_eq "a join from anybody is taken (the mail's address is no proof)" "0" \
	"$(echo "$_line" | cut -d'|' -f2)"
case "$_line" in
*"fingerprint is shown"*) ok "the inviter is told the joiner's fingerprint when the join is taken" ;;
*) fail "the inviter is told the joiner's fingerprint when the join is taken" \
	"ATTACK SUCCEEDS: a stranger who saw the invitation joins as the British from his own address; the inviter's postrider says only 'the british joined', and the true British is then refused as a fork: the inviter has no fingerprint to compare unless he thinks of 'peer status' (9.1 gives the joiner the inviter's, not the other way)" \
	"what happened: $(echo "$_line" | cut -d'|' -f2-)" ;;
esac

# --- the inviter's own rules: an invitation with altered data (6.1, 9.1) -------------
# The American makes the game with a data set of his own (every 1-OPS card
# worth 3 OPS); the British joins with the rules he has installed. The join
# must not go through silently.
cp -r games/washingtons-war "$TRASH/evdata"
sed 's/{number: \([0-9]*\), ops: 1,/{number: \1, ops: 3,/' games/washingtons-war/cards.yaml \
	>"$TRASH/evdata/cards.yaml"
postrider peer new "$TRASH/ev-a" --me american --american "$AMERICAN" --british "$BRITISH" \
	--secret "$SA" --data "$TRASH/evdata" >/dev/null 2>&1 || die "peer new with other data"
postrider peer join "$TRASH/ev-b" --secret "$SB" --address "$BRITISH" "$(ls "$(outbox "$TRASH/ev-a")/new/"*-peer-*)" \
	>"$TRASH/ev.out" 2>&1
_rc=$?
if [ $_rc -ne 0 ] && [ ! -e "$TRASH/ev-b/game.yaml" ]; then
	ok "a join to a game whose data is not the joiner's is refused"
elif sed "s|$TRASH||g" "$TRASH/ev.out" | grep -qi "data"; then
	ok "a join to a game whose data is not the joiner's says so"
else
	fail "a join to a game whose data is not the joiner's is refused, or says so" \
		"ATTACK SUCCEEDS: the inviter made the game with his own data (every 1-OPS card worth 3 OPS, data_hash $(sed -n 's/^data_hash: //p' "$TRASH/ev-b/game.yaml")); 'peer join' took it (exit $_rc) and said nothing of the data: the inviter chooses the rules, and the joiner's postrider replays every commit with them" \
		"peer join said: $(tr '\n' ' ' <"$TRASH/ev.out")"
fi

# --- the inviter's own address for the British (6.1, 8.4, 8.5) ------------------------
# The American writes the invitation with his own mailbox as the British's
# address and forwards it to Bob, who joins. Bob's postrider then writes
# Bob's reports (his hand, the legal orders, the reply token) to that
# address, and takes orders from it.
postrider peer new "$TRASH/sp-a" --me american --american "$AMERICAN" \
	--british "Bob <spy@evil.example>" --secret "$SA" >/dev/null 2>&1 || die "peer new (spy)"
postrider peer join "$TRASH/sp-b" --secret "$SB" --address "$BRITISH" "$(ls "$(outbox "$TRASH/sp-a")/new/"*-peer-*)" \
	>"$TRASH/sp.out" 2>&1
_rc=$?
if [ $_rc -ne 0 ] && grep -q "gives the british the address spy@evil.example, not yours (bob@example.org)" "$TRASH/sp.out" &&
	[ ! -e "$TRASH/sp-b" ]; then
	ok "peer join refuses an invitation that gives the joiner's side another address than his own, and makes no copy"
else
	fail "peer join refuses an invitation that gives the joiner's side another address than his own, and makes no copy" \
		"ATTACK SUCCEEDS: the invitation names spy@evil.example as the British's address; 'peer join' (exit $_rc) takes it" \
		"peer join said: $(tr '\n' ' ' <"$TRASH/sp.out")"
fi
# Had the join been taken (the check above failing), what the spy gets:
if [ -e "$TRASH/sp-b/game.yaml" ]; then
	postrider play "$TRASH/sp-a" "$(ls "$(outbox "$TRASH/sp-b")/new/"*-peer-*)" >/dev/null 2>&1
	# the American plays his set-up until the British decides; each mail
	# is given to the other copy
	: >"$TRASH/sp.sent"
	for _i in $(seq 40); do
		for _c in sp-a sp-b; do
			[ $_c = sp-a ] && _o=sp-b || _o=sp-a
			for _m in $(ls -tr "$(outbox "$TRASH/$_c")/new/" | grep -- -peer-); do
				grep -qx "$_c/$_m" "$TRASH/sp.sent" && continue
				echo "$_c/$_m" >>"$TRASH/sp.sent"
				postrider play "$TRASH/$_o" "$(outbox "$TRASH/$_c")/new/$_m" >/dev/null 2>&1
			done
		done
		_w=$(postrider peer status "$TRASH/sp-b" | sed -n 's/^waits: //p')
		[ "$_w" = "american decision" ] || break
		postrider play "$TRASH/sp-a" --as american - >/dev/null 2>&1 <<-EOF
		$(postrider options "$TRASH/sp-a" --plain | sed -n 2p)
		EOF
	done
	# the newest report: the one whose token is due
	_rep=$(ls -t "$(outbox "$TRASH/sp-b")/new/"*-report-* 2>/dev/null | head -n 1)
	grep -q "^To: .*spy@evil.example" "$_rep" 2>/dev/null || _rep=
	if [ -n "$_rep" ] && grep -q "^Your hand" "$_rep"; then
		fail "the British's reports (his hand) go only to the British" \
			"ATTACK SUCCEEDS: the British's postrider mails his hand and reply token to the address the inviter chose: $(grep -m1 '^To:' "$_rep")"
	else
		ok "the British's reports (his hand) go only to the British"
	fi
	if [ -n "$_rep" ] && [ "$(postrider peer status "$TRASH/sp-b" | sed -n 's/^waits: //p')" = "british decision" ]; then
		_subj=$(sed -n 's/^Subject: //p' "$_rep" | head -n 1)
		_order=$(postrider options "$TRASH/sp-b" --plain | sed -n 2p)
		printf 'From: Mallory <spy@evil.example>\nTo: Bob <bob@example.org>\nSubject: Re: %s\nMessage-ID: <m1@evil.example>\n\n%s\n' \
			"$_subj" "$_order" >"$TRASH/spy-order.eml"
		_head=$(git -C "$TRASH/sp-b" rev-parse HEAD)
		postrider play "$TRASH/sp-b" "$TRASH/spy-order.eml" >"$TRASH/spy.out" 2>&1
		if [ "$(git -C "$TRASH/sp-b" rev-parse HEAD)" = "$_head" ]; then
			ok "an order mailed by the inviter's spy address is not the British's"
		else
			fail "an order mailed by the inviter's spy address is not the British's" \
				"ATTACK SUCCEEDS: with the token of the leaked report, the American plays the British's order '$_order' from spy@evil.example: $(tr '\n' ' ' <"$TRASH/spy.out")"
		fi
	fi
fi

# --- nothing the American sees depends on the British's secret (10) ------------------
SB2=5555555555555555555555555555555555555555555555555555555555555555
for g in 1 2; do
	if [ $g = 1 ]; then _sb=$SB; else _sb=$SB2; fi
	postrider peer new "$TRASH/a$g" --me american --american "$AMERICAN" \
		--british "$BRITISH" --secret "$SA" >/dev/null 2>&1 || die "peer new $g"
	postrider peer join "$TRASH/b$g" --secret "$_sb" --address "$BRITISH" "$(ls "$(outbox "$TRASH/a$g")/new/"*-peer-*)" \
		>/dev/null 2>&1 || die "peer join $g"
	postrider play "$TRASH/a$g" "$(ls "$(outbox "$TRASH/b$g")/new/"*-peer-*)" >/dev/null 2>&1 ||
		die "join $g refused"
done
"$PY" tests/e2e/redteam-diff.py "$TRASH/a1" "$TRASH/b1" "$TRASH/a2" "$TRASH/b2" 60 \
	>"$TRASH/diff.out" 2>&1
sed 's/^/# /' "$TRASH/diff.out"
expect_grep "the American's copy, mails and status are the same whatever the British's secret" \
	"^same after [1-9][0-9]* orders" "$TRASH/diff.out"

test_done
