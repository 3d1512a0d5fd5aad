#!/bin/sh
#
# Issue 39, item 6: a game's files are writable by their owner alone,
# whatever the host's umask, as git's core.sharedRepository = 0644 would
# make them: under umask 000 .git/config, the refs and the hooks used to be
# world-writable (anyone on the machine could point the branch elsewhere
# or add a hook), and `doctor` said nothing. Now `new`, `play` and the
# rest create nothing that others can write, the repository says
# core.sharedRepository = 0644 for the git commands the host runs on it,
# and `doctor` names a game, or a secret, that others can write.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh

# writable_by_others DIR: the files and folders under DIR (not the
# symbolic links) that the group or others may write
writable_by_others() {
	find "$1" ! -type l -perm /022 | sed "s|^$1|.|" | sort
}

G=$TRASH/g
(
	umask 000
	new_game "$G"
	play_first_legal "$G"
	postrider show "$G" --as american >/dev/null
) || die "a game under umask 000"
expect_eq "under umask 000, nothing of the game is writable by others" "" "$(writable_by_others "$G")"
for f in .git/config .git/HEAD .git/refs/heads/main .git/hooks .git/objects; do
	if [ -e "$G/$f" ]; then
		expect_eq "$f is its owner's to write" "" "$(find "$G/$f" -maxdepth 0 -perm /022)"
	fi
done
expect_eq "the repository says so to git (core.sharedRepository)" 0644 \
	"$(git -C "$G" config core.sharedRepository)"
expect_eq "the secret is the owner's alone" 600 "$(stat -c %a "$G/.git/postrider/secret")"
(umask 000 && git -C "$G" gc -q) || die "git gc"
expect_eq "git itself, under umask 000, keeps to it (git gc)" "" "$(writable_by_others "$G/.git")"

# doctor: a game made before (a group-writable config and refs, packed by
# the gc above; a world-writable hooks folder), and a secret others may
# write
printf 'transport: outbox\n' >"$TRASH/cfg.yaml"
expect_exit 0 postrider doctor --config "$TRASH/cfg.yaml" "$G"
expect_fixed "a game whose files are its owner's passes" "no file of the game can be written by other users" "$TRASH/out"
chmod g+w "$G/.git/config" "$G/.git/packed-refs"
chmod o+w "$G/.git/hooks"
expect_exit 1 postrider doctor --config "$TRASH/cfg.yaml" "$G"
expect_fixed "doctor names files others can write" \
	"3 files or folders of game" "$TRASH/out"
expect_fixed "... the config among them" "'$G/.git/config'" "$TRASH/out"
expect_fixed "... and says what to do" "chmod -R go-w '$G'" "$TRASH/out"
chmod -R go-w "$G"
chmod 622 "$G/.git/postrider/secret"
expect_exit 1 postrider doctor --config "$TRASH/cfg.yaml" "$G"
expect_fixed "a secret others can write is named" \
	"its secret '$G/.git/postrider/secret' can be written by other users (mode 622): chmod 600" "$TRASH/out"
chmod 600 "$G/.git/postrider/secret"
expect_exit 0 postrider doctor --config "$TRASH/cfg.yaml" "$G"

test_done
