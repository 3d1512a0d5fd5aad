#!/bin/sh
#
# Orders the host cannot forge (issue 44, docs/fairness.md 22): each
# player's mail is signed by his "provider" (tests/e2e/dkim_sign.py with
# keys made here, Ed25519 for the American's domain, RSA for the
# British's) and its key records come from a key file, never the network.
# Orders come signed, unsigned, typed by the host and signed-then-changed
# (the body, From, a signed header); the record of each, the reports'
# lines, the audit's counts before and after the reveal, the sealed kept
# mails (no byte of them reaches the opponent while the game runs), the
# Python verifier, a kept mail changed by the host, DMARC enforcement and
# the host MTA's Authentication-Results.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

K=$TRASH/keys
mkdir -p "$K"
openssl genpkey -algorithm ed25519 -out "$K/a.pem" 2>/dev/null || die "openssl ed25519"
openssl genpkey -algorithm rsa -pkeyopt rsa_keygen_bits:2048 -out "$K/b.pem" 2>/dev/null ||
	die "openssl rsa"
A_PUB=$(openssl pkey -in "$K/a.pem" -pubout -outform DER | tail -c 32 | base64 -w0)
B_PUB=$(openssl pkey -in "$K/b.pem" -pubout -outform DER | base64 -w0)
cat >"$K/records" <<EOF
# the DNS of the test: selector._domainkey.domain, then the TXT record
sel1._domainkey.a.example v=DKIM1; k=ed25519; p=$A_PUB
mx._domainkey.b.example v=DKIM1; k=rsa; p=$B_PUB
EOF
cat >"$TRASH/config.yaml" <<EOF
transport: outbox
dkim:
  keys: $K/records
EOF
export POSTRIDER_CONFIG="$TRASH/config.yaml"
AM="Abigail <abigail@a.example>"
BR="Banastre <banastre@b.example>"
SIGN="$PY tests/e2e/dkim_sign.py"

# newgame DIR: a game between the two domains
newgame() {
	postrider new "$1" --american "$AM" --british "$BR" --host "$HOST" --seed "$SEED" \
		>"$TRASH/new.out" 2>&1 || die "new: $(cat "$TRASH/new.out")"
}

# mail G KIND NOTE: the mail of the side to move in G, replying to his
# last report with the first legal order, written to $TRASH/mail.eml, of
# KIND: signed, unsigned, body (signed, then a word of it changed), from
# (signed, then the From's name changed), subject (signed, then the
# Subject changed). NOTE goes into the quoted text: a private note.
n_mail=0
mail() {
	_side=$(prompt_side "$1")
	n_mail=$((n_mail + 1))
	postrider options "$1" --plain | sed -n 2p >"$TRASH/order"
	if [ "$_side" = american ]; then _from=$AM; _key=$K/a.pem; _d=a.example; _s=sel1
	else _from=$BR; _key=$K/b.pem; _d=b.example; _s=mx; fi
	reply_mail "$(report_for "$1" "$_side")" "$_from" "$(cat "$TRASH/order")" \
		"<m$n_mail.$_side@$_d>" | sed "/^On Tue, /a > private note: $3" >"$TRASH/plain.eml"
	case $2 in
	unsigned) cp "$TRASH/plain.eml" "$TRASH/mail.eml" ;;
	signed) $SIGN "$_key" "$_d" "$_s" <"$TRASH/plain.eml" >"$TRASH/mail.eml" ;;
	envelope) { echo "From ${_from#*<} Wed Nov 15 09:30:00 2023" | tr -d '>'
		$SIGN "$_key" "$_d" "$_s" <"$TRASH/plain.eml"; } >"$TRASH/mail.eml" ;;
	length) $SIGN "$_key" "$_d" "$_s" --canon simple/simple --length \
		<"$TRASH/plain.eml" >"$TRASH/mail.eml" ;;
	body) $SIGN "$_key" "$_d" "$_s" <"$TRASH/plain.eml" |
		sed 's/^sent from a test$/sent from a tent/' >"$TRASH/mail.eml" ;;
	from) $SIGN "$_key" "$_d" "$_s" <"$TRASH/plain.eml" |
		sed 's/^From: Abigail/From: Abigale/; s/^From: Banastre/From: Banastra/' >"$TRASH/mail.eml" ;;
	subject) $SIGN "$_key" "$_d" "$_s" <"$TRASH/plain.eml" |
		sed 's/^Subject: Re: /Subject: RE: /' >"$TRASH/mail.eml" ;;
	esac
}

# play_mail G KIND NOTE: the mail played; exit 0
play_mail() {
	mail "$@"
	expect_exit 0 postrider play "$1" "$TRASH/mail.eml"
}

# record G: the record the last commit added (mail/NNNN-SIDE.txt)
record() {
	_p=$(git -C "$1" show --name-only --format= HEAD | grep '^mail/')
	[ -n "$_p" ] && git -C "$1" show "HEAD:$_p"
}

G=$TRASH/game
newgame "$G"

# 1. signed by the American's provider (Ed25519, relaxed), handed over
# with an mbox envelope line as procmail does
play_mail "$G" envelope "zqxa1"
record "$G" >"$TRASH/rec"
expect_grep "a signed order: its record says pass a.example" '^result pass a.example$' "$TRASH/rec"
expect_grep "its signature line" '^signature 1 pass d=a.example s=sel1 a=ed25519-sha256 c=relaxed/relaxed$' \
	"$TRASH/rec"
expect_grep "the key as fetched is kept" "^key sel1._domainkey.a.example v=DKIM1; k=ed25519; p=$A_PUB\$" \
	"$TRASH/rec"
expect_grep "and a commitment to the kept mail" '^kept [0-9a-f]\{64\}$' "$TRASH/rec"
expect_no_grep "the British report says nothing of a signed order" \
	'nothing proves' "$(report_for "$G" british)"

# 2. the American unsigned
play_mail "$G" unsigned "zqxa2"
record "$G" >"$TRASH/rec"
expect_grep "an unsigned mail: result none" '^result none$' "$TRASH/rec"
mail_part "$(report_for "$G" british)" text/plain >"$TRASH/br.txt"
expect_grep "the British report says it was not signed" \
	'^Order 2 of the American came by mail without a valid signature of his mail provider (DKIM: none): nothing proves who sent it.$' \
	"$TRASH/br.txt"
mail_part "$(report_for "$G" american)" text/plain >"$TRASH/am.txt"
expect_no_grep "the American's own report does not" 'nothing proves' "$TRASH/am.txt"

# 3-5. signed, then changed on the way: the body, From, a signed header
play_mail "$G" body "zqxa3"
record "$G" >"$TRASH/rec"
expect_grep "a changed body: fail" '^result fail$' "$TRASH/rec"
expect_grep "the body hash named" '^signature 1 fail d=a.example .*body hash does not match' "$TRASH/rec"
mail_part "$(report_for "$G" british)" text/plain >"$TRASH/br.txt"
expect_grep "the British report names order 3" \
	'^Order 3 of the American came by mail without a valid signature of his mail provider (DKIM: fail)' \
	"$TRASH/br.txt"
play_mail "$G" from "zqxa4"
record "$G" >"$TRASH/rec"
expect_grep "a changed From: fail, the signature does not verify" \
	'^signature 1 fail d=a.example .*does not verify' "$TRASH/rec"
play_mail "$G" subject "zqxa5"
record "$G" >"$TRASH/rec"
expect_grep "a changed Subject: fail" '^signature 1 fail d=a.example .*does not verify' "$TRASH/rec"

# 6. the host types the American's orders until the British is to move
typed=0
while [ "$(prompt_side "$G")" = american ]; do
	play_first_legal "$G"
	typed=$((typed + 1))
done
expect_eq "a typed order has no mail record" "" "$(record "$G")"
mail_part "$(report_for "$G" british)" text/plain >"$TRASH/br.txt"
expect_grep "the British report says the host typed it (fairness.md 16c)" \
	"^Typed by the host (play --as american), not sent by the American by mail.\$" \
	"$TRASH/br.txt"
expect_no_grep "and no second line of this feature says so" "Order $(state_field "$G" seq) of the American" \
	"$TRASH/br.txt"

# 7. signed by the British's provider (RSA, simple, l=)
play_mail "$G" length "zqxb1"
record "$G" >"$TRASH/rec"
expect_grep "RSA, simple/simple, l=: pass b.example" '^result pass b.example$' "$TRASH/rec"
expect_grep "its signature line" '^signature 1 pass d=b.example s=mx a=rsa-sha256 c=simple/simple$' \
	"$TRASH/rec"

# Hidden information: no byte of a kept mail reaches the opponent while
# the game runs: the private notes (and the quoted hands) are in no object
# of the repository, and in no mail of the outbox; the kept mails are the
# host's, mode 0600 under a 0700 folder.
git -C "$G" cat-file --batch-all-objects --batch >"$TRASH/objects"
expect_no_grep "no private note in any git object" 'zqx[ab][0-9]' "$TRASH/objects"
expect_no_grep "no quoted hand in any git object" '^> Your hand' "$TRASH/objects"
cat "$(outbox "$G")"/new/* >"$TRASH/allmail"
expect_no_grep "no private note in any mail" 'zqx[ab][0-9]' "$TRASH/allmail"
expect_eq "the kept mails are the host's" 6 "$(ls "$G/.git/postrider/mail" | grep -c '\.eml$')"
expect_grep "a kept mail holds its note" 'zqxa1' "$G/.git/postrider/mail/0001-american.eml"
expect_no_grep "a kept mail drops the trace fields" '^User-Agent:' \
	"$G/.git/postrider/mail/0001-american.eml"

# The audit of a player's clone (no seed): counts, the kept mails sealed
git clone -q "$G" "$TRASH/clone"
expect_exit 4 postrider audit "$TRASH/clone"
expect_grep "the clone's audit counts the American's orders" \
	"^senders: the American: 1 order by mail signed by a.example, 4 by mail without that signature, $typed typed by the host\$" \
	"$TRASH/out"
expect_grep "and the British's" \
	'^senders: the British: 1 order by mail signed by b.example, 0 by mail without that signature, 0 typed by the host$' \
	"$TRASH/out"
expect_grep "it names the order whose body was changed" \
	'^senders: order 3 (American) came by mail without a valid signature of a.example: fail (the body hash does not match' \
	"$TRASH/out"
expect_grep "the kept mails stay sealed" '^senders: 6 kept mails stay sealed until the reveal' "$TRASH/out"

# The host's audit reads his kept mails: each checked again
expect_exit 4 postrider audit "$G"
expect_grep "the host's audit checks the kept mails" '^senders: 6 kept mails checked again' "$TRASH/out"
# a kept mail the host changed is named
cp "$G/.git/postrider/mail/0002-american.eml" "$TRASH/saved.eml"
printf 'x' >>"$G/.git/postrider/mail/0002-american.eml"
expect_exit 1 postrider audit "$G"
expect_grep "a changed kept mail is named" 'order 2 (American): the kept mail is not the one its record commits to' \
	"$TRASH/out"
cp "$TRASH/saved.eml" "$G/.git/postrider/mail/0002-american.eml"

# The reveal publishes the kept mails; then every one is checked by anyone
expect_exit 0 postrider reveal --abandon "$G"
expect_eq "the reveal commits the kept mails" 6 \
	"$(git -C "$G" show --name-only --format= HEAD | grep -c '^mail/.*\.eml$')"
git -C "$TRASH/clone" pull -q
expect_exit 4 postrider audit "$TRASH/clone"
expect_grep "after the reveal the clone checks every kept mail" \
	'^senders: 6 kept mails checked again' "$TRASH/out"
expect_eq "the audit of a clone makes no folder of kept mails" "" \
	"$(ls -d "$TRASH/clone/.git/postrider/mail" 2>/dev/null)"
expect_exit 0 "$PY" tests/verify/verify_dkim.py game "$TRASH/clone"
expect_grep "the Python verifier agrees" '^verified: 6 kept mails checked again$' "$TRASH/out"
expect_grep "and counts as the audit does" \
	"^american: 1 by mail signed by his domain, 4 without that signature, $typed typed by the host\$" \
	"$TRASH/out"
expect_exit 0 "$PY" tests/verify/verify_dkim.py --vectors
# the Python verifier names a kept mail changed after the fact
git -C "$G" show HEAD:mail/0001-american.txt >"$TRASH/r1"
git -C "$G" show HEAD:mail/0001-american.eml | sed 's/^sent from a test/sent from a tent/' >"$TRASH/m1"
expect_exit 1 "$PY" tests/verify/verify_dkim.py check "$TRASH/r1" "$TRASH/m1"
expect_grep "a changed body is named" 'the signatures checked again give' "$TRASH/out"
# and a history whose published kept mail was changed fails the audit
git clone -q "$TRASH/clone" "$TRASH/forged"
git -C "$TRASH/forged" show HEAD:mail/0001-american.eml | sed 's/^sent from a test/sent from a tent/' \
	>"$TRASH/forged/mail/0001-american.eml"
git -C "$TRASH/forged" -c user.name=h -c user.email=h@x commit -q --amend -a --no-edit
expect_exit 1 postrider audit "$TRASH/forged"
expect_grep "the audit names the forged kept mail" 'order 1 (American): the kept mail is not the one its record commits to' \
	"$TRASH/out"

# By difference: two games alike but for the American's private notes
# (one long, one short): every mail the British receives has the same
# size in both, and every file of the history but the records' kept lines
# (a fixed-length salted hash) is the same.
for g in d1 d2; do
	newgame "$TRASH/$g"
	for i in 1 2 3 4; do
		if [ "$(prompt_side "$TRASH/$g")" = american ]; then
			[ $g = d1 ] && note="short" || note="a much longer private note, of many words, $i"
		else
			note="same"
		fi
		n_mail=0
		play_mail "$TRASH/$g" signed "$note"
	done
	for f in "$(outbox "$TRASH/$g")"/new/*british*; do
		echo "$(basename "$f" | cut -d- -f2) $(wc -c <"$f")"
	done | sort >"$TRASH/$g.sizes"
	git -C "$TRASH/$g" ls-tree -r HEAD | awk '{print $4}' | while read -r p; do
		git -C "$TRASH/$g" show "HEAD:$p" | sed 's/^kept [0-9a-f]*$/kept HASH/'
	done >"$TRASH/$g.files"
done
expect_file_eq "the British's mails are the same sizes" "$TRASH/d1.sizes" "$TRASH/d2.sizes"
expect_file_eq "the public files differ only in the commitments" "$TRASH/d1.files" "$TRASH/d2.files"

# DMARC enforced: a mail claiming a strict domain without its signature
# is not the player's (no reply); DNS down: try later; with the host
# MTA's trusted Authentication-Results, the topmost alone counts
G2=$TRASH/game2
cat >"$TRASH/dmarc.yaml" <<EOF
transport: outbox
dkim:
  keys: $K/records2
  dmarc: enforce
  trust_authserv_id: mx.host.example
EOF
{ cat "$K/records"; echo "_dmarc.a.example v=DMARC1; p=reject"; } >"$K/records2"
POSTRIDER_CONFIG="$TRASH/dmarc.yaml"
newgame "$G2"
mail "$G2" unsigned "n"
outbox_list "$G2" >"$TRASH/ob"
snapshot "$G2" before
expect_exit 1 postrider play "$G2" "$TRASH/mail.eml"
expect_grep "an unsigned mail of a p=reject domain is refused" 'p=reject, but carries no valid DKIM signature' \
	"$TRASH/err"
expect_unchanged "the game is unchanged" "$G2" before
expect_eq "and no reply is sent" "" "$(outbox_added "$G2" "$TRASH/ob")"
mail "$G2" body "n"
expect_exit 1 postrider play "$G2" "$TRASH/mail.eml"
# the key cannot be fetched: with p=reject, try later (75)
sed 's/^sel1._domainkey.a.example .*/sel1._domainkey.a.example !temperror/' "$K/records2" >"$K/r3"
mv "$K/r3" "$K/records2"
mail "$G2" signed "n"
expect_exit 75 postrider play "$G2" "$TRASH/mail.eml"
# the trusted MTA said pass (topmost); a forged pass below it counts not
{ echo "Authentication-Results: mx.host.example; dkim=fail header.d=a.example"
  echo "Authentication-Results: mx.host.example; dkim=pass header.d=a.example"
  cat "$TRASH/mail.eml"; } >"$TRASH/ar-forged.eml"
expect_exit 75 postrider play "$G2" "$TRASH/ar-forged.eml"
{ echo "Authentication-Results: mx.host.example; dkim=pass header.d=a.example header.s=sel1"
  cat "$TRASH/mail.eml"; } >"$TRASH/ar.eml"
expect_exit 0 postrider play "$G2" "$TRASH/ar.eml"
record "$G2" >"$TRASH/rec"
expect_grep "the MTA's pass is recorded as such" '^result pass-mta a.example$' "$TRASH/rec"
expect_grep "with its header" '^authentication-results mx.host.example; dkim=pass header.d=a.example' "$TRASH/rec"
expect_grep "and the key that could not be fetched" '^key sel1._domainkey.a.example (temporary failure)$' \
	"$TRASH/rec"
# not enforced: DNS down never refuses an order
sed 's/^sel1._domainkey.a.example .*/sel1._domainkey.a.example !temperror/' "$K/records" >"$K/r4"
printf 'transport: outbox\ndkim:\n  keys: %s\n' "$K/r4" >"$TRASH/soft.yaml"
POSTRIDER_CONFIG="$TRASH/soft.yaml"
play_mail "$G2" signed "n"
record "$G2" >"$TRASH/rec"
expect_grep "DNS down: the order counts, its record says temperror" '^result temperror$' "$TRASH/rec"

test_done
