#!/bin/sh
# make demo: a scripted opening of Washington's War, end to end.
# Creates ./demo-game (a git repository), plays the set-up and the first
# impulses of 1775 (partly as the host typing orders, partly as players
# replying to the mailed reports), and says where everything is.
set -eu
BUILD=${BUILD:-build}
P="$(pwd)/$BUILD/postrider"
G=${DEMO_DIR:-"$(pwd)/demo-game"}
export POSTRIDER_GAMES="$(pwd)/games" POSTRIDER_TEMPLATES="$(pwd)/templates"
# A fixed clock and seed make the demo the same on every machine.
export POSTRIDER_NOW=1767225600 TZ=UTC
SEED=6d616b652064656d6f2c206e6f74207761722e2e2e2e2e2e2e2e2e2e2e2e2e21

rm -rf "$G"
# The mail stays in the outbox, whatever the user's own configuration.
CFG=$(mktemp)
trap 'rm -f "$CFG"' EXIT
echo "transport: outbox" >"$CFG"
export POSTRIDER_CONFIG="$CFG"
echo "== postrider new"
"$P" new "$G" --american "Abigail <abigail@example.org>" \
	--british "Banastre <banastre@example.org>" \
	--host "The Referee <referee@example.org>" --seed "$SEED"

echo
echo "== the American places the Committees of Correspondence (host typing)"
"$P" play "$G" --as american <<'ORDER'
# one PC in each of the thirteen colonies (4.0); names by unique prefix
place Savannah
place Camden
place Charlotte
place Alexandria
place Baltimore
place Dover
place Bassett Town
place New Brunswick
place New York
place New Haven
place Providence
place Falmouth
place Norwich
ORDER

echo
echo "== the British places For The King PCs"
"$P" play "$G" --as british <<'ORDER'
place Ticonderoga
place Fort Niagara
place Long Island
ORDER

# 5.3.a: holding a campaign card, the British may declare himself first;
# like the 2009 playbook's example, he declines.
if [ "$("$P" options "$G" --plain | head -n 1)" = british ]; then
	echo
	echo "== the British holds a campaign card and declines to go first (5.3.a)"
	echo "pass" | "$P" play "$G" --as british
fi

echo
echo "== the American lets the British play first"
echo "first british" | "$P" play "$G" --as american

# From here the players answer by mail: each reply quotes the report and
# keeps its subject line, which carries the one-time token.
reply() { # reply SIDE ADDRESS NAME ORDER...
	side=$1 addr=$2 name=$3
	shift 3
	report=$(ls -t "$G/.git/postrider/outbox/new/"*"-$side."* | head -n 1)
	subject=$(sed -n 's/^Subject: //p' "$report" | head -n 1)
	msgid=$(sed -n 's/^Message-ID: //p' "$report" | head -n 1)
	{
		echo "From: $name <$addr>"
		echo "To: The Referee <referee@example.org>"
		echo "Subject: Re: $subject"
		echo "In-Reply-To: $msgid"
		echo "Message-ID: <demo.$$.$(date +%s%N)@example.org>"
		echo "Date: Thu, 01 Jan 2026 00:00:00 +0000"
		echo
		for line in "$@"; do echo "$line"; done
		echo
		echo "On 1 Jan 2026, The Referee wrote:"
		echo "> (the quoted report)"
		echo "-- "
		echo "$name"
	} >"$G.reply.eml"
	echo
	echo "== $name replies by mail: $*"
	"$P" play "$G" "$G.reply.eml"
	rm -f "$G.reply.eml"
}

play_first() { # the first legal card play of SIDE, as a mail reply
	side=$1 addr=$2 name=$3
	order=$("$P" options "$G" --plain | sed -n 2p)
	case $order in
	pc*)
		# The order ends after the card: the PC prompt stays pending and
		# the next reply answers it, one placement per line.
		reply "$side" "$addr" "$name" "$order"
		while [ "$("$P" options "$G" --plain | head -n 1)" = "$side" ] &&
			"$P" options "$G" --plain | sed -n 2p | grep -q '^place'; do
			reply "$side" "$addr" "$name" "$("$P" options "$G" --plain | sed -n 2p)"
		done
		if [ "$("$P" options "$G" --plain | head -n 1)" = "$side" ]; then
			reply "$side" "$addr" "$name" done
		fi ;;
	discard*) reply "$side" "$addr" "$name" "$order" pass ;;
	*) reply "$side" "$addr" "$name" "$order" ;;
	esac
}

for i in 1 2; do
	for who in british american; do
		side=$("$P" options "$G" --plain | head -n 1)
		case $side in
		british) play_first british banastre@example.org Banastre ;;
		american) play_first american abigail@example.org Abigail ;;
		*) break ;;
		esac
		# an exchange offer: decline it
		if "$P" options "$G" --plain | grep -qx pass; then
			side=$("$P" options "$G" --plain | head -n 1)
			echo pass | "$P" play "$G" --as "$side"
		fi
	done
done

echo
echo "== the game so far"
"$P" show "$G" --as american | head -n 24
echo
echo "== git history"
git -C "$G" log --oneline | head -n 12
echo
echo "The game repository is $G"
echo "Its outbox (ready-to-send mail, one file per message) is $G/.git/postrider/outbox/new"
echo "Try: git -C demo-game log -p -2; $BUILD/postrider log demo-game; $BUILD/postrider options demo-game"
