#!/bin/sh
# t-publish.sh - a game pushed to its remote after every turn (issue 19),
# over the real transports a club would use:
#
#  HTTPS  git http-backend behind lighttpd with TLS (a certificate signed
#         by a test CA made here) and basic authentication;
#  SSH    a private sshd on a loopback port, its host key in a known_hosts
#         file made here, a key pair for the host.
#
# Checked: `new --publish URL` pushes the first commit; every accepted turn
# is pushed by itself; a player's clone of the remote audits; a push that
# fails (server down) loses no turn, says PUSH FAILED, and `postrider send`
# (or `publish`) pushes what is missing once the server is back; an
# untrusted certificate, a wrong password, an unknown or changed SSH host
# key refuse the push; `publish --no-remote` stops publishing.
#
# It needs root (a private sshd) and installs lighttpd and openssh-server
# through contrib/install-deps; without root it fails and says so.

cd "$(dirname "$0")/../.." || exit 1
. tests/e2e/lib.sh
# Under make sanitize: whole stacks at each allocation (libgit2 has no
# frame pointers), so that tests/lsan.supp can name the libgit2 function
# under which its SSH transport leaks. Ignored by a build without ASan.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"

need_root_and_tools "it runs a private sshd" \
	/usr/sbin/lighttpd /usr/sbin/sshd /usr/bin/ssh-keygen /usr/bin/openssl \
	/usr/lib/git-core/git-http-backend /usr/lib/lighttpd/mod_openssl.so

# wait_port PORT: until something listens there (60 s at most)
wait_port() {
	"$PY" - "$1" <<'EOF'
import socket, sys, time
for _ in range(600):
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.2).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.1)
sys.exit(1)
EOF
}

# remote_head BARE: what main points to in a bare repository
remote_head() {
	git -C "$1" rev-parse -q --verify refs/heads/main 2>/dev/null
}

# --- a test CA and a server certificate --------------------------------------
T=$TRASH/tls
mkdir -p "$T"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	-keyout "$T/ca.key" -out "$T/ca.pem" -days 30 \
	-subj "/CN=postrider test CA" >"$T/log" 2>&1 || die "test CA: $(cat "$T/log")"
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	-keyout "$T/srv.key" -out "$T/srv.csr" -subj "/CN=127.0.0.1" >"$T/log" 2>&1 ||
	die "server key: $(cat "$T/log")"
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >"$T/ext"
openssl x509 -req -in "$T/srv.csr" -CA "$T/ca.pem" -CAkey "$T/ca.key" \
	-CAcreateserial -out "$T/srv.pem" -days 30 -extfile "$T/ext" >"$T/log" 2>&1 ||
	die "server certificate: $(cat "$T/log")"
# another CA, which signed nothing here
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	-keyout "$T/other.key" -out "$T/other.pem" -days 30 \
	-subj "/CN=someone else" >"$T/log" 2>&1 || die "other CA: $(cat "$T/log")"

# --- lighttpd with git http-backend, TLS and basic authentication ------------
H=$TRASH/https
HPORT=$(free_port)
HPORT2=$(free_port)
mkdir -p "$H/www" "$H/repos"
git init -q --bare "$H/repos/club.git"
git -C "$H/repos/club.git" config http.receivepack true
printf 'referee:s3cret-push\n' >"$H/users"
cat >"$H/lighttpd.conf" <<EOF
server.document-root = "$H/www"
server.bind = "127.0.0.1"
server.port = $HPORT
server.errorlog = "$H/error.log"
server.pid-file = "$H/lighttpd.pid"
server.modules = ( "mod_alias", "mod_setenv", "mod_auth", "mod_authn_file",
                   "mod_cgi", "mod_openssl", "mod_redirect" )
ssl.engine = "enable"
ssl.pemfile = "$T/srv.pem"
ssl.privkey = "$T/srv.key"
# the same server on a second port: another origin, to which /moved/ sends
# its clients (a server that would collect the password)
\$SERVER["socket"] == "127.0.0.1:$HPORT2" {
	ssl.engine = "enable"
	ssl.pemfile = "$T/srv.pem"
	ssl.privkey = "$T/srv.key"
}
\$HTTP["url"] =~ "^/moved/" {
	url.redirect = ( "^/moved/(.*)\$" => "https://localhost:$HPORT2/git/\$1" )
}
alias.url = ( "/gitpush" => "/usr/lib/git-core/git-http-backend",
              "/git" => "/usr/lib/git-core/git-http-backend" )
\$HTTP["url"] =~ "^/git/" {
	cgi.assign = ( "" => "" )
	setenv.set-environment = ( "GIT_PROJECT_ROOT" => "$H/repos",
	                           "GIT_HTTP_EXPORT_ALL" => "1" )
	auth.backend = "plain"
	auth.backend.plain.userfile = "$H/users"
	auth.require = ( "" => ( "method" => "basic", "realm" => "games",
	                         "require" => "valid-user" ) )
}
# a server that asks for the password only on the push itself
\$HTTP["url"] =~ "^/gitpush/" {
	cgi.assign = ( "" => "" )
	setenv.set-environment = ( "GIT_PROJECT_ROOT" => "$H/repos",
	                           "GIT_HTTP_EXPORT_ALL" => "1" )
	\$HTTP["url"] =~ "/git-receive-pack\$" {
		auth.backend = "plain"
		auth.backend.plain.userfile = "$H/users"
		auth.require = ( "" => ( "method" => "basic", "realm" => "games",
		                         "require" => "valid-user" ) )
	}
}
EOF
# start_https [first]: lighttpd on $HPORT; the first time, a port taken
# meanwhile (by another suite: lighttpd binds before it forks, and fails)
# is given up for another free one
start_https() {
	_try=0
	until /usr/sbin/lighttpd -f "$H/lighttpd.conf" >"$H/start.log" 2>&1; do
		_try=$((_try + 1))
		[ "${1:-}" = first ] && [ $_try -lt 5 ] &&
			grep -q "in use" "$H/start.log" "$H/error.log" 2>/dev/null ||
			die "lighttpd: $(cat "$H/start.log" "$H/error.log" 2>/dev/null)"
		HPORT=$(free_port)
		sed -i "s/^server.port = .*/server.port = $HPORT/" "$H/lighttpd.conf"
	done
	wait_port "$HPORT" || die "lighttpd does not listen on $HPORT: $(cat "$H/error.log")"
}
# stop_https: lighttpd ends (it removes its pid file as it exits)
_https_gone() { [ ! -f "$H/lighttpd.pid" ]; }
stop_https() {
	[ -f "$H/lighttpd.pid" ] && kill "$(cat "$H/lighttpd.pid")" 2>/dev/null
	wait_for 60 _https_gone || echo "# lighttpd did not end within 60 s"
	rm -f "$H/lighttpd.pid"
}
at_exit stop_https
start_https first
ok "lighttpd serves git over HTTPS on 127.0.0.1:$HPORT"

# --- sshd on a loopback port --------------------------------------------------
S=$TRASH/ssh
SPORT=$(free_port)
mkdir -p "$S/repos" /run/sshd
git init -q --bare "$S/repos/club.git"
ssh-keygen -q -t ecdsa -b 256 -N '' -f "$S/host_key" || die "ssh host key"
ssh-keygen -q -t ecdsa -b 256 -N '' -C referee -f "$S/referee_key" || die "ssh user key"
ssh-keygen -q -t ecdsa -b 256 -N '' -C stranger -f "$S/stranger_key" || die "ssh key"
ssh-keygen -q -t ecdsa -b 256 -N '' -f "$S/other_host_key" || die "ssh host key"
cp "$S/referee_key.pub" "$S/authorized_keys"
chmod 600 "$S/authorized_keys"
cat >"$S/sshd_config" <<EOF
Port $SPORT
ListenAddress 127.0.0.1
HostKey $S/host_key
AuthorizedKeysFile $S/authorized_keys
PidFile $S/sshd.pid
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
UsePAM no
StrictModes no
LogLevel VERBOSE
EOF
# sshd binds before it forks, and fails on a port taken meanwhile (by
# another suite): then another free one
_try=0
until /usr/sbin/sshd -f "$S/sshd_config" -E "$S/sshd.log"; do
	_try=$((_try + 1))
	[ $_try -lt 5 ] && grep -q "in use" "$S/sshd.log" || die "sshd: $(cat "$S/sshd.log")"
	SPORT=$(free_port)
	sed -i "s/^Port .*/Port $SPORT/" "$S/sshd_config"
done
at_exit '[ -f "$S/sshd.pid" ] && kill "$(cat "$S/sshd.pid")" 2>/dev/null'
wait_port "$SPORT" || die "sshd does not listen on $SPORT: $(cat "$S/sshd.log")"
ok "sshd listens on 127.0.0.1:$SPORT"
# known_hosts as `ssh-keyscan` would write it, hashed (ssh-keygen -H)
printf '[127.0.0.1]:%s %s\n' "$SPORT" "$(cut -d' ' -f1,2 "$S/host_key.pub")" >"$S/known_hosts"
ssh-keygen -q -H -f "$S/known_hosts" >/dev/null 2>&1 || die "ssh-keygen -H"
rm -f "$S/known_hosts.old"
grep -q '^|1|' "$S/known_hosts" || die "known_hosts is not hashed"
printf '[127.0.0.1]:%s %s\n' "$SPORT" "$(cut -d' ' -f1,2 "$S/other_host_key.pub")" >"$S/known_hosts.changed"
: >"$S/known_hosts.empty"

# --- the host's configurations ---------------------------------------------
cfg() {	# cfg FILE LINES...: a configuration with transport: outbox
	_f=$1
	shift
	{
		echo "transport: outbox"
		echo "publish:"
		for _l in "$@"; do echo "  $_l"; done
	} >"$_f"
	chmod 600 "$_f"
}
printf 's3cret-push\n' >"$TRASH/push-password"
chmod 600 "$TRASH/push-password"
cfg "$TRASH/https.yaml" "ca_file: $T/ca.pem" "username: referee" \
	"password_file: $TRASH/push-password"
cfg "$TRASH/https-other-ca.yaml" "ca_file: $T/other.pem" "username: referee" \
	"password_file: $TRASH/push-password"
cfg "$TRASH/https-wrong-pw.yaml" "ca_file: $T/ca.pem" "username: referee" \
	"password: not-the-password"
cfg "$TRASH/ssh.yaml" "ssh_key: $S/referee_key" "known_hosts: $S/known_hosts"
cfg "$TRASH/ssh-unknown.yaml" "ssh_key: $S/referee_key" "known_hosts: $S/known_hosts.empty"
cfg "$TRASH/ssh-changed.yaml" "ssh_key: $S/referee_key" "known_hosts: $S/known_hosts.changed"
cfg "$TRASH/ssh-stranger.yaml" "ssh_key: $S/stranger_key" "known_hosts: $S/known_hosts"

# localhost, not 127.0.0.1: the certificate names both, but Debian's
# libgit2 checks names with mbedTLS 2, which matches no IP address entry
HURL=https://localhost:$HPORT/git/club.git
SURL=ssh://root@127.0.0.1:$SPORT$S/repos/club.git

# === HTTPS ===================================================================
G=$TRASH/games/h
export POSTRIDER_CONFIG=$TRASH/https.yaml
new_game "$G" --publish "$HURL"
expect_grep "https: new says it published" "^published [0-9a-f]\{12\} to $HURL" "$TRASH/new.out"
expect_eq "https: the first commit is on the remote" "$(git -C "$G" rev-parse HEAD)" \
	"$(remote_head "$H/repos/club.git")"
expect_eq "https: the remote is named in the game's .git/config" "$HURL" \
	"$(git -C "$G" config remote.publish.url)"
expect_eq "https: the remote is not in the history" "" \
	"$(git -C "$G" grep -l "$HPORT" HEAD 2>/dev/null)"
for i in 1 2 3; do
	play_first_legal "$G"
	expect_eq "https: turn $i is on the remote by itself" \
		"$(git -C "$G" rev-parse HEAD)" "$(remote_head "$H/repos/club.git")"
done
expect_fixed "https: play says it published" "published " "$TRASH/play.out"

# A player clones the remote over HTTPS with git itself and audits it.
GIT_SSL_CAINFO=$T/ca.pem git clone -q \
	"https://referee:s3cret-push@localhost:$HPORT/git/club.git" "$TRASH/clone-h" \
	>"$TRASH/clone.log" 2>&1 || fail "https: git clone" "$(cat "$TRASH/clone.log")"
# (exit 3: verified, but the test's seed was given, so not a fair game)
expect_exit 4 postrider audit "$TRASH/clone-h"
expect_fixed "https: the clone audits" "verified without the seed" "$TRASH/out"

# The server goes down: the turn is played and committed, the push fails
# loudly, nothing is lost; `postrider send` pushes it once it is back.
stop_https
before=$(remote_head "$H/repos/club.git")
# (play_first_legal dies if the order is not accepted, exit 0)
if play_first_legal "$G"; then
	ok "https down: the turn is accepted all the same (exit 0)"
else
	fail "https down: the turn is accepted all the same (exit 0)" "the game is over"
fi
expect_fixed "https down: PUSH FAILED on stderr" "PUSH FAILED" "$TRASH/play.err"
expect_fixed "https down: how to retry is said" "postrider send" "$TRASH/play.err"
expect_eq "https down: the remote did not move" "$before" "$(remote_head "$H/repos/club.git")"
expect_ne "https down: the turn is committed" "$before" "$(git -C "$G" rev-parse HEAD)"
expect_exit 75 postrider send "$G"
start_https
expect_exit 0 postrider send "$G"
expect_eq "https back: send pushed the missing turn" "$(git -C "$G" rev-parse HEAD)" \
	"$(remote_head "$H/repos/club.git")"

# Refusals: a certificate from another CA, a wrong password. Nothing moves.
play_first_legal "$G"
head_h=$(git -C "$G" rev-parse HEAD)
at_remote=$(remote_head "$H/repos/club.git")
expect_exit 75 postrider publish "$G" --config "$TRASH/https-other-ca.yaml"
expect_fixed "https: another CA's certificate is not trusted" "not trusted" "$TRASH/err"
expect_exit 75 postrider publish "$G" --config "$TRASH/https-wrong-pw.yaml"
expect_fixed "https: a wrong password is refused" "refused the user name and password" "$TRASH/err"
expect_eq "https: nothing was pushed by the refused tries" "$at_remote" "$(remote_head "$H/repos/club.git")"
expect_exit 0 postrider publish "$G"
expect_eq "https: publish pushes by hand" "$head_h" "$(remote_head "$H/repos/club.git")"

# A server that asks for the password only once the push is sent: said so.
git init -q --bare --initial-branch=main "$H/repos/late.git"
git -C "$H/repos/late.git" config http.receivepack true
expect_exit 75 postrider publish "$G" --remote "https://localhost:$HPORT/gitpush/late.git"
expect_fixed "https: a password asked only on the push: said so" \
	"asked for a user name and password only once the push itself was sent" "$TRASH/err"
expect_fixed "... and what to do" "or publish over ssh://" "$TRASH/err"
expect_no_fixed "... not libgit2's words alone" "PUSH FAILED: push to https://localhost:$HPORT/gitpush/late.git: unexpected" "$TRASH/err"
expect_exit 0 postrider publish "$G" --remote "$HURL"

# Issue 39, item 6: the push password goes only to the remote's own host
# (scheme, name and port): a server that redirects the push elsewhere gets
# nothing, and says so; the remote did not move.
expect_exit 75 postrider publish "$G" --remote "https://localhost:$HPORT/moved/club.git"
expect_fixed "https: a redirect to another host gets no password" \
	"not the remote's (https://localhost:$HPORT): no password is given to it" "$TRASH/err"
expect_no_fixed "... and the password is never printed" "s3cret-push" "$TRASH/err"
at_remote=$(remote_head "$H/repos/club.git")
play_first_legal "$G"
expect_fixed "https: the next turn's push is refused the same way" \
	"no password is given to it" "$TRASH/play.err"
expect_eq "https: nothing was pushed there" "$at_remote" "$(remote_head "$H/repos/club.git")"
expect_exit 0 postrider publish "$G" --remote "$HURL"
expect_eq "https: the remote's own host gets it" "$(git -C "$G" rev-parse HEAD)" \
	"$(remote_head "$H/repos/club.git")"

# Credentials never in the URL, never plain http:// (issue 28, item 8).
before=$(git -C "$G" config remote.publish.url)
expect_exit 1 postrider publish "$G" --remote "https://referee:s3cret-push@localhost:$HPORT/git/club.git"
expect_fixed "a password in the URL is refused" "holds a password" "$TRASH/err"
expect_no_fixed "... and never printed" "s3cret-push" "$TRASH/err"
expect_eq "... nothing changed in .git/config" "$before" "$(git -C "$G" config remote.publish.url)"
expect_exit 1 postrider publish "$G" --remote "http://localhost:$HPORT/git/club.git"
expect_fixed "plain http:// is refused" "plain http://" "$TRASH/err"
expect_exit 2 postrider new "$TRASH/games/pw" --american "$AMERICAN" --british "$BRITISH" \
	--publish "https://referee:s3cret-push@localhost:$HPORT/git/club.git"
expect_fixed "new --publish with a password is refused" "holds a password" "$TRASH/err"
expect_eq "... and makes nothing" "" "$(ls "$TRASH/games/pw" 2>/dev/null)"
# a game whose .git/config holds one already (set before postrider refused
# it): not pushed, and the password is never printed
git -C "$G" config remote.publish.url "https://referee:s3cret-push@localhost:$HPORT/git/club.git"
play_first_legal "$G"
expect_fixed "a stored password: PUSH FAILED" "PUSH FAILED" "$TRASH/play.err"
expect_no_fixed "... the password is not printed" "s3cret-push" "$TRASH/play.err"
expect_fixed "... the URL is shown without it" "https://referee:***@localhost" "$TRASH/play.err"
git -C "$G" config remote.publish.url "$HURL"

# === SSH =====================================================================
G2=$TRASH/games/s
export POSTRIDER_CONFIG=$TRASH/ssh.yaml
new_game "$G2"
expect_exit 1 postrider publish "$G2"
expect_fixed "ssh: publish without a remote says how to name one" "--remote URL" "$TRASH/err"
expect_exit 0 postrider publish "$G2" --remote "$SURL"
expect_eq "ssh: publish --remote names the remote and pushes" \
	"$(git -C "$G2" rev-parse HEAD)" "$(remote_head "$S/repos/club.git")"
for i in 1 2; do
	play_first_legal "$G2"
	expect_eq "ssh: turn $i is on the remote by itself" \
		"$(git -C "$G2" rev-parse HEAD)" "$(remote_head "$S/repos/club.git")"
done
play_first_legal "$G2"
at_remote=$(remote_head "$S/repos/club.git")
expect_exit 75 postrider publish "$G2" --config "$TRASH/ssh-unknown.yaml"
expect_fixed "ssh: an unknown host is refused" "is not in the known hosts file" "$TRASH/err"
expect_exit 75 postrider publish "$G2" --config "$TRASH/ssh-changed.yaml"
expect_fixed "ssh: a changed host key is refused" "it has changed" "$TRASH/err"
expect_exit 75 postrider publish "$G2" --config "$TRASH/ssh-stranger.yaml"
expect_fixed "ssh: a key the server does not know is refused" "refused the key" "$TRASH/err"
expect_eq "ssh: nothing was pushed by the refused tries" "$at_remote" "$(remote_head "$S/repos/club.git")"
expect_exit 0 postrider send "$G2"
expect_eq "ssh: send pushes what is missing" "$(git -C "$G2" rev-parse HEAD)" \
	"$(remote_head "$S/repos/club.git")"
git clone -q "$S/repos/club.git" "$TRASH/clone-s" 2>"$TRASH/clone.log" ||
	fail "ssh: clone" "$(cat "$TRASH/clone.log")"
expect_exit 4 postrider audit "$TRASH/clone-s"
expect_fixed "ssh: the clone audits" "verified without the seed" "$TRASH/out"

# A remote that has moved on its own is never overwritten.
git clone -q "$S/repos/club.git" "$TRASH/rogue" 2>/dev/null
git -C "$TRASH/rogue" commit -q --allow-empty -m "someone else's commit"
git -C "$TRASH/rogue" push -q origin main 2>/dev/null || die "rogue push"
rogue=$(remote_head "$S/repos/club.git")
play_first_legal "$G2"
expect_fixed "ssh: a remote that moved refuses the push" "PUSH FAILED" "$TRASH/play.err"
expect_eq "ssh: the remote's own commit stays" "$rogue" "$(remote_head "$S/repos/club.git")"

expect_exit 0 postrider publish "$G2" --no-remote
expect_eq "no-remote: the game names no remote" "" "$(git -C "$G2" config remote.publish.url)"
play_first_legal "$G2"
expect_no_fixed "no-remote: play pushes nothing" "publish" "$TRASH/play.out"
expect_no_fixed "no-remote: nor fails" "PUSH FAILED" "$TRASH/play.err"

test_done
