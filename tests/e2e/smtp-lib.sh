# smtp-lib.sh - a real SMTP server for a test: aiosmtpd (Debian's
# python3-aiosmtpd) on a port of 127.0.0.1 of this run's own, writing what
# it receives to the Maildir $MBOX (or, with SMTP_SERVER=refuse-bob set
# before, refusing bob@... with a 550 and taking the rest). Sourced after
# lib.sh: $PORT is set
# at once (the server is down: a client is refused), start_server and
# stop_server bring it up and down on that same port, and it ends with
# the script. tests/e2e/smtp-server.py holds the port the whole time, so
# no other program (another suite's server) can take it meanwhile.

"$PY" -c 'import aiosmtpd' 2>"$TRASH/err" ||
	die "aiosmtpd for $PY is missing (apt-get install python3-aiosmtpd): $(cat "$TRASH/err")"

MBOX=$TRASH/mailbox

# smtp_server_run PORTFILE KIND [DIR]: starts tests/e2e/smtp-server.py
# (down) and sets smtp_server_pid and PORT; it ends with the script
smtp_server_run() {
	"$PY" "$ROOT/tests/e2e/smtp-server.py" "$@" >>"$TRASH/server.log" 2>&1 &
	smtp_server_pid=$!
	at_exit "kill $smtp_server_pid 2>/dev/null; wait $smtp_server_pid 2>/dev/null"
	_i=0
	while [ ! -s "$1" ]; do
		_i=$((_i + 1))
		if [ $_i -gt 600 ] || ! kill -0 "$smtp_server_pid" 2>/dev/null; then
			die "the SMTP server holds a port of 127.0.0.1: $(cat "$TRASH/server.log")"
		fi
		sleep 0.1
	done
	PORT=$(cat "$1")
}
smtp_server_run "$TRASH/smtp.port" "${SMTP_SERVER:-mailbox}" "$MBOX"
server_pid=$smtp_server_pid

# is_listening: something accepts connections on 127.0.0.1:$PORT
is_listening() {
	"$PY" -c 'import socket, sys
s = socket.socket()
s.settimeout(1)
sys.exit(s.connect_ex(("127.0.0.1", int(sys.argv[1]))))' "$PORT"
}

_server_up() { [ -e "$TRASH/smtp.port.up" ]; }
_server_down() { [ ! -e "$TRASH/smtp.port.up" ]; }

start_server() {
	kill -USR1 "$server_pid" 2>/dev/null ||
		die "the SMTP server runs: $(cat "$TRASH/server.log")"
	wait_for 60 _server_up && is_listening ||
		die "the SMTP server listens on 127.0.0.1:$PORT: $(cat "$TRASH/server.log")"
}

stop_server() {
	kill -USR2 "$server_pid" 2>/dev/null
	wait_for 60 _server_down ||
		die "the SMTP server stops listening: $(cat "$TRASH/server.log")"
}
