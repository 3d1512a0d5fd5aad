#!/bin/sh
#
# The bash completion (contrib/postrider.bash-completion) offers every
# command and, for each, every option its --help names; `data` completes
# its actions. Run in bash itself, as a user's shell would.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

C=contrib/postrider.bash-completion
command -v bash >/dev/null || die "bash is needed to test the bash completion"

# complete WORDS...: what the completion offers for the last word
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _postrider
		printf "%s\n" "${COMPREPLY[@]}"' sh "$C" postrider "$@"
}

postrider --help 2>&1 | awk '/^  [a-z]/ { print $1 }' | sort -u >"$TRASH/commands"
[ -s "$TRASH/commands" ] || die "postrider --help lists the commands"
complete_words "" | sort -u >"$TRASH/offered"
missing=$(comm -23 "$TRASH/commands" "$TRASH/offered" | tr '\n' ' ')
expect_eq "every command is offered" "" "$missing"

while read -r c; do
	postrider "$c" --help 2>&1 | grep -o -- '--[a-z][a-z-]*' | grep -v -- '--help' |
		sort -u >"$TRASH/want"
	complete_words "$c" "--" | sort -u >"$TRASH/got"
	missing=$(comm -23 "$TRASH/want" "$TRASH/got" | tr '\n' ' ')
	expect_eq "'$c': every option of its --help is offered" "" "$missing"
done <"$TRASH/commands"

expect_eq "'data' completes its actions" "import sheet" \
	"$(complete_words data "" | sort | tr '\n' ' ' | sed 's/ $//')"
expect_eq "'--as' completes the sides" "american british" \
	"$(complete_words play --as "" | sort | tr '\n' ' ' | sed 's/ $//')"

test_done
